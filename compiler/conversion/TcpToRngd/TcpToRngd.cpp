// convert-tcp-to-rngd: a scheduled tcp kernel becomes an rngd.executable.
#include "compiler/conversion/Passes.h"
#include "compiler/conversion/TcpToRngd/ArgumentLayout.h"

#include "dialects/rngd/IR/RngdDialect.h"
#include "dialects/tcp/IR/TcpPass.h"
#include "dialects/tcp/IR/TcpVerify.h"

#include "rngd/Isa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

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

constexpr int kLoops = 8;
constexpr int kSliceWords = 8;

/// Sequencer loops padded to the 8 hardware entries (unused entries: 1 iteration, stride 0).
void appendLoops(std::vector<int64_t> &values, const std::vector<mapping::Loop> &loops) {
  for (int i = 0; i < kLoops; ++i)
    values.push_back(i < static_cast<int>(loops.size()) ? loops[i].size : 1);
  for (int i = 0; i < kLoops; ++i)
    values.push_back(i < static_cast<int>(loops.size()) ? loops[i].stride : 0);
}

/// The 512-bit slice-enable bitmap as eight 64-bit words.
void appendSlices(std::vector<int64_t> &values, const tcp::SpatialLayout &spatial) {
  uint64_t words[kSliceWords] = {};
  for (int64_t s : spatial.activeSlices(defaultTarget()))
    words[s / 64] |= uint64_t(1) << (s % 64);
  for (uint64_t w : words)
    values.push_back(static_cast<int64_t>(w));
}

