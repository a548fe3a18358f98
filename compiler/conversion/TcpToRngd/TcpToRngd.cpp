// convert-tcp-to-rngd: a scheduled tcp kernel becomes an rngd.executable.
#include "compiler/conversion/Passes.h"
#include "compiler/conversion/TcpToRngd/ArgumentLayout.h"

#include "dialects/rngd/IR/RngdDialect.h"
#include "dialects/tcp/Analysis/PassBlocks.h"
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/Analysis/DmaParts.h"
#include "dialects/tcp/IR/TcpVerify.h"

#include "rngd/Isa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include <set>

namespace rngd::conversion {
#define GEN_PASS_DEF_CONVERTTCPTORNGD
#include "compiler/conversion/Passes.h.inc"
} // namespace rngd::conversion

using namespace mlir;
using namespace rngd;
using rngd::conversion::ArgumentLayout;
using rngd::conversion::ArgumentSlot;

#ifndef RNGDC_VERSION
#define RNGDC_VERSION "0.0.0"
#endif

namespace {

/// Where tcp-allocate-memory put the DM tensor `v`; nullopt when it has not.
std::optional<int64_t> dmOffset(Value v) { return tcp::allocatedOffset(v, tcp::Memory::Dm); }



class Lowering {
public:
  Lowering(func::FuncOp func, ArgumentLayout layout)
      : func_(func), layout_(std::move(layout)), b_(func.getContext()) {}

