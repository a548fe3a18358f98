// The schedule JSON (docs/design.md section 1) of a scheduled tcp module.
#pragma once

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace rngd::emit {

constexpr int kScheduleFormatVersion = 1;

/// Deterministic JSON: locations as basename:line:col, no versions or paths.
std::string scheduleJson(mlir::ModuleOp module);

} // namespace rngd::emit
