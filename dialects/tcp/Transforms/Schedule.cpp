// tcp-schedule: list scheduling of the kernel's commands over the in-order queue (Passes.td
// describes the rules). The parts live in Schedule/: the units and their footprints (Units),
// the dependence graph (DependenceGraph), the policies (Choice: which unit next; Engines: DMA
// engines and stream shares; Banks: register banks and partial loads; Tags: the 64 DMA tags),
// the issue loop (ListScheduler, Streams) and the attributes it writes (Emit). This file runs
// the scheduler up to sixty-four times and keeps the shortest schedule.
#include "dialects/tcp/Transforms/Passes.h"

#include "Schedule/DependenceGraph.h"
#include "Schedule/Emit.h"
#include "Schedule/ListScheduler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <deque>
#include <memory>

namespace rngd::tcp {
#define GEN_PASS_DEF_TCPSCHEDULE
#include "dialects/tcp/Transforms/Passes.h.inc"
} // namespace rngd::tcp

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;
using namespace rngd::tcp::sched;

namespace {

bool tries(ScheduleChoice choice, bool on) {
  return choice == ScheduleChoice::best || (choice == ScheduleChoice::always) == on;
}

/// Up to sixty-four runs: with and without staggering the streams whose spare is busy (the
/// next stream may then find its spare taken by a small DMA), the first weight stream leaving
/// an engine to the next, short streams first and passes that unlock DMAs first (chooseNext),
/// copies and small loads beside the weight streams (on the spare engine), critical DMAs before
/// a weight stream (chooseNext);
/// which helps depends on the kernel, so the shortest schedule is kept (ties: the earlier run,
/// the plain one first). A run takes about a millisecond for a stage.
struct Choices {
  ScheduleChoice staggerBusySpare, leaveEngine, shortStreamsFirst, unlockDmas, besideStreams,
      criticalDmasFirst;
};

LogicalResult scheduleFunction(func::FuncOp func, const TargetModel &t, const Choices &choice,
                               int64_t &makespan) {
  std::vector<Unit> units;
  if (failed(buildUnits(func, t, units)))
    return failure();
  linkUnits(units);
  std::deque<std::vector<Unit>> runs; // a deque: each scheduler holds a reference to its run
  std::vector<std::unique_ptr<ListScheduler>> schedulers;
  // Run r's bits, lowest first: stagger, leave, unlock, short-first, beside, critical (the
  // plain run first, stagger varying fastest).
  for (unsigned r = 0; r < 64; ++r) {
    const bool stagger = r & 1, leave = r & 2, unlock = r & 4, shortFirst = r & 8,
               beside = r & 16, critical = r & 32;
    if (tries(choice.leaveEngine, leave) && tries(choice.staggerBusySpare, stagger) &&
        tries(choice.shortStreamsFirst, shortFirst) && tries(choice.unlockDmas, unlock) &&
        tries(choice.besideStreams, beside) && tries(choice.criticalDmasFirst, critical)) {
      runs.push_back(units);
      schedulers.push_back(std::make_unique<ListScheduler>(
          t, runs.back(),
          SchedulerOptions{/*staggerBusySpare=*/stagger, /*leaveEngine=*/leave,
                           /*shortStreamsFirst=*/shortFirst, /*unlockDmas=*/unlock,
                           /*besideStreams=*/beside, /*criticalDmasFirst=*/critical}));
    }
  }
  size_t best = 0;
  for (size_t r = 0; r < schedulers.size(); ++r) {
    schedulers[r]->run();
    if (schedulers[r]->makespan() < schedulers[best]->makespan())
      best = r;
  }
  emitSchedule(func, runs[best], *schedulers[best]);
  makespan = schedulers[best]->makespan();
  return success();
}

struct SchedulePass : public rngd::tcp::impl::TcpScheduleBase<SchedulePass> {
  using TcpScheduleBase::TcpScheduleBase;
  void runOnOperation() override {
    const TargetModel &t = getTarget(getOperation());
    int64_t makespan = 0;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(scheduleFunction(
              func, t,
              Choices{staggerBusySpare, leaveEngine, shortStreamsFirst, unlockDmas, besideStreams,
                      criticalDmasFirst},
              makespan)))
        return signalPassFailure();
    getOperation()->setAttr(kMakespanAttrName, Builder(getOperation()).getI64IntegerAttr(makespan));
  }
};

} // namespace
