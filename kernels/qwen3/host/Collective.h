// The chips of a tensor-parallel group as the host sees them (docs/multichip.md): one process
// (rank) drives each simulated chip, and the ranks exchange the decoder's partial rows, the
// embedding row and the logits through a Collective. The interface has no MPI in it: the
// rngd-qwen3 tool implements it over MPI (MpiCollective.h); the host library only calls it.
#pragma once

#include "rngd/machine/TargetModel.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rngd::qwen3 {

class Collective {
public:
  virtual ~Collective() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// `bytes` bytes at `data` from rank `root` to every rank.
  virtual void broadcast(void *data, size_t bytes, int root) = 0;
  /// Every rank's `bytes` bytes at `mine`, in rank order, into `all` on every rank.
  virtual void allGather(const void *mine, size_t bytes, void *all) = 0;
  /// Every rank's `bytes` bytes at `mine`, in rank order, into `all` on rank 0 (the other
  /// ranks' `all` is not written).
  virtual void gather(const void *mine, size_t bytes, void *all) = 0;
};

/// The all-reduce of the decoder's partial rows: every rank's bf16 vector (the same length on
/// each) summed in f32 in rank order (((p0 + p1) + p2) + ...), rounded to bf16 once; every rank
/// gets the same bits.
void allReduceBf16(Collective &c, std::vector<uint16_t> &values);

/// The modelled device cycles of an all-reduce of `bytes` over `chips` chips linked by PCIe
/// DMA (TargetModel::pcieBytesPerCycle each way, dmaStartupCycles a transfer): a ring,
/// 2 (chips - 1) steps that each move bytes / chips. 0 for one chip.
int64_t allReduceCycles(const TargetModel &t, int chips, int64_t bytes);
/// The cycles of gathering `bytesPerChip` from every other chip onto chip 0 through its link:
/// one start-up, then (chips - 1) parts one after the other. 0 for one chip.
int64_t gatherCycles(const TargetModel &t, int chips, int64_t bytesPerChip);

} // namespace rngd::qwen3
