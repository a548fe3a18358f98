// The multiply-accumulates a kernel's contractions must do for the tensors it names: the
// compute side of the roofline (docs/design.md section 2; docs/performance.md, "Measuring").
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>

namespace rngd {
struct TargetModel;

/// The MACs of every `tcp.contract` of `func`: for each, the product over the axes of its
/// operands' mappings (the TRF tensor's and the stream's) that some HBM tensor of `func` (an
/// argument or a view of one, or a DM join of HBM loads) holds, of the part of each axis their
/// factors cover. Replica and broadcast axes (held by no HBM tensor), padding and the copies
/// a layout makes do not count: this is the work the kernel's math requires, not what the
/// engines run.
int64_t contractionMacs(mlir::func::FuncOp func);

/// Cycles the whole chip needs for `macs` bf16 multiply-accumulates at its peak rate (every
/// lane of every slice multiplying a full 64-byte packet each cycle).
int64_t computeCycles(const TargetModel &t, int64_t macs);

} // namespace rngd
