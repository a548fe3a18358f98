// rngd-qwen3: Qwen3 on the RNGD simulator (docs/qwen3.md). The options (CliOptions.h) and the
// runs (CliRun.h: one prompt, or --prompts' requests batched) are in the host library's tool
// files; this is main.
#include "qwen3/host/CliOptions.h"
#include "qwen3/host/CliRun.h"

#include <cstdio>
#include <exception>
#include <new>

int main(int argc, char **argv) {
  try {
    return rngd::qwen3::cli::run(rngd::qwen3::cli::parseArgs(argc, argv));
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "rngd-qwen3: error: out of memory\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rngd-qwen3: error: %s\n", e.what());
  }
  return 1;
}
