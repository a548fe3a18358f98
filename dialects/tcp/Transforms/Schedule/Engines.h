// DMA engine policy. Each cluster has dmaEngines / clusters engines; dmaParts puts a weight
// stream on the first ones and every other DMA on the last, the cluster's spare.
#pragma once

#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/Analysis/DmaParts.h"

#include "rngd/machine/CostModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace rngd::tcp::sched {

struct EngineGeometry {
  explicit EngineGeometry(const TargetModel &t) : perCluster(t.dmaEngines / t.clusters) {}
  int64_t perCluster;
  /// The first engine of `engine`'s cluster.
  int64_t base(int64_t engine) const { return engine / perCluster * perCluster; }
  /// The spare (last) engine of `engine`'s cluster.
  int64_t spareOf(int64_t engine) const { return base(engine) + perCluster - 1; }
  /// The engine the kernel's first weight stream leaves to the streams after it (leave-engine):
  /// its cluster's last stream engine.
  bool leftByFirstStream(int64_t engine) const {
    return engine % perCluster == perCluster - 2;
  }
};

/// The engine a DMA part meant for `engine` takes: a part for a cluster's spare takes whichever
/// engine of the cluster frees first (the spare on ties), so small DMAs do not queue behind
/// each other once the weight streams are done. Other parts (streams) keep their engine.
int64_t pickEngine(const TargetModel &t, const QueueClock &clock, int64_t engine);

/// The chunks (per engine of each part's cluster, as dmaParts takes them) that cut the
/// kernel's last DMA over its cluster's engines idle now: each part then pays its own
/// start-up, all at once, on a share of the packets. Nothing when no part is worth cutting
/// (fewer packets per part must save more than the extra commands cost) or a part has no
/// loop to cut.
std::optional<llvm::SmallVector<int64_t>> idleSplitChunks(const TargetModel &t,
                                                          const QueueClock &clock,
                                                          llvm::ArrayRef<DmaPart> parts);

/// One engine's window for a stream's piece: its data can start at `ready`, it may stream
/// until the common end plus `after`, and never past `cap` (cap <= ready: it takes no part).
struct StreamWindow {
  double ready = 0, after = 0, cap = 0;
  bool usable() const { return cap > ready; }
};

/// The common end T at which the engines' windows hold `n` iterations of `perIteration`
/// cycles (each engine streams from its ready time to the earlier of T + after and its cap).
double commonEnd(llvm::ArrayRef<StreamWindow> windows, int64_t n, double perIteration);
/// Each engine's whole iterations up to `end`: floors, then the rest to the largest
/// remainders, adding up to `n`.
llvm::SmallVector<int64_t> wholeIterations(llvm::ArrayRef<StreamWindow> windows, double end,
                                           int64_t n, double perIteration);
/// The cycles engine `i` streams until `end`.
double streamedCycles(const StreamWindow &w, double end);

} // namespace rngd::tcp::sched
