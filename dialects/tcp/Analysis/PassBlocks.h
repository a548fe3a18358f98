// The configuration blocks a Tensor Unit pass loads: one place that turns a planned pass (and
// the addresses tcp-allocate-memory gave its tensors) into register values, for tcp-schedule
// (which loads only the words that change) and convert-tcp-to-rngd (which emits them).
#pragma once

#include "dialects/tcp/IR/TcpPlan.h"

#include "rngd/Isa.h"

namespace rngd::tcp {

struct PassBlock {
  isa::Unit unit;
  mlir::Location loc;          // the op the block configures
  std::vector<int64_t> values; // table order, arrays expanded (isa::UnitSpec)
};

struct PassBlocks {
  Context context = Context::main;
  uint16_t execUnits = 0;             // the units its exec lists (isa::UnitBit)
  llvm::SmallVector<PassBlock> blocks; // in unit order: fetch, switch, contract, vector, ...
};

/// The blocks of the pass ending at `end`; an error at the op (and std::nullopt) when a tensor
/// it reads or writes has no address yet.
std::optional<PassBlocks> passBlocks(mlir::Operation *end);

} // namespace rngd::tcp
