// The scheduler's units: the DMAs and Tensor Unit passes of a kernel, each with its memory
// footprint, its DMA parts or configuration blocks, and (once scheduled) its times, waits and
// tags. Built from tcp ops by buildUnits (Units.cpp); the unit tests build them by hand.
#pragma once

#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/Analysis/DmaParts.h"

#include "rngd/Isa.h"

#include "rngd/machine/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <bitset>
#include <optional>
#include <vector>

namespace rngd::tcp::sched {

constexpr size_t kMaxSlices = isa::kSliceBitmapWords * 64; // slices a pass bitmap names
using SliceSet = std::bitset<kMaxSlices>;

/// A byte range of one memory: an HBM argument's bytes, or the same per-slice range on a set of
/// slices. An HBM view that holds `run` bytes of every `period` (half of every row) has both
/// set: two such views of one period overlap only where their runs do.
struct Region {
  enum Space { Hbm, Dm, Trf, Vrf } space;
  int64_t arg = -1; // HBM: argument number
  SliceSet slices;  // DM/TRF/VRF
  int64_t lo = 0, hi = 0;
  int64_t period = 0, run = 0; // 0: every byte of [lo, hi)

  bool overlaps(const Region &o) const;

  static Region hbm(int64_t arg, int64_t lo, int64_t hi) { return {Hbm, arg, {}, lo, hi}; }
  /// [lo, hi) on slices [first, last].
  static Region onSlices(Space space, int64_t first, int64_t last, int64_t lo, int64_t hi);
};

using Footprint = llvm::SmallVector<Region, 4>;
bool overlaps(const Footprint &a, const Footprint &b);

struct Unit {
  mlir::Operation *op = nullptr; // the DMA op or the pass's end (null in unit tests)
  bool isDma = false;
  std::vector<DmaPart> parts; // a DMA's descriptors (dmaParts)
  std::optional<DmaOpPlan> plan; // a tcp.dma's plan, to re-cut its streams at issue
  std::optional<IndirectDmaPlan> indirect; // a gather's or scatter's, to split it at issue
  llvm::SmallVector<int64_t> chunks;   // the parts' sizes chosen at issue (streams, the last DMA)
  int64_t context = 0;        // pass context (0 main, 1 sub)
  int64_t bank = 0;           // the register bank of its context it loads and runs on
  int64_t cycles = 0;         // a pass's cycles
  struct Block {
    isa::Unit unit;
    std::vector<uint64_t> words; // its register words (passBlocks, packed)
  };
  llvm::SmallVector<Block> blocks;    // config blocks the pass loads, in lowering order
  llvm::SmallVector<int64_t> loadMasks; // per block: the words its load writes, 0 if none (issue)
  uint16_t execUnits = 0;       // the engines its exec lists (isa::UnitBit)
  llvm::SmallVector<ConfigUnit> earlyLoads; // blocks loaded before its waits (unused by the
                                            // pass running on its bank then)
  int64_t loadsBefore = -1; // a pass: the unit before whose waits its early loads go (-1: its
                            // own waits); see ListScheduler::hoistLoads
  int64_t waitSlack = 0;    // queue cycles its waits idle that loads could fill unchanged
  bool usesVector = false;
  bool holdsDma = false;    // a pass that could break the same-bank rule (passHoldsDma)
  bool resultStore = false; // a DMA writing HBM that no later unit waits for
  Footprint reads, writes;
  llvm::SmallVector<size_t> preds;
  // Scheduling results.
  bool issued = false, retired = false;
  QueueClock::Interval span;          // first start to last end (a DMA's: after finish())
  llvm::SmallVector<QueueClock::DmaId> dmas; // per DMA part, in the clock
  llvm::SmallVector<int64_t> tags, partStarts, partEnds; // per DMA part
  llvm::SmallVector<Wait> waits; // emitted before the unit
  // What set its start: its commands issued once the queue had waited for the end of unit
  // `after` ("waits") or right after unit `after`'s ("queue"); -1 with "start" for the
  // kernel's first command. A DMA part may then wait for its engine: partAfter
  // (ListScheduler::resolveEngineWaits) is the DMA unit whose part there ended when it started
  // (-1: it did not wait).
  int64_t after = -1;
  IssueReason why = IssueReason::start;
  llvm::SmallVector<int64_t> partAfter;
  int64_t issuedAt = 0;     // queue time after the unit's waits
  llvm::SmallVector<int64_t> prevOnEngine; // per DMA part: the previous DMA unit on its engine

  bool isStream() const { return !parts.empty() && parts.front().stream; }
  /// The engines of its parts, in order.
  llvm::SmallVector<int64_t> engines() const;
};

/// Whether a pass whose DM sequencers (fetch, commit) make `longestSameBankRun` consecutive
/// accesses to one bank could starve a concurrent DMA (docs/hardware.md section 3.3): it then
/// must not overlap any DMA.
bool passHoldsDma(const TargetModel &t, int64_t longestSameBankRun);

/// The kernel's units in program order: every DMA and every pass (by its end op) of `func`.
mlir::LogicalResult buildUnits(mlir::func::FuncOp func, const TargetModel &t,
                               std::vector<Unit> &units);

} // namespace rngd::tcp::sched
