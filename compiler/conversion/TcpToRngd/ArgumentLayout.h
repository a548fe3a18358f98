// Where each kernel argument lives in the kernel's HBM space.
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>
#include <vector>

namespace rngd::conversion {

struct ArgumentSlot {
  std::string name;   // from `tcp.name`, else "arg<i>"
  std::string kind;   // in | out | inout
  std::string mapping;
  std::vector<int64_t> shape;
  int64_t offset = 0; // bytes, aligned to the target's HBM argument alignment
  int64_t bytes = 0;
};

struct ArgumentLayout {
  std::vector<ArgumentSlot> slots;
  int64_t totalBytes = 0;
};

/// Lays out the arguments in order; emits a diagnostic and returns nullopt on a bad type.
std::optional<ArgumentLayout> layoutArguments(mlir::func::FuncOp func);

} // namespace rngd::conversion
