// Where a scheduled kernel's DM, TRF and VRF tensors live, for how long, and what makes up the
// peak of each memory.
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace rngd::emit {

struct PlacedTensor {
  std::string space; // dm | trf | vrf
  mlir::Value value;
  std::string loc;   // basename:line:col of the op that defines it
  int64_t def = 0, lastUse = 0; // program-order op indices
  int64_t offset = 0, bytes = 0; // per slice (per lane for the TRF)
};

struct SpaceUsage {
  std::string space;
  int64_t capacity = 0;  // bytes per slice (per lane segment for the TRF)
  int64_t peakBytes = 0; // the most bytes live at one program point
  int64_t peakAt = 0;    // that program point (op index)
  std::vector<size_t> atPeak; // indices into MemoryReport::tensors
};

struct MemoryReport {
  std::vector<PlacedTensor> tensors; // program order; aliases (reinterpret, vrf_view) omitted
  std::vector<SpaceUsage> spaces;    // dm, trf, vrf
};

/// Reads the offsets tcp-allocate-memory assigned.
MemoryReport memoryReport(mlir::func::FuncOp func);

/// A text table: the tensors of each space and its peak.
std::string formatMemoryReport(const MemoryReport &report);

/// "file:line:col" with the file's basename (locations in goldens must not carry paths).
std::string location(mlir::Location loc);

} // namespace rngd::emit
