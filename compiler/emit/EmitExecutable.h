// rngd dialect <-> executable file contents.
#pragma once

#include "dialects/rngd/IR/RngdDialect.h"
#include "rngd/Executable.h"

#include <optional>

namespace rngd::emit {

/// Collects an rngd.executable into the file model; emits a diagnostic on anything the
/// format cannot hold.
std::optional<Executable> toExecutable(rngd::ExecutableOp op);

} // namespace rngd::emit
