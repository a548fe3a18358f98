// Shared by the fuzz targets: a property check that stops the run with a message, under
// libFuzzer (a finding) and in the replay driver (a failed ctest) alike.
#pragma once

#include <cstdio>
#include <cstdlib>

#define RNGD_FUZZ_CHECK(cond, ...)                                                                 \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "%s:%d: fuzz property failed: %s: ", __FILE__, __LINE__, #cond);       \
      std::fprintf(stderr, __VA_ARGS__);                                                           \
      std::fprintf(stderr, "\n");                                                                  \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)