  LogicalResult run(ModuleOp module) {
    const TargetModel &t = target();
    auto makespan = module->getAttrOfType<IntegerAttr>(tcp::kMakespanAttrName);
    b_.setInsertionPointAfter(func_);
    exe_ = b_.create<rngd::ExecutableOp>(
        func_.getLoc(), func_.getSymName(), t.name, t.hash(), RNGDC_VERSION, 0,
        makespan ? makespan.getInt() : 0, layout_.totalBytes);
    Block *body = &exe_.getBody().emplaceBlock();
    records_ = OpBuilder::atBlockBegin(body);
    for (const ArgumentSlot &slot : layout_.slots) {
      auto dtype = cast<tcp::HbmType>(func_.getArgument(&slot - layout_.slots.data()).getType())
                       .getElementType();
      std::string dtypeName;
      llvm::raw_string_ostream(dtypeName) << dtype;
      records_.create<rngd::ArgOp>(func_.getLoc(), slot.name, slot.kind, dtypeName, slot.shape,
                                  slot.mapping, slot.offset, slot.bytes);
    }
    commands_ = OpBuilder::atBlockEnd(body);
    // Units in the scheduler's issue order, each after the waits it was given.
    SmallVector<std::pair<int64_t, Operation *>> units;
    for (Operation &op : func_.getBody().front()) {
      if (!tcp::isDmaUnit(&op) && !tcp::isPassEnd(&op))
        continue;
      tcp::ScheduleAttr sched = tcp::getSchedule(&op);
      if (!sched)
        return op.emitOpError("has no schedule; run tcp-schedule first");
      units.push_back({sched.getOrder(), &op});
    }
    llvm::sort(units, [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t i = 1; i < units.size(); ++i)
      if (units[i].first == units[i - 1].first)
        return units[i].second->emitOpError("has schedule order ")
               << units[i].first << ", as another unit has";
    waitsAt_.assign(units.empty() ? 0 : static_cast<size_t>(units.back().first) + 1,
                    std::nullopt);
    for (auto [order, op] : units) {
      sched_ = tcp::getSchedule(op);
      // A pass emits its waits between its early and its other loads (lowerPass).
      if (!tcp::isPassEnd(op)) {
        markWaits(body);
        if (failed(emitWaits(op, sched_.getWaits())))
          return failure();
      }
      if (auto dma = dyn_cast<tcp::DmaOp>(op)) {
        if (failed(lowerDma(dma)))
          return failure();
      } else if (llvm::isa<tcp::DmaScatterOp, tcp::DmaGatherOp>(op)) {
        if (failed(lowerIndirectDma(op)))
          return failure();
      } else if (failed(lowerPass(op))) {
        return failure();
      }
    }
    tcp::FinalWaitsAttr finalWaits = tcp::getFinalWaits(func_);
    if (!finalWaits)
      return func_.emitOpError("has no final waits; run tcp-schedule first");
    if (failed(emitWaits(func_, finalWaits.getWaits())))
      return failure();
    // Records go after the args in index order; configs after descriptors.
    for (rngd::DescriptorOp d : descriptors_)
      d->moveBefore(firstCommandOrEnd(body));
    for (rngd::ConfigOp c : configs_)
      c->moveBefore(firstCommandOrEnd(body));
    func_.erase();
    return success();
  }

private:
  Operation *firstCommandOrEnd(Block *body) {
    for (Operation &op : *body)
      if (!llvm::isa<rngd::ArgOp, rngd::DescriptorOp, rngd::ConfigOp>(op))
        return &op;
    return nullptr;
  }

  uint64_t address(Value v, const tcp::DmaOpPlan &plan, bool source) {
    const TargetModel &t = target();
    bool dm = source ? plan.dmSource.has_value() : plan.dmDest.has_value();
    if (dm)
      return t.dmAddressBase + static_cast<uint64_t>(*dmOffset(v)); // checked by lowerDma
    return hbmAddress(v);
  }

  LogicalResult lowerDma(tcp::DmaOp op) {
    auto plan = tcp::planDma(op);
    if (!plan)
      return failure();
    Value dst = op.getDest() ? op.getDest() : op.getResult();
    if ((plan->dmSource && !dmOffset(op.getSource())) || (plan->dmDest && !dmOffset(dst)))
      return op.emitOpError("has no DM address; run tcp-allocate-memory first");
    std::vector<tcp::DmaPart> parts = tcp::dmaParts(*plan, sched_.getChunks());
    if (parts.empty())
      return op.emitOpError("its schedule's chunks (")
             << sched_.getChunks().size() << ") do not cut it into whole parts";
    if (failed(checkParts(op, parts.size())))
      return failure();
    ArrayRef<int64_t> engines = sched_.getEngines(), tags = sched_.getTags();
    uint64_t src = address(op.getSource(), *plan, true), dest = address(dst, *plan, false);
    for (size_t p = 0; p < parts.size(); ++p) {
      const tcp::DmaPart &part = parts[p];
      SmallVector<int64_t> limits, srcStrides, dstStrides;
      for (const auto &loop : part.loops) {
        limits.push_back(loop.size);
        srcStrides.push_back(loop.srcStride);
        dstStrides.push_back(loop.dstStride);
      }
      int64_t index = static_cast<int64_t>(descriptors_.size());
      auto d = records_.create<rngd::DescriptorOp>(
          op.getLoc(), index, static_cast<uint64_t>(isa::DmaKind::TensorLoop), engines[p],
          src + static_cast<uint64_t>(part.srcOffset),
          dest + static_cast<uint64_t>(part.dstOffset), plan->plan.packetBytes, limits,
          srcStrides, dstStrides);
      descriptors_.push_back(d);
      if (failed(startDma(op, index, tags[p])))
        return failure();
    }
    return success();
  }

  LogicalResult lowerIndirectDma(Operation *op) {
    const TargetModel &t = target();
    auto plan = tcp::planIndirectDma(op);
    if (!plan)
      return failure();
    bool scatter = plan->scatter;
    Value dmValue = plan->dmValue, hbmValue = plan->hbmValue, offsets = plan->offsetsValue;
    std::optional<int64_t> offset = dmOffset(dmValue);
    if (!offset)
      return op->emitOpError("has no DM address; run tcp-allocate-memory first");
    uint64_t dm = t.dmAddressBase + static_cast<uint64_t>(*offset);
    uint64_t hbm = hbmAddress(hbmValue), index = hbmAddress(offsets);
    std::vector<tcp::DmaPart> parts = tcp::indirectDmaParts(*plan, sched_.getChunks());
    if (parts.empty())
      return op->emitOpError("its schedule's chunks (")
             << sched_.getChunks().size() << ") do not cut it into whole parts";
    if (failed(checkParts(op, parts.size())))
      return failure();
    ArrayRef<int64_t> engines = sched_.getEngines(), tags = sched_.getTags();
    for (size_t p = 0; p < parts.size(); ++p) {
      // Loop 0 walks the rows: the DM side steps by its row stride, the HBM side reads offsets.
      SmallVector<int64_t> limits, srcStrides, dstStrides;
      for (const auto &loop : parts[p].loops) {
        limits.push_back(loop.size);
        srcStrides.push_back(loop.srcStride);
        dstStrides.push_back(loop.dstStride);
      }
      uint64_t src = (scatter ? dm : hbm) + static_cast<uint64_t>(parts[p].srcOffset);
      uint64_t dst = (scatter ? hbm : dm) + static_cast<uint64_t>(parts[p].dstOffset);
      int64_t at = static_cast<int64_t>(descriptors_.size());
      auto kind = scatter ? isa::DmaKind::Scatter : isa::DmaKind::Gather;
      auto d = records_.create<rngd::DescriptorOp>(
          op->getLoc(), at, static_cast<uint64_t>(kind), engines[p], src, dst,
          plan->dma.plan.packetBytes, limits, srcStrides, dstStrides, index, plan->rows,
          /*indirect_loop=*/0);
      descriptors_.push_back(d);
      if (failed(startDma(op, at, tags[p])))
        return failure();
    }
    return success();
  }

  /// The descriptor address of an HBM argument or a view of one.
  uint64_t hbmAddress(Value v) {
    auto root = tcp::hbmRoot(v); // verified: always an argument or a view of one
    return target().hbmAddressBase +
           static_cast<uint64_t>(layout_.slots[root->arg.getArgNumber()].offset +
                                 root->byteOffset);
  }

  /// The schedule gives one engine and tag per descriptor the DMA lowers to.
  LogicalResult checkParts(Operation *op, size_t parts) {
    if (sched_.getEngines().size() != parts)
      return op->emitOpError("its schedule lists ")
             << sched_.getEngines().size() << " engines for its " << parts << " descriptors";
    return success();
  }

  /// Starts descriptor `index` under the tag the scheduler gave it, which must be free.
  LogicalResult startDma(Operation *op, int64_t index, int64_t tag) {
    if (!tagsInFlight_.insert(tag).second)
      return op->emitOpError("starts a DMA under tag ")
             << tag << ", which a DMA not yet waited for holds";
    commands_.create<rngd::DmaOp>(op->getLoc(), index, tag);
    return success();
  }

  /// The scheduler's waits, each for a tag or a context that has work in flight.
  LogicalResult emitWaits(Operation *op, ArrayRef<tcp::Wait> waits) {
    for (const tcp::Wait &w : waits) {
      if (w.on == tcp::Queue::tdma) {
        if (!tagsInFlight_.erase(w.tag))
          return op->emitOpError("waits for tag ")
                 << w.tag << ", which no DMA in flight holds";
        commands_.create<rngd::WaitOp>(op->getLoc(), rngd::ContextAttr(),
                                      b_.getI64IntegerAttr(w.tag));
        continue;
      }
      bool &running = contextRunning_[w.on == tcp::Queue::main ? 0 : 1];
      if (!running)
        return op->emitOpError("waits for ")
               << tcp::stringifyQueue(w.on) << ", which runs no pass then";
      running = false;
      commands_.create<rngd::WaitOp>(op->getLoc(),
                                    rngd::ContextAttr::get(b_.getContext(),
                                                          w.on == tcp::Queue::main
                                                              ? rngd::Context::main
                                                              : rngd::Context::sub),
                                    IntegerAttr());
    }
    return success();
  }

  /// A config record; its load command waits in loads_ for lowerPass to place it.
  /// `mask`: the words its load writes (tcp-schedule's load_masks); a whole block has none.
  void addConfig(Location loc, isa::Unit unit, ArrayRef<int64_t> values, uint64_t mask,
                 rngd::Context ctx) {
    int64_t index = static_cast<int64_t>(configs_.size());
    const isa::UnitSpec *spec = isa::findUnit(unit);
    StringRef name = spec->name;
    IntegerAttr words;
    if (mask != isa::wholeBlockMask(*spec))
      words = b_.getI64IntegerAttr(static_cast<int64_t>(mask));
    configs_.push_back(records_.create<rngd::ConfigOp>(loc, index, name, values, words));
    loads_.push_back({loc, index, ctx, llvm::is_contained(sched_.getEarlyLoads(), tcp::ConfigUnit{static_cast<uint32_t>(unit)})});
  }

  /// Where the unit being lowered starts its waits: after the block's last op so far.
  void markWaits(Block *body) {
    waitsAt_[static_cast<size_t>(sched_.getOrder())] = body->empty() ? nullptr : &body->back();
  }

  /// The pass's loads the schedule put before its waits (or before an earlier unit's waits:
  /// loads_before), the waits, then the other loads.
  LogicalResult emitLoadsAndWaits(Operation *end) {
    int64_t before = sched_.getLoadsBefore();
    if (before >= 0 && (before >= static_cast<int64_t>(waitsAt_.size()) || !waitsAt_[before]))
      return end->emitOpError("its schedule loads before the waits of unit ")
             << before << ", which was not lowered before it";
    for (const Load &l : loads_) {
      if (!l.early)
        continue;
      if (before < 0) {
        commands_.create<rngd::LoadOp>(l.loc, l.index, l.ctx, sched_.getBank());
        continue;
      }
      OpBuilder at(commands_.getContext());
      if (Operation *after = *waitsAt_[before])
        at.setInsertionPointAfter(after);
      else
        at.setInsertionPointToStart(commands_.getInsertionBlock());
      waitsAt_[before] = at.create<rngd::LoadOp>(l.loc, l.index, l.ctx, sched_.getBank());
    }
    markWaits(commands_.getInsertionBlock());
    if (failed(emitWaits(end, sched_.getWaits())))
      return failure();
    for (const Load &l : loads_)
      if (!l.early)
        commands_.create<rngd::LoadOp>(l.loc, l.index, l.ctx, sched_.getBank());
    loads_.clear();
    return success();
  }

  LogicalResult lowerPass(Operation *end) {
    auto blocks = tcp::passBlocks(end);
    if (!blocks)
      return failure();
    ArrayRef<int64_t> masks = sched_.getLoadMasks();
    if (masks.size() != blocks->blocks.size())
      return end->emitOpError("its schedule has ")
             << masks.size() << " load masks for its " << blocks->blocks.size()
             << " configuration blocks";
    StringRef ctxName = tcp::stringifyContext(blocks->context);
    rngd::Context ctx =
        blocks->context == tcp::Context::main ? rngd::Context::main : rngd::Context::sub;
    if (tcp::stringifyQueue(sched_.getQueue()) != ctxName)
      return end->emitOpError("runs on ")
             << ctxName << " but its schedule puts it on " << tcp::stringifyQueue(sched_.getQueue());
    bool &running = contextRunning_[blocks->context == tcp::Context::main ? 0 : 1];
    // Only the words the schedule found changed load; a block whose words all match the
    // registers is not loaded at all.
    for (auto [block, mask] : llvm::zip(blocks->blocks, masks))
      if (mask != 0)
        addConfig(block.loc, block.unit, block.values, static_cast<uint64_t>(mask), ctx);
    if (failed(emitLoadsAndWaits(end)))
      return failure();
    if (running)
      return end->emitOpError("starts on ") << ctxName << " before the pass running there was "
                                            << "waited for";
    running = true;
    commands_.create<rngd::ExecOp>(end->getLoc(), ctx, blocks->execUnits, sched_.getBank());
    return success();
  }


  const TargetModel &target() const { return tcp::getTarget(func_); }

  func::FuncOp func_;
  ArgumentLayout layout_;
  OpBuilder b_;
  rngd::ExecutableOp exe_;
  OpBuilder records_{b_};
  OpBuilder commands_{b_};
  std::vector<rngd::DescriptorOp> descriptors_;
  std::vector<rngd::ConfigOp> configs_;
  struct Load {
    Location loc;
    int64_t index;
    rngd::Context ctx;
    bool early;
  };
  std::vector<Load> loads_;       // the pass being lowered: its config loads, in unit order
  // Per unit (issue order) once lowered: the op its waits follow (nullptr: the block's start).
  std::vector<std::optional<Operation *>> waitsAt_;
  tcp::ScheduleAttr sched_;       // the unit being lowered: its schedule
  std::set<int64_t> tagsInFlight_; // tags started and not yet waited for
  bool contextRunning_[2] = {};    // main, sub: a pass started and not yet waited for
};

struct ConvertTcpToRngdPass
    : public rngd::conversion::impl::ConvertTcpToRngdBase<ConvertTcpToRngdPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
    if (funcs.size() != 1) {
      module.emitError("a kernel file holds exactly one entry function, found ") << funcs.size();
      return signalPassFailure();
    }
    auto layout = rngd::conversion::layoutArguments(funcs[0]);
    if (!layout || failed(Lowering(funcs[0], *layout).run(module)))
      return signalPassFailure();
  }
};

} // namespace
