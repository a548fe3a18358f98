#include "Emit.h"

namespace rngd::tcp::sched {

void emitSchedule(mlir::func::FuncOp func, const std::vector<Unit> &units,
                  const ListScheduler &scheduler) {
  mlir::MLIRContext *ctx = func.getContext();
  // Unit indices (program order) become issue positions.
  std::vector<int64_t> orderOf(units.size());
  for (size_t i = 0; i < scheduler.issueOrder().size(); ++i)
    orderOf[scheduler.issueOrder()[i]] = static_cast<int64_t>(i);
  auto position = [&](int64_t unit) { return unit < 0 ? -1 : orderOf[unit]; };
  int64_t order = 0;
  for (size_t u : scheduler.issueOrder()) {
    const Unit &unit = units[u];
    llvm::SmallVector<int64_t> partAfter;
    for (int64_t a : unit.partAfter)
      partAfter.push_back(position(a));
    Queue queue = unit.isDma ? Queue::tdma : unit.context == 0 ? Queue::main : Queue::sub;
    auto schedule = ScheduleAttr::get(
        ctx, order++, queue, unit.span.start, unit.span.end, unit.waits, unit.why,
        position(unit.after), unit.engines(), unit.tags, unit.chunks, unit.partStarts,
        unit.partEnds, partAfter, unit.isDma ? 0 : unit.bank, unit.loadMasks, unit.earlyLoads,
        unit.holdsDma, unit.isDma ? -1 : position(unit.loadsBefore));
    unit.op->setAttr(kScheduleAttrName, schedule);
  }
  func->setAttr(kFinalWaitsAttrName, FinalWaitsAttr::get(ctx, scheduler.finalWaits()));
}

} // namespace rngd::tcp::sched
