// Small helpers shared by the mapping library's files.
#pragma once

#include "Mapping.h"

#include <string>

namespace rngd::mapping::detail {

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline std::string num(int64_t n) { return std::to_string(n); }

/// Records an error naming `term`; returns false for `return fail(...)`.
inline bool fail(Error &err, std::string term, std::string message) {
  err.term = std::move(term);
  err.message = std::move(message);
  return false;
}

} // namespace rngd::mapping::detail
