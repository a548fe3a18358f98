// The engine's one way to turn a runtime Status into an exception naming what failed.
#pragma once

#include "rngd/Status.h"

#include <stdexcept>
#include <string>

namespace rngd::qwen3 {

/// Throws std::runtime_error "what: <the status's message>" when `st` failed.
inline void check(const rngd::Status &st, const std::string &what) {
  if (!st)
    throw std::runtime_error(what + ": " + st.message());
}

} // namespace rngd::qwen3
