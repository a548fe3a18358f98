// passBlocks: a planned Tensor Unit pass's configuration blocks (docs/isa.md tables).
#include "dialects/tcp/Analysis/PassBlocks.h"


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

namespace {

/// Builds one pass's blocks in unit order; each step emits an error at its op (and returns
/// failure) when a tensor it reads or writes has no address yet.
class BlockBuilder {
public:
  BlockBuilder(const TensorPassPlan &plan, const TargetModel &t)
      : plan_(plan), ops_(plan.ops), t_(t) {
    out_.context = ops_.fetch.getContext();
    out_.execUnits = isa::UnitFetch | isa::UnitCollect;
  }

  std::optional<PassBlocks> build() {
    if (failed(fetch()) || failed(contract()) || failed(vector()) || failed(end()))
      return std::nullopt;
    return std::move(out_);
  }

private:
  template <typename Config> void add(Location loc, const Config &config) {
    out_.blocks.push_back({Config::kUnit, loc, config.values()});
    out_.execUnits |= isa::execBit(Config::kUnit);
  }

  static LogicalResult missing(Operation *op, StringRef what) {
    op->emitOpError(what);
    return failure();
  }

  /// Fetch, then the switch (which the fetch feeds).
  LogicalResult fetch() {
    std::optional<int64_t> offset = allocatedOffset(ops_.fetch.getSource(), Memory::Dm);
    if (!offset)
      return missing(ops_.end, "has no DM address; run tcp-allocate-memory first");
    const FetchPlan &plan = plan_.fetch;
    isa::FetchConfig f;
    f.base = *offset;
    f.accessLog2 = log2Exact(plan.sequencer.accessBytes);
    f.packetBytes = plan.sequencer.packetBytes;
    f.cast = plan.cast ? isa::FetchCast::Bf16ToF32 : isa::FetchCast::None;
    if (!setLoops(f.limits, f.strides, plan.sequencer.loops))
      return missing(ops_.fetch, "needs more sequencer loops than the fetch unit has");
    f.slices = sliceBitmap(t_, plan.stream.spatial);
    add(ops_.fetch.getLoc(), f);
    if (plan_.sw) {
      isa::SwitchConfig sw; // tcp and the ISA number the switch modes alike (docs/isa.md)
      sw.mode = static_cast<isa::SwitchMode>(ops_.sw.getMode());
      sw.slice1 = plan_.sw->slice1;
      sw.slice0 = plan_.sw->slice0;
      sw.time0 = plan_.sw->time0;
      add(ops_.sw.getLoc(), sw);
    }
    return success();
  }

  LogicalResult contract() {
    if (!plan_.contract)
      return success();
    std::optional<int64_t> trfBase = allocatedOffset(ops_.contract.getWeights(), Memory::Trf);
    if (!trfBase)
      return missing(ops_.contract, "its TRF operand has no address; run tcp-allocate-memory");
    if (plan_.contract->loops.size() > size_t(isa::kSequencerLoops))
      return missing(ops_.contract, "needs more loops than the contraction sequencer has");
    add(ops_.contract.getLoc(), contractConfig(*plan_.contract, *trfBase));
    return success();
  }

  /// The Vector Engine, then the Cast and Transpose Engines after it.
  LogicalResult vector() {
    if (plan_.vector) {
      std::optional<int64_t> vrfBase = 0;
      if (plan_.vector->hasVrf) {
        vrfBase = allocatedOffset(ops_.vector.getVrfOperands()[0], Memory::Vrf);
        if (!vrfBase)
          return missing(ops_.vector, "its VRF operand has no address; run tcp-allocate-memory");
      }
      add(ops_.vector.getLoc(), vectorConfig(*plan_.vector, *vrfBase));
    }
    if (ops_.cast) {
      isa::CastConfig c;
      bool toI8 = ops_.cast.getResult().getType().getElementType().isSignlessInteger(8);
      c.mode = toI8 ? isa::CastMode::I32ToI8 : isa::CastMode::F32ToBf16;
      add(ops_.cast.getLoc(), c);
    }
    if (plan_.transpose) {
      isa::TransposeConfig c;
      c.elemLog2 = log2Exact(plan_.transpose->elemBytes);
      c.inRows = plan_.transpose->inRows;
      c.inCols = plan_.transpose->inCols;
      c.outRows = plan_.transpose->outRows;
      add(ops_.transpose.getLoc(), c);
    }
    return success();
  }

  /// Where the pass ends: a commit to DM, or a TRF or VRF write.
  LogicalResult end() {
    if (plan_.commit)
      return commit();
    Value result = ops_.end->getResult(0);
    if (plan_.trf) {
      isa::TrfWriteConfig c;
      std::optional<int64_t> base = allocatedOffset(result, Memory::Trf);
      if (!base)
        return missing(ops_.end, "has no TRF address; run tcp-allocate-memory first");
      c.base = *base;
      c.lanesLog2 = log2Exact(plan_.trf->lanes());
      c.laneBytes = plan_.trf->laneBytes();
      add(ops_.end->getLoc(), c);
    } else if (plan_.vrf) {
      isa::VrfWriteConfig c;
      std::optional<int64_t> base = allocatedOffset(result, Memory::Vrf);
      if (!base)
        return missing(ops_.end, "has no VRF address; run tcp-allocate-memory first");
      c.base = *base;
      c.bytes = plan_.vrf->bytes();
      add(ops_.end->getLoc(), c);
    }
    return success();
  }

  LogicalResult commit() {
    isa::CommitConfig c;
    std::optional<int64_t> base = allocatedOffset(ops_.commit.getResult(), Memory::Dm);
    if (!base)
      return missing(ops_.commit, "has no DM address; run tcp-allocate-memory first");
    c.base = *base;
    c.writeBytes = plan_.commit->writeBytes;
    if (!setLoops(c.limits, c.strides, plan_.commit->sequencer.loops))
      return missing(ops_.commit, "needs more sequencer loops than the commit unit has");
    c.slices = sliceBitmap(t_, plan_.commit->result.spatial);
    c.cast = plan_.commit->cast ? isa::CommitCast::F32ToBf16 : isa::CommitCast::None;
    add(ops_.commit.getLoc(), c);
    return success();
  }

  const TensorPassPlan &plan_;
  TensorPassOps ops_; // op handles (their accessors are not const)
  const TargetModel &t_;
  PassBlocks out_;
};

} // namespace

std::optional<PassBlocks> passBlocks(Operation *end) {
  auto plan = planTensorPass(end);
  if (!plan)
    return std::nullopt;
  return BlockBuilder(*plan, getTarget(end)).build();
}

} // namespace rngd::tcp
