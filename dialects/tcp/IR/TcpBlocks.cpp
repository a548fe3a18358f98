// passBlocks: a planned Tensor Unit pass's configuration blocks (docs/isa.md tables).
#include "dialects/tcp/IR/TcpBlocks.h"


using namespace mlir;

namespace rngd::tcp {
namespace {

/// Sequencer loops into the 8 hardware entries (unused entries: 1 iteration, stride 0);
/// false when there are more loops than entries (the planners reject those first).
bool setLoops(std::array<int64_t, isa::kSequencerLoops> &limits,
              std::array<int64_t, isa::kSequencerLoops> &strides,
              const std::vector<mapping::Loop> &loops) {
  if (loops.size() > limits.size())
    return false;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    limits[i] = loop.size;
    strides[i] = loop.stride;
  }
  return true;
}

/// The slice-enable bitmap: bit s of word s / 64 for each active global slice s.
/// (A target has at most the bitmap's 512 slices: TargetModel's verifier.)
isa::SliceBitmap sliceBitmap(const TargetModel &t, const SpatialLayout &spatial) {
  isa::SliceBitmap words{};
  for (int64_t s : spatial.activeSlices(t))
    words[s / 64] |= uint64_t(1) << (s % 64);
  return words;
}

int64_t log2Exact(int64_t v) {
  int64_t l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

int64_t registerOffset(Value v, StringRef attr) {
  Operation *def = v.getDefiningOp();
  auto offset = def ? def->getAttrOfType<IntegerAttr>(attr) : IntegerAttr();
  return offset ? offset.getInt() : -1;
}

isa::ContractConfig contractConfig(const ContractPlan &p, int64_t trfBase) {
  isa::ContractConfig c;
  c.pack = p.pack;
  c.lanesLog2 = log2Exact(p.lanes);
  c.mac = p.integer ? isa::MacType::I8 : isa::MacType::Bf16;
  c.packetElems = p.packetElems;
  c.trfBase = trfBase;
  c.window = p.window;
  c.slots = p.slots;
  for (auto [i, loop] : llvm::enumerate(p.loops)) { // passBlocks checked the count
    c.limits[i] = loop.size;
    c.streamStrides[i] = loop.stream;
    c.trfStrides[i] = loop.trf;
    c.accStrides[i] = loop.acc;
  }
  c.laneMode = p.sequential ? isa::LaneMode::Sequential : isa::LaneMode::Interleaved;
  return c;
}

isa::OperandMode operandMode(VectorStepPlan::Operand operand) {
  switch (operand) {
  case VectorStepPlan::Operand::Vrf:
    return isa::OperandMode::Vrf;
  case VectorStepPlan::Operand::Stash:
    return isa::OperandMode::Stash;
  default:
    return isa::OperandMode::Immediate;
  }
}

isa::VectorConfig vectorConfig(const VectorPlan &p, int64_t vrfBase) {
  isa::VectorConfig c;
  c.steps = static_cast<int64_t>(p.steps.size());
  for (auto [i, step] : llvm::enumerate(p.steps))
    isa::setVectorStep(c, static_cast<int>(i),
                       {static_cast<int64_t>(step.alu), static_cast<int64_t>(step.info->op),
                        static_cast<int64_t>(operandMode(step.operand)), step.imm, step.addend});
  c.vrfBase = p.hasVrf ? vrfBase : 0;
  c.vrfFlitStride = p.vrfFlitStride;
  c.vrfElemStride = p.vrfElemStride;
  c.vrfPeriod = p.vrfPeriod;
  c.reduceSlots = p.reduceSlots;
  c.reduceTree = p.reduceTree ? 1 : 0;
  c.interGroupLog2 = p.interGroup ? log2Exact(p.interGroup) : 0;
  return c;
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
  const TargetModel &t = getTarget(end);
  PassBlocks out;
  out.context = ops.fetch.getContext();
  out.execUnits = isa::UnitFetch | isa::UnitCollect;
  auto add = [&](Location loc, const auto &config) {
    using Config = std::decay_t<decltype(config)>;
    out.blocks.push_back({Config::kUnit, loc, config.values()});
    out.execUnits |= isa::execBit(Config::kUnit);
  };
  auto missing = [&](Operation *op, StringRef what) {
    op->emitOpError(what);
    return std::nullopt;
  };

  int64_t sourceOffset = dmOffset(ops.fetch.getSource());
  if (sourceOffset < 0)
    return missing(end, "has no DM address; run tcp-allocate-memory first");
  const FetchPlan &fetch = plan->fetch;
  isa::FetchConfig f;
  f.base = sourceOffset;
  f.accessLog2 = log2Exact(fetch.sequencer.accessBytes);
  f.packetBytes = fetch.sequencer.packetBytes;
  f.cast = fetch.cast ? isa::FetchCast::Bf16ToF32 : isa::FetchCast::None;
  if (!setLoops(f.limits, f.strides, fetch.sequencer.loops))
    return missing(ops.fetch, "needs more sequencer loops than the fetch unit has");
  f.slices = sliceBitmap(t, fetch.stream.spatial);
  add(ops.fetch.getLoc(), f);

  if (plan->sw) {
    isa::SwitchConfig sw; // tcp and the ISA number the switch modes alike (docs/isa.md)
    sw.mode = static_cast<isa::SwitchMode>(ops.sw.getMode());
    sw.slice1 = plan->sw->slice1;
    sw.slice0 = plan->sw->slice0;
    sw.time0 = plan->sw->time0;
    add(ops.sw.getLoc(), sw);
  }
  if (plan->contract) {
    int64_t trfBase = registerOffset(ops.contract.getWeights(), "tcp.trf_offset");
    if (trfBase < 0)
      return missing(ops.contract, "its TRF operand has no address; run tcp-allocate-memory");
    if (plan->contract->loops.size() > size_t(isa::kSequencerLoops))
      return missing(ops.contract, "needs more loops than the contraction sequencer has");
    add(ops.contract.getLoc(), contractConfig(*plan->contract, trfBase));
  }
  if (plan->vector) {
    int64_t vrfBase = 0;
    if (plan->vector->hasVrf) {
      vrfBase = registerOffset(ops.vector.getVrfOperands()[0], "tcp.vrf_offset");
      if (vrfBase < 0)
        return missing(ops.vector, "its VRF operand has no address; run tcp-allocate-memory");
    }
    add(ops.vector.getLoc(), vectorConfig(*plan->vector, vrfBase));
  }
  if (ops.cast) {
    bool toI8 = ops.cast.getResult().getType().getElementType().isSignlessInteger(8);
    isa::CastConfig c;
    c.mode = toI8 ? isa::CastMode::I32ToI8 : isa::CastMode::F32ToBf16;
    add(ops.cast.getLoc(), c);
  }
  if (plan->transpose) {
    const TransposePlan &t = *plan->transpose;
    isa::TransposeConfig c;
    c.elemLog2 = log2Exact(t.elemBytes);
    c.inRows = t.inRows;
    c.inCols = t.inCols;
    c.outRows = t.outRows;
    add(ops.transpose.getLoc(), c);
  }
  if (plan->commit) {
    int64_t offset = dmOffset(ops.commit.getResult());
    if (offset < 0)
      return missing(ops.commit, "has no DM address; run tcp-allocate-memory first");
    isa::CommitConfig c;
    c.base = offset;
    c.writeBytes = plan->commit->writeBytes;
    if (!setLoops(c.limits, c.strides, plan->commit->sequencer.loops))
      return missing(ops.commit, "needs more sequencer loops than the commit unit has");
    c.slices = sliceBitmap(t, plan->commit->result.spatial);
    c.cast = plan->commit->cast ? isa::CommitCast::F32ToBf16 : isa::CommitCast::None;
    add(ops.commit.getLoc(), c);
  } else if (plan->trf) {
    int64_t offset = registerOffset(end->getResult(0), "tcp.trf_offset");
    if (offset < 0)
      return missing(end, "has no TRF address; run tcp-allocate-memory first");
    isa::TrfWriteConfig c;
    c.base = offset;
    c.lanesLog2 = log2Exact(plan->trf->lanes());
    c.laneBytes = plan->trf->laneBytes();
    add(end->getLoc(), c);
  } else if (plan->vrf) {
    int64_t offset = registerOffset(end->getResult(0), "tcp.vrf_offset");
    if (offset < 0)
      return missing(end, "has no VRF address; run tcp-allocate-memory first");
    isa::VrfWriteConfig c;
    c.base = offset;
    c.bytes = plan->vrf->bytes();
    add(end->getLoc(), c);
  }
  return out;
}

} // namespace rngd::tcp
