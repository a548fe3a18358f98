// passBlocks: a planned Tensor Unit pass's configuration blocks (docs/isa.md tables).
#include "dialects/tcp/IR/TcpBlocks.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace rngd::tcp {
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
void appendSlices(std::vector<int64_t> &values, const SpatialLayout &spatial) {
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

isa::Alu aluCode(StringRef alu) {
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

isa::VectorOp opCode(StringRef op) {
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

int64_t registerOffset(Value v, StringRef attr) {
  Operation *def = v.getDefiningOp();
  auto offset = def ? def->getAttrOfType<IntegerAttr>(attr) : IntegerAttr();
  return offset ? offset.getInt() : -1;
}

std::vector<int64_t> contractValues(const ContractPlan &p, int64_t trfBase) {
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
  field([](const ContractPlan::Loop &l) { return l.size; }, 1);
  field([](const ContractPlan::Loop &l) { return l.stream; }, 0);
  field([](const ContractPlan::Loop &l) { return l.trf; }, 0);
  field([](const ContractPlan::Loop &l) { return l.acc; }, 0);
  v.push_back(static_cast<int64_t>(p.sequential ? isa::LaneMode::Sequential
                                                : isa::LaneMode::Interleaved));
  return v;
}

std::vector<int64_t> vectorValues(const VectorPlan &p, int64_t vrfBase) {
  std::vector<int64_t> alu(isa::kMaxVectorSteps, 0), code(isa::kMaxVectorSteps, 0),
      mode(isa::kMaxVectorSteps, 0), imm(isa::kMaxVectorSteps, 0),
      imm2(isa::kMaxVectorSteps, 0);
  for (auto [i, step] : llvm::enumerate(p.steps)) {
    alu[i] = static_cast<int64_t>(aluCode(step.alu));
    code[i] = static_cast<int64_t>(opCode(step.info->op));
    mode[i] = static_cast<int64_t>(
        step.operand == VectorStepPlan::Operand::Vrf     ? isa::OperandMode::Vrf
        : step.operand == VectorStepPlan::Operand::Stash ? isa::OperandMode::Stash
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

} // namespace

int64_t dmOffset(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def) // a DM function argument (scheduler tests only; kernels take HBM arguments)
    return 0;
  auto attr = def->getAttrOfType<IntegerAttr>("tcp.dm_offset");
  return attr ? attr.getInt() : -1;
}

std::optional<PassBlocks> passBlocks(Operation *end) {
  auto plan = planTensorPass(end);
  if (!plan)
    return std::nullopt;
  TensorPassOps ops = plan->ops;
  PassBlocks out;
  out.context = ops.fetch.getContext();
  out.execUnits = isa::UnitFetch | isa::UnitCollect;
  auto add = [&](Location loc, isa::Unit unit, std::vector<int64_t> values) {
    out.blocks.push_back({unit, loc, std::move(values)});
    out.execUnits |= isa::execBit(unit);
  };
  auto missing = [&](Operation *op, StringRef what) {
    op->emitOpError(what);
    return std::nullopt;
  };

  int64_t sourceOffset = dmOffset(ops.fetch.getSource());
  if (sourceOffset < 0)
    return missing(end, "has no DM address; run tcp-allocate-memory first");
  const FetchPlan &fetch = plan->fetch;
  std::vector<int64_t> f = {sourceOffset, log2Exact(fetch.sequencer.accessBytes),
                            fetch.sequencer.packetBytes,
                            static_cast<int64_t>(fetch.cast ? isa::FetchCast::Bf16ToF32
                                                            : isa::FetchCast::None)};
  appendLoops(f, fetch.sequencer.loops);
  appendSlices(f, fetch.stream.spatial);
  add(ops.fetch.getLoc(), isa::Unit::Fetch, std::move(f));

  if (plan->sw) // tcp and the ISA number the switch modes alike (docs/isa.md)
    add(ops.sw.getLoc(), isa::Unit::Switch,
        {static_cast<int64_t>(ops.sw.getMode()), plan->sw->slice1, plan->sw->slice0,
         plan->sw->time0});
  if (plan->contract) {
    int64_t trfBase = registerOffset(ops.contract.getWeights(), "tcp.trf_offset");
    if (trfBase < 0)
      return missing(ops.contract, "its TRF operand has no address; run tcp-allocate-memory");
    add(ops.contract.getLoc(), isa::Unit::Contract, contractValues(*plan->contract, trfBase));
  }
  if (plan->vector) {
    int64_t vrfBase = 0;
    if (plan->vector->hasVrf) {
      vrfBase = registerOffset(ops.vector.getVrfOperands()[0], "tcp.vrf_offset");
      if (vrfBase < 0)
        return missing(ops.vector, "its VRF operand has no address; run tcp-allocate-memory");
    }
    add(ops.vector.getLoc(), isa::Unit::Vector, vectorValues(*plan->vector, vrfBase));
  }
  if (ops.cast) {
    bool toI8 = ops.cast.getResult().getType().getElementType().isSignlessInteger(8);
    add(ops.cast.getLoc(), isa::Unit::Cast,
        {static_cast<int64_t>(toI8 ? isa::CastMode::I32ToI8 : isa::CastMode::F32ToBf16)});
  }
  if (plan->transpose) {
    const TransposePlan &t = *plan->transpose;
    add(ops.transpose.getLoc(), isa::Unit::Transpose,
        {log2Exact(t.elemBytes), t.inRows, t.inCols, t.outRows});
  }
  if (plan->commit) {
    int64_t offset = dmOffset(ops.commit.getResult());
    if (offset < 0)
      return missing(ops.commit, "has no DM address; run tcp-allocate-memory first");
    std::vector<int64_t> c = {offset, plan->commit->writeBytes};
    appendLoops(c, plan->commit->sequencer.loops);
    appendSlices(c, plan->commit->result.spatial);
    c.push_back(plan->commit->cast ? 1 : 0); // f32 -> bf16 in the commit adapter
    add(ops.commit.getLoc(), isa::Unit::Commit, std::move(c));
  } else if (plan->trf) {
    int64_t offset = registerOffset(end->getResult(0), "tcp.trf_offset");
    if (offset < 0)
      return missing(end, "has no TRF address; run tcp-allocate-memory first");
    add(end->getLoc(), isa::Unit::TrfWrite,
        {offset, log2Exact(plan->trf->lanes()), plan->trf->laneBytes()});
  } else if (plan->vrf) {
    int64_t offset = registerOffset(end->getResult(0), "tcp.vrf_offset");
    if (offset < 0)
      return missing(end, "has no VRF address; run tcp-allocate-memory first");
    add(end->getLoc(), isa::Unit::VrfWrite, {offset, plan->vrf->bytes()});
  }
  return out;
}

} // namespace rngd::tcp
