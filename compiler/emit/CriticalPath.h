// The chain of scheduled units that sets a kernel's makespan, read back from tcp-schedule's
// `why` and `after` fields: from the unit that ends last, each unit's start was set by the end
// of the one before it (a wait or a busy DMA engine) or by the command queue issuing it right
// after the one before it.
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace rngd::emit {

struct PathStep {
  int64_t order = 0; // tcp.schedule's issue order
  std::string context, name, loc; // context: main, sub, or the DMA engine (dmaN) of the part
  int64_t start = 0, end = 0;     // the unit's, or for a DMA the part on the path
  int64_t part = -1;              // that part's index in the DMA's parts (-1: a pass)
  std::string why; // what set the start: waits | engine | queue | start
};

/// The steps from the kernel's first command to the unit ending last; empty when `func` is not
/// scheduled.
std::vector<PathStep> criticalPath(mlir::func::FuncOp func);

/// A text table of the path, one line per step with what set its start.
std::string formatCriticalPath(mlir::func::FuncOp func);

} // namespace rngd::emit
