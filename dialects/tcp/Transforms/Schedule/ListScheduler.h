// The list scheduler: issues the kernel's units over the in-order command queue, timing them
// with rngd::QueueClock (the simulator's clock). ListScheduler.cpp holds the issue loop, the
// waits and the register loads; Streams.cpp the DMA parts' engines and sizes.
#pragma once

#include "Banks.h"
#include "Tags.h"
#include "Units.h"

namespace rngd::tcp::sched {

struct SchedulerOptions {
  /// Also stagger a weight stream's ends when its cluster's spare engine is busy but frees
  /// three start-ups before they would end (balanceStreams).
  bool staggerBusySpare = false;
  /// The kernel's first weight stream leaves each cluster's last stream engine to the streams
  /// after it (leaves).
  bool leaveEngine = false;
  /// chooseNext's shortStreamsFirst, unlockDmas and criticalDmasFirst rules.
  bool shortStreamsFirst = false;
  bool unlockDmas = false;
  /// A DM to DM copy, or a load of under kDmaSplitBytes a cluster, issued while a weight
  /// stream from HBM into its cluster is still to issue runs on the cluster's spare engine
  /// alone, and the streams before it leave the spare to it (besideOnSpare).
  bool besideStreams = false;
  bool criticalDmasFirst = false;
};

class ListScheduler {
public:
  /// `units` carry their predecessors (linkUnits); the scheduler writes its results into them.
  ListScheduler(const TargetModel &t, std::vector<Unit> &units, SchedulerOptions options);

  /// Issues every unit, then waits for everything still running.
  void run();

  int64_t makespan() const { return clock_.makespan(); }
  const llvm::SmallVector<Wait> &finalWaits() const { return finalWaits_; }
  /// Unit indices in issue order.
  const std::vector<size_t> &issueOrder() const { return issueOrder_; }

private:
  // ListScheduler.cpp
  llvm::SmallVector<size_t> blockers(size_t u) const;
  int64_t projectedEnd(size_t u) const;
  int64_t readyAt(size_t u);
  std::vector<int64_t> dmaUnlocks() const;
  llvm::SmallVector<Wait> retire(const llvm::SmallVector<size_t> &which, int64_t &heldBy);
  llvm::SmallVector<uint64_t> loadBlocks(size_t u);
  bool hoistLoads(size_t u, int64_t cycles);
  void cutParts(size_t u, int64_t &heldBy);
  void issue(size_t u);
  void resolveEngineWaits();
  static int64_t endOnEngine(const Unit &unit, int64_t engine);

  // Streams.cpp
  bool leaves(size_t u, int64_t engine) const;
  bool besideOnSpare(const Unit &unit, int64_t spare) const;
  int64_t spareNeed(int64_t spare, int64_t tail = 0);
  bool spareUsable(int64_t spare, int64_t at, int64_t tail = 0);
  void splitOverIdleEngines(Unit &unit);
  void balanceStreams(size_t u);
  llvm::SmallVector<int64_t> pieceShares(size_t u, size_t first, size_t last, int64_t n,
                                         double perIteration);

  const TargetModel &t_;
  std::vector<Unit> &units_;
  SchedulerOptions options_;
  std::vector<int64_t> pathToEnd_; // critical path from each unit to the kernel's end
  QueueClock clock_;
  int64_t context_[2] = {-1, -1}; // unit running on main / sub, not yet waited for
  RegisterBanks banks_;
  std::vector<int64_t> lastOnEngine_; // per engine: the DMA unit last given it
  TagPool tags_;
  llvm::SmallVector<Wait> finalWaits_;
  std::vector<size_t> issueOrder_;
  std::vector<int64_t> estimates_; // spareNeed's earliest starts, as of estimatesAt_ issues
  size_t estimatesAt_ = 0;
  int64_t leftBy_ = -1; // the first weight stream when it leaves an engine (leaves)
};

} // namespace rngd::tcp::sched
