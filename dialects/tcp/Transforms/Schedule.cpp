// tcp-schedule: program-order schedule with predicted cycles from the target model.
#include "dialects/tcp/IR/TcpPass.h"
#include "dialects/tcp/Transforms/Passes.h"

#include "rngd/Isa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace rngd::tcp {
#define GEN_PASS_DEF_TCPSCHEDULE
#include "dialects/tcp/Transforms/Passes.h.inc"
} // namespace rngd::tcp

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;

namespace {

int64_t words(isa::Unit unit) { return isa::wordCount(*isa::findUnit(unit)); }

void record(Operation *op, StringRef context, int64_t engine, QueueClock::Interval span,
            bool holdsDma = false) {
  Builder b(op);
  SmallVector<NamedAttribute> fields = {b.getNamedAttr("context", b.getStringAttr(context)),
                                        b.getNamedAttr("engine", b.getI64IntegerAttr(engine)),
                                        b.getNamedAttr("start", b.getI64IntegerAttr(span.start)),
                                        b.getNamedAttr("end", b.getI64IntegerAttr(span.end))};
  if (holdsDma) // a pass that could break the 64-same-bank rule: no DMA may overlap it
    fields.push_back(b.getNamedAttr("holds_dma", b.getUnitAttr()));
  op->setAttr("tcp.schedule", b.getDictionaryAttr(fields));
}

/// The longest same-bank run of a pass's DM sequencers (fetch and commit).
int64_t passSameBankRun(const TensorPassPlan &plan) {
  auto run = [](const mapping::Sequencer &seq) {
    std::vector<std::pair<int64_t, int64_t>> loops;
    for (const mapping::Loop &l : seq.loops)
      loops.push_back({l.size, l.stride});
    return sameBankRun(defaultTarget(), loops);
  };
  int64_t longest = run(plan.fetch.sequencer);
  if (plan.commit)
    longest = std::max(longest, run(plan.commit->sequencer));
  return longest;
}

LogicalResult scheduleFunction(func::FuncOp func, int64_t &makespan) {
  QueueClock clock(defaultTarget());
  for (Operation &op : func.getBody().front()) {
    if (auto dma = dyn_cast<DmaOp>(op)) {
      auto plan = planDma(dma);
      if (!plan)
        return failure();
      int64_t engine = dmaEngine(*plan);
      auto span = clock.dma(engine, plan->cycles);
      clock.wait(span.end);
      record(dma, "tdma", engine, span);
    } else if (llvm::isa<DmaScatterOp, DmaGatherOp>(op)) {
      auto plan = planIndirectDma(&op);
      if (!plan)
        return failure();
      int64_t engine = dmaEngine(plan->dma);
      auto span = clock.dma(engine, plan->dma.cycles);
      clock.wait(span.end);
      record(&op, "tdma", engine, span);
    } else if (isPassEnd(&op)) {
      auto plan = planTensorPass(&op);
      if (!plan)
        return failure();
      const TensorPassOps &ops = plan->ops;
      clock.load(words(isa::Unit::Fetch));
      if (ops.sw)
        clock.load(words(isa::Unit::Switch));
      if (ops.contract)
        clock.load(words(isa::Unit::Contract));
      if (ops.vector)
        clock.load(words(isa::Unit::Vector));
      if (ops.cast)
        clock.load(words(isa::Unit::Cast));
      if (ops.transpose)
        clock.load(words(isa::Unit::Transpose));
      clock.load(words(ops.commit  ? isa::Unit::Commit
                       : ops.toTrf ? isa::Unit::TrfWrite
                                   : isa::Unit::VrfWrite));
      FetchOp fetch = ops.fetch;
      int64_t ctx = static_cast<int64_t>(fetch.getContext());
      auto span = clock.exec(ctx, tensorPassCycles(defaultTarget(), plan->shape));
      clock.wait(span.end);
      record(&op, stringifyContext(fetch.getContext()), 0, span,
             passSameBankRun(*plan) >= defaultTarget().sameBankAccessLimit);
    }
  }
  makespan = clock.makespan();
  return success();
}

struct SchedulePass : public rngd::tcp::impl::TcpScheduleBase<SchedulePass> {
  void runOnOperation() override {
    int64_t makespan = 0;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(scheduleFunction(func, makespan)))
        return signalPassFailure();
    getOperation()->setAttr("tcp.makespan", Builder(getOperation()).getI64IntegerAttr(makespan));
  }
};

} // namespace