int64_t log2Exact(int64_t v) {
  int64_t l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

int64_t dmOffset(Value v) {
  auto attr = v.getDefiningOp()->getAttrOfType<IntegerAttr>("tcp.dm_offset");
  return attr ? attr.getInt() : -1;
}

class Lowering {
public:
  Lowering(func::FuncOp func, ArgumentLayout layout)
      : func_(func), layout_(std::move(layout)), b_(func.getContext()) {}

  LogicalResult run(ModuleOp module) {
    const TargetModel &t = defaultTarget();
    auto makespan = module->getAttrOfType<IntegerAttr>("tcp.makespan");
    b_.setInsertionPointAfter(func_);
    exe_ = b_.create<cmd::ExecutableOp>(
        func_.getLoc(), func_.getSymName(), t.name, t.hash(), RNGDC_VERSION, 0,
        makespan ? makespan.getInt() : 0, layout_.totalBytes);
    Block *body = &exe_.getBody().emplaceBlock();
    records_ = OpBuilder::atBlockBegin(body);
    for (const ArgumentSlot &slot : layout_.slots) {
      auto dtype = cast<tcp::HbmType>(func_.getArgument(&slot - layout_.slots.data()).getType())
                       .getElementType();
      std::string dtypeName;
      llvm::raw_string_ostream(dtypeName) << dtype;
      records_.create<cmd::ArgOp>(func_.getLoc(), slot.name, slot.kind, dtypeName, slot.shape,
                                  slot.mapping, slot.offset, slot.bytes);
    }
    commands_ = OpBuilder::atBlockEnd(body);
    // Units in the scheduler's issue order, each after the waits it was given.
    SmallVector<std::pair<int64_t, Operation *>> units;
    for (Operation &op : func_.getBody().front()) {
      if (!tcp::isDmaUnit(&op) && !tcp::isPassEnd(&op))
        continue;
      auto sched = op.getAttrOfType<DictionaryAttr>("tcp.schedule");
      auto order = sched ? sched.getAs<IntegerAttr>("order") : IntegerAttr();
      if (!order || !sched.getAs<IntegerAttr>("start"))
        return op.emitOpError("has no issue order; run tcp-schedule first");
      units.push_back({order.getInt(), &op});
    }
    llvm::sort(units, [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto [order, op] : units) {
      auto sched = op->getAttrOfType<DictionaryAttr>("tcp.schedule");
      waits_ = sched.getAs<ArrayAttr>("waits");
      early_.clear();
      auto bank = sched.getAs<IntegerAttr>("bank");
      bank_ = bank ? bank.getInt() : 0;
      if (auto early = sched.getAs<ArrayAttr>("early_loads"))
        for (Attribute a : early)
          early_.insert(cast<StringAttr>(a).getValue());
      // A pass emits its waits between its early and its other loads (lowerPass).
      if (!tcp::isPassEnd(op) && failed(emitWaits(op, waits_)))
        return failure();
      auto tags = sched.getAs<DenseI64ArrayAttr>("tags");
      tags_.assign(tags ? tags.asArrayRef().begin() : nullptr,
                   tags ? tags.asArrayRef().end() : nullptr);
      auto engines = sched.getAs<DenseI64ArrayAttr>("engines");
      engines_.assign(engines ? engines.asArrayRef().begin() : nullptr,
                      engines ? engines.asArrayRef().end() : nullptr);
      auto chunks = sched.getAs<DenseI64ArrayAttr>("chunks");
      chunks_.assign(chunks ? chunks.asArrayRef().begin() : nullptr,
                     chunks ? chunks.asArrayRef().end() : nullptr);
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
    if (failed(emitWaits(func_, func_->getAttrOfType<ArrayAttr>("tcp.final_waits"))))
      return failure();
    // Records go after the args in index order; configs after descriptors.
    for (cmd::DescriptorOp d : descriptors_)
      d->moveBefore(firstCommandOrEnd(body));
    for (cmd::ConfigOp c : configs_)
      c->moveBefore(firstCommandOrEnd(body));
    func_.erase();
    return success();
  }

private:
  Operation *firstCommandOrEnd(Block *body) {
    for (Operation &op : *body)
      if (!llvm::isa<cmd::ArgOp, cmd::DescriptorOp, cmd::ConfigOp>(op))
        return &op;
    return nullptr;
  }

  uint64_t address(Value v, const tcp::DmaOpPlan &plan, bool source) {
    const TargetModel &t = defaultTarget();
    bool dm = source ? plan.dmSource.has_value() : plan.dmDest.has_value();
    if (dm)
      return t.dmAddressBase + static_cast<uint64_t>(dmOffset(v));
    return hbmAddress(v);
  }

  LogicalResult lowerDma(tcp::DmaOp op) {
    auto plan = tcp::planDma(op);
    if (!plan)
      return failure();
    Value dst = op.getDest() ? op.getDest() : op.getResult();
    if ((plan->dmSource && dmOffset(op.getSource()) < 0) || (plan->dmDest && dmOffset(dst) < 0))
      return op.emitOpError("has no DM address; run tcp-allocate-memory first");
    std::vector<tcp::DmaPart> parts = tcp::dmaParts(*plan, chunks_);
    if (parts.empty())
      return op.emitOpError("its schedule's chunks (")
             << chunks_.size() << ") do not cut it into whole parts";
    if (tags_.size() != parts.size() || engines_.size() != parts.size())
      return op.emitOpError("has ") << tags_.size() << " DMA tags and " << engines_.size()
                                    << " engines for " << parts.size()
                                    << " descriptors; run tcp-schedule first";
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
      auto d = records_.create<cmd::DescriptorOp>(
          op.getLoc(), index, engines_[p], src + static_cast<uint64_t>(part.srcOffset),
          dest + static_cast<uint64_t>(part.dstOffset), plan->plan.packetBytes, limits,
          srcStrides, dstStrides, StringAttr(), IntegerAttr(), IntegerAttr(), IntegerAttr());
      descriptors_.push_back(d);
      if (failed(startDma(op, index, tags_[p])))
        return failure();
    }
    return success();
  }

  LogicalResult lowerIndirectDma(Operation *op) {
    const TargetModel &t = defaultTarget();
    auto plan = tcp::planIndirectDma(op);
    if (!plan)
      return failure();
    bool scatter = plan->scatter;
    Value dmValue = plan->dmValue, hbmValue = plan->hbmValue, offsets = plan->offsetsValue;
    if (dmOffset(dmValue) < 0)
      return op->emitOpError("has no DM address; run tcp-allocate-memory first");
    uint64_t dm = t.dmAddressBase + static_cast<uint64_t>(dmOffset(dmValue));
    uint64_t hbm = hbmAddress(hbmValue), index = hbmAddress(offsets);
    std::vector<tcp::DmaPart> parts = tcp::indirectDmaParts(*plan, chunks_);
    if (parts.empty())
      return op->emitOpError("its schedule's chunks (")
             << chunks_.size() << ") do not cut it into whole parts";
    if (tags_.size() != parts.size() || engines_.size() != parts.size())
      return op->emitOpError("has ") << tags_.size() << " DMA tags and " << engines_.size()
                                     << " engines for " << parts.size()
                                     << " descriptors; run tcp-schedule first";
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
      auto d = records_.create<cmd::DescriptorOp>(
          op->getLoc(), at, engines_[p], src, dst, plan->dma.plan.packetBytes, limits,
          srcStrides, dstStrides, b_.getStringAttr(scatter ? "scatter" : "gather"),
          b_.getI64IntegerAttr(static_cast<int64_t>(index)), b_.getI64IntegerAttr(plan->rows),
          b_.getI64IntegerAttr(0));
      descriptors_.push_back(d);
      if (failed(startDma(op, at, tags_[p])))
        return failure();
    }
    return success();
  }

  /// The descriptor address of an HBM argument or a view of one.
  uint64_t hbmAddress(Value v) {
    auto root = tcp::hbmRoot(v); // verified: always an argument or a view of one
    return defaultTarget().hbmAddressBase +
           static_cast<uint64_t>(layout_.slots[root->arg.getArgNumber()].offset +
                                 root->byteOffset);
  }

  /// Starts descriptor `index` under the tag the scheduler gave it.
  LogicalResult startDma(Operation *op, int64_t index, int64_t tag) {
    if (tag < 0 || tag > int64_t(isa::kMaxTag))
      return op->emitOpError("has no DMA tag in 0..") << isa::kMaxTag << "; run tcp-schedule first";
    commands_.create<cmd::DmaOp>(op->getLoc(), index, tag);
    return success();
  }

  /// The scheduler's waits: "tag N", "main" or "sub".
  LogicalResult emitWaits(Operation *op, ArrayAttr waits) {
    if (!waits)
      return op->emitOpError("has no waits; run tcp-schedule first");
    for (Attribute a : waits) {
      StringRef w = cast<StringAttr>(a).getValue();
      int64_t tag = 0;
      if (w == "main" || w == "sub")
        commands_.create<cmd::WaitOp>(op->getLoc(), b_.getStringAttr(w), IntegerAttr());
      else if (w.consume_front("tag ") && !w.getAsInteger(10, tag))
        commands_.create<cmd::WaitOp>(op->getLoc(), StringAttr(), b_.getI64IntegerAttr(tag));
      else
        return op->emitOpError("has an unknown wait '") << cast<StringAttr>(a).getValue() << "'";
    }
    return success();
  }

  /// A config record; its load command waits in loads_ for lowerPass to place it.
  void addConfig(Location loc, isa::Unit unit, ArrayRef<int64_t> values, StringRef ctx) {
    int64_t index = static_cast<int64_t>(configs_.size());
    StringRef name = isa::findUnit(unit)->name;
    configs_.push_back(records_.create<cmd::ConfigOp>(loc, index, name, values));
    loads_.push_back({loc, index, ctx.str(), early_.contains(name)});
  }

  /// The pass's loads the schedule put before its waits, the waits, then the other loads.
  LogicalResult emitLoadsAndWaits(Operation *end) {
    for (const Load &l : loads_)
      if (l.early)
        commands_.create<cmd::LoadOp>(l.loc, l.index, l.ctx, bank_);
    if (failed(emitWaits(end, waits_)))
      return failure();
    for (const Load &l : loads_)
      if (!l.early)
        commands_.create<cmd::LoadOp>(l.loc, l.index, l.ctx, bank_);
    loads_.clear();
    return success();
  }

  LogicalResult lowerPass(Operation *end) {
    auto plan = tcp::planTensorPass(end);
    if (!plan)
      return failure();
    const tcp::TensorPassOps &ops = plan->ops;
    tcp::FetchOp fetchOp = ops.fetch;
    int64_t sourceOffset = dmOffset(fetchOp.getSource());
    if (sourceOffset < 0)
      return end->emitOpError("has no DM address; run tcp-allocate-memory first");
    StringRef ctx = tcp::stringifyContext(fetchOp.getContext());
    uint16_t units = isa::UnitFetch | isa::UnitCollect;

    const tcp::FetchPlan &fetch = plan->fetch;
    std::vector<int64_t> f = {sourceOffset, log2Exact(fetch.sequencer.accessBytes),
                              fetch.sequencer.packetBytes,
                              static_cast<int64_t>(fetch.cast ? isa::FetchCast::Bf16ToF32
                                                              : isa::FetchCast::None)};
    appendLoops(f, fetch.sequencer.loops);
    appendSlices(f, fetch.stream.spatial);
    addConfig(fetchOp.getLoc(), isa::Unit::Fetch, f, ctx);

    if (plan->sw) {
      units |= isa::UnitSwitch;
      tcp::SwitchOp sw = ops.sw;
      // tcp and the ISA number the switch modes alike (docs/isa.md).
      auto mode = static_cast<isa::SwitchMode>(static_cast<int64_t>(sw.getMode()));
      addConfig(sw.getLoc(), isa::Unit::Switch,
                {static_cast<int64_t>(mode), plan->sw->slice1, plan->sw->slice0, plan->sw->time0},
                ctx);
    }

    if (plan->contract) {
      units |= isa::UnitContract;
      tcp::ContractOp contract = ops.contract;
      int64_t trfBase = registerOffset(contract.getWeights(), "tcp.trf_offset");
      if (trfBase < 0)
        return contract.emitOpError("its TRF operand has no address; run tcp-allocate-memory");
      addConfig(contract.getLoc(), isa::Unit::Contract, contractValues(*plan->contract, trfBase),
                ctx);
    }
    if (plan->vector) {
      units |= isa::UnitVector;
      tcp::VectorOp vector = ops.vector;
      int64_t vrfBase = 0;
      if (plan->vector->hasVrf) {
        vrfBase = registerOffset(vector.getVrfOperands()[0], "tcp.vrf_offset");
        if (vrfBase < 0)
          return vector.emitOpError("its VRF operand has no address; run tcp-allocate-memory");
      }
      addConfig(vector.getLoc(), isa::Unit::Vector, vectorValues(*plan->vector, vrfBase), ctx);
    }
    if (ops.cast) {
      units |= isa::UnitCast;
      tcp::CastOp cast = ops.cast;
      bool toI8 = cast.getResult().getType().getElementType().isSignlessInteger(8);
      addConfig(cast.getLoc(), isa::Unit::Cast,
                {static_cast<int64_t>(toI8 ? isa::CastMode::I32ToI8 : isa::CastMode::F32ToBf16)},
                ctx);
    }
    if (plan->transpose) {
      units |= isa::UnitTranspose;
      tcp::TransposeOp transpose = ops.transpose;
      const tcp::TransposePlan &t = *plan->transpose;
      addConfig(transpose.getLoc(), isa::Unit::Transpose,
                {log2Exact(t.elemBytes), t.inRows, t.inCols, t.outRows}, ctx);
    }
    if (plan->commit) {
      units |= isa::UnitCommit;
      tcp::CommitOp commit = ops.commit;
      int64_t offset = dmOffset(commit.getResult());
      if (offset < 0)
        return commit.emitOpError("has no DM address; run tcp-allocate-memory first");
      std::vector<int64_t> c = {offset, plan->commit->writeBytes};
      appendLoops(c, plan->commit->sequencer.loops);
      appendSlices(c, plan->commit->result.spatial);
      c.push_back(plan->commit->cast ? 1 : 0); // f32 -> bf16 in the commit adapter
      addConfig(commit.getLoc(), isa::Unit::Commit, c, ctx);
    } else if (plan->trf) {
      units |= isa::UnitTrf;
      int64_t offset = registerOffset(end->getResult(0), "tcp.trf_offset");
      if (offset < 0)
        return end->emitOpError("has no TRF address; run tcp-allocate-memory first");
      addConfig(end->getLoc(), isa::Unit::TrfWrite,
                {offset, log2Exact(plan->trf->lanes()), plan->trf->laneBytes()}, ctx);
    } else if (plan->vrf) {
      units |= isa::UnitVrf;
      int64_t offset = registerOffset(end->getResult(0), "tcp.vrf_offset");
      if (offset < 0)
        return end->emitOpError("has no VRF address; run tcp-allocate-memory first");
      addConfig(end->getLoc(), isa::Unit::VrfWrite, {offset, plan->vrf->bytes()}, ctx);
    }
    if (failed(emitLoadsAndWaits(end)))
      return failure();
    commands_.create<cmd::ExecOp>(end->getLoc(), ctx, units, bank_);
    return success();
  }

  static int64_t registerOffset(Value v, StringRef attr) {
    Operation *def = v.getDefiningOp();
    auto offset = def ? def->getAttrOfType<IntegerAttr>(attr) : IntegerAttr();
    return offset ? offset.getInt() : -1;
  }

  static std::vector<int64_t> contractValues(const tcp::ContractPlan &p, int64_t trfBase) {
    std::vector<int64_t> v = {p.pack,
                              log2Exact(p.lanes),
                              static_cast<int64_t>(p.integer ? isa::MacType::I8 : isa::MacType::Bf16),
                              p.packetElems,
                              trfBase,
                              p.window,
                              p.slots};
    auto field = [&](auto get, int64_t unused) {
      for (int i = 0; i < kLoops; ++i)
        v.push_back(i < static_cast<int>(p.loops.size()) ? get(p.loops[i]) : unused);
    };
    field([](const tcp::ContractPlan::Loop &l) { return l.size; }, 1);
    field([](const tcp::ContractPlan::Loop &l) { return l.stream; }, 0);
    field([](const tcp::ContractPlan::Loop &l) { return l.trf; }, 0);
    field([](const tcp::ContractPlan::Loop &l) { return l.acc; }, 0);
    v.push_back(static_cast<int64_t>(p.sequential ? isa::LaneMode::Sequential
                                                  : isa::LaneMode::Interleaved));
    return v;
  }

  static std::vector<int64_t> vectorValues(const tcp::VectorPlan &p, int64_t vrfBase) {
    std::vector<int64_t> alu(isa::kMaxVectorSteps, 0), code(isa::kMaxVectorSteps, 0),
        mode(isa::kMaxVectorSteps, 0), imm(isa::kMaxVectorSteps, 0),
        imm2(isa::kMaxVectorSteps, 0);
    for (auto [i, step] : llvm::enumerate(p.steps)) {
      alu[i] = static_cast<int64_t>(aluCode(step.alu));
      code[i] = static_cast<int64_t>(opCode(step.info->op));
      mode[i] = static_cast<int64_t>(
          step.operand == tcp::VectorStepPlan::Operand::Vrf     ? isa::OperandMode::Vrf
          : step.operand == tcp::VectorStepPlan::Operand::Stash ? isa::OperandMode::Stash
                                                                : isa::OperandMode::Immediate);
      imm[i] = step.imm;
      imm2[i] = step.addend;
    }
    std::vector<int64_t> values = {static_cast<int64_t>(p.steps.size())};
    for (auto *part : {&alu, &code, &mode, &imm, &imm2})
      values.insert(values.end(), part->begin(), part->end());
    values.insert(values.end(), {p.hasVrf ? vrfBase : 0, p.vrfFlitStride, p.vrfElemStride,
                                 p.vrfPeriod, p.reduceSlots, p.reduceTree ? 1 : 0,
                                 p.interGroup ? log2Exact(p.interGroup) : 0});
    return values;
  }

  static isa::Alu aluCode(StringRef alu) {
    return llvm::StringSwitch<isa::Alu>(alu)
        .Case("FxpAdd", isa::Alu::FxpAdd)
        .Case("FxpMul", isa::Alu::FxpMul)
        .Case("FxpToFp", isa::Alu::FxpToFp)
        .Case("FpFma", isa::Alu::FpFma)
        .Case("FpFpu", isa::Alu::FpFpu)
        .Case("FpExp", isa::Alu::FpExp)
        .Case("FpMul0", isa::Alu::FpMul0)
        .Case("FpMul1", isa::Alu::FpMul1)
        .Case("IntraReduce", isa::Alu::IntraReduce)
        .Case("FpDiv", isa::Alu::FpDiv)
        .Case("FpToFxp", isa::Alu::FpToFxp)
        .Case("Clip", isa::Alu::Clip)
        .Case("InterReduce", isa::Alu::InterReduce)
        .Default(isa::Alu::Stash);
  }

  static isa::VectorOp opCode(StringRef op) {
    return llvm::StringSwitch<isa::VectorOp>(op)
        .Case("Add", isa::VectorOp::Add)
        .Case("Mul", isa::VectorOp::Mul)
        .Case("Sub", isa::VectorOp::Sub)
        .Case("Div", isa::VectorOp::Div)
        .Case("Max", isa::VectorOp::Max)
        .Case("Min", isa::VectorOp::Min)
        .Case("Exp", isa::VectorOp::Exp)
        .Case("Sqrt", isa::VectorOp::Sqrt)
        .Case("Sigmoid", isa::VectorOp::Sigmoid)
        .Case("Fma", isa::VectorOp::Fma)
        .Case("ToF32", isa::VectorOp::ToF32)
        .Case("ToI32", isa::VectorOp::ToI32)
        .Default(isa::VectorOp::None);
  }

  func::FuncOp func_;
  ArgumentLayout layout_;
  OpBuilder b_;
  cmd::ExecutableOp exe_;
  OpBuilder records_{b_};
  OpBuilder commands_{b_};
  std::vector<cmd::DescriptorOp> descriptors_;
  std::vector<cmd::ConfigOp> configs_;
  struct Load {
    Location loc;
    int64_t index;
    std::string ctx;
    bool early;
  };
  std::vector<Load> loads_;       // the pass being lowered: its config loads, in unit order
  ArrayAttr waits_;               // the unit being lowered: its waits (tcp.schedule)
  llvm::StringSet<> early_;       // and the blocks it loads before them
  int64_t bank_ = 0;              // the register bank of its context it loads and runs on
  std::vector<int64_t> tags_;    // the tags of the DMA being lowered, one per descriptor
  std::vector<int64_t> engines_; // and its engines
  std::vector<int64_t> chunks_;  // and its parts' sizes (tcp-schedule's choice)
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
