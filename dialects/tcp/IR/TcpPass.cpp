#include "dialects/tcp/IR/TcpPass.h"

using namespace mlir;

namespace rngd::tcp {

static bool isDm(Type t) { return isa<DmType>(t); }

std::optional<DmaOpPlan> planDma(DmaOp op) {
  const TargetModel &t = defaultTarget();
  DmaOpPlan out;
  Type srcType = op.getSource().getType();
  Type dstType = op.getDest() ? op.getDest().getType() : op.getResult().getType();
  std::vector<mapping::Level> src, dst;
  std::vector<std::string> axes;
  int64_t elemBytes = 0;
  if (isDm(srcType)) {
    out.dmSource = resolveDm(op, cast<DmType>(srcType));
    if (!out.dmSource)
      return std::nullopt;
    src = out.dmSource->levels(t);
    elemBytes = out.dmSource->elemBytes;
  } else {
    out.hbmSource = resolveHbm(op, cast<HbmType>(srcType));
    if (!out.hbmSource)
      return std::nullopt;
    src = out.hbmSource->levels();
    axes = out.hbmSource->axes;
    elemBytes = out.hbmSource->elemBytes;
  }
  if (isDm(dstType)) {
    out.dmDest = resolveDm(op, cast<DmType>(dstType));
    if (!out.dmDest)
      return std::nullopt;
    dst = out.dmDest->levels(t);
  } else {
    out.hbmDest = resolveHbm(op, cast<HbmType>(dstType));
    if (!out.hbmDest)
      return std::nullopt;
    dst = out.hbmDest->levels();
    axes = out.hbmDest->axes;
  }
  if (out.dmSource && out.dmDest)
    axes = out.dmSource->axes;
  if (out.hbmSource && out.hbmDest && out.hbmSource->axes != out.hbmDest->axes) {
    op.emitOpError("HBM to HBM copies need the same axes on both sides");
    return std::nullopt;
  }
  auto plan = deriveTensorDma(op, src, dst, axes, elemBytes);
  if (!plan)
    return std::nullopt;
  out.plan = *plan;
  bool dmInvolved = out.dmSource || out.dmDest;
  if (dmInvolved && out.plan.packetBytes % t.dmaAlignment != 0) {
    op.emitOpError("DMA alignment: packets of ")
        << out.plan.packetBytes << " bytes; transfers between HBM and DM move packets that are "
        << "a multiple of " << t.dmaAlignment << " bytes";
    return std::nullopt;
  }
  if (out.hbmSource && out.hbmDest)
    out.route = DmaRoute::HbmToHbm;
  else if (out.hbmSource)
    out.route = DmaRoute::HbmToDm;
  else if (out.hbmDest)
    out.route = DmaRoute::DmToHbm;
  else
    out.route = out.dmSource->spatial.cluster.str() == out.dmDest->spatial.cluster.str()
                    ? DmaRoute::DmToDmSameCluster
                    : DmaRoute::DmToDmCrossCluster;
  out.cycles = dmaCycles(t, out.route, out.plan.packetBytes, out.plan.packets());
  return out;
}

static const VectorStepInfo kVectorSteps[] = {
    {"add_i", "FxpAdd", 3, false},
    {"add_f", "FpFma", 6, true},
    {"mul_f", "FpMul0", 7, true},
};

const VectorStepInfo *findVectorStep(StringRef name) {
  for (const VectorStepInfo &s : kVectorSteps)
    if (s.name == name)
      return &s;
  return nullptr;
}

int64_t dmaEngine(const DmaOpPlan &plan) {
  const TargetModel &t = defaultTarget();
  const std::optional<DmLayout> &dm = plan.dmSource ? plan.dmSource : plan.dmDest;
  if (!dm)
    return 0;
  std::vector<int64_t> slices = dm->spatial.activeSlices(t);
  int64_t slicesPerEngine = t.totalSlices() / t.dmaEngines;
  return slices.empty() ? 0 : slices.front() / slicesPerEngine;
}

Context passContext(Operation *op) {
  while (op) {
    if (auto fetch = dyn_cast<FetchOp>(op))
      return fetch.getContext();
    if (op->getNumOperands() == 0)
      break;
    op = op->getOperand(0).getDefiningOp();
  }
  return Context::main;
}

static int64_t accessLimit(const TargetModel &t, Context ctx) {
  return ctx == Context::main ? t.maxFetchAccessBytes : t.subFetchAccessBytes;
}

std::optional<FetchPlan> planFetch(FetchOp op) {
  const TargetModel &t = defaultTarget();
  auto source = resolveDm(op, op.getSource().getType());
  auto stream = resolveStream(op, op.getResult().getType());
  if (!source || !stream)
    return std::nullopt;
  auto seq = deriveTensorSequencer(op, "fetch", *source, *stream, accessLimit(t, op.getContext()));
  if (!seq)
    return std::nullopt;
  bool cast = op.getSource().getType().getElementType() != op.getResult().getType().getElementType();
  return FetchPlan{*source, *stream, *seq, cast};
}

std::optional<CommitPlan> planCommit(CommitOp op) {
  const TargetModel &t = defaultTarget();
  auto result = resolveDm(op, op.getResult().getType());
  auto stream = resolveStream(op, op.getInput().getType());
  if (!result || !stream)
    return std::nullopt;
  if (result->spatial.cluster.str() != stream->spatial.cluster.str() ||
      result->spatial.slice.str() != stream->spatial.slice.str()) {
    op.emitOpError("each slice commits to its own DM: the result's cluster/slice mappings must "
                   "equal the stream's");
    return std::nullopt;
  }
  int64_t valid = stream->packetBytes();
  if (valid % t.commitStrideAlignment != 0 || valid < 8 || valid > t.flitBytes) {
    op.emitOpError("commit trim: a flit's valid bytes must be 8, 16, 24 or 32, got ") << valid;
    return std::nullopt;
  }
  Context ctx = passContext(op);
  auto seq = deriveTensorSequencer(op, "commit", *result, *stream, accessLimit(t, ctx));
  if (!seq)
    return std::nullopt;
  if (seq->accessBytes != valid) {
    op.emitOpError("commit: each ")
        << valid << "-byte packet must be written by one access, but the result's element "
        << "mapping \"" << result->elem.str() << "\" allows " << seq->accessBytes
        << "-byte accesses" << (ctx == Context::sub ? " (sub commits write 8 bytes)" : "");
    return std::nullopt;
  }
  return CommitPlan{*result, *stream, *seq, valid};
}

TensorPassOps tensorPassOps(CommitOp commit) {
  TensorPassOps ops;
  ops.commit = commit;
  Operation *op = commit.getInput().getDefiningOp();
  while (op) {
    if (auto c = dyn_cast<CastOp>(op))
      ops.cast = c;
    else if (auto v = dyn_cast<VectorOp>(op))
      ops.vector = v;
    else if (auto c = dyn_cast<CollectOp>(op))
      ops.collect = c;
    else if (auto f = dyn_cast<FetchOp>(op)) {
      ops.fetch = f;
      break;
    }
    op = op->getOperand(0).getDefiningOp();
  }
  return ops;
}

TensorPassShape tensorPassShape(const TensorPassOps &ops, const FetchPlan &fetch,
                                const CommitPlan &commit) {
  TensorPassShape shape;
  shape.fetchAccesses = fetch.sequencer.accesses();
  shape.fetchCast = fetch.cast;
  shape.flits = fetch.stream.time.size(); // one flit per packet (packets fit one flit)
  if (VectorOp vector = ops.vector)
    for (Attribute step : vector.getSteps()) {
      if (findVectorStep(cast<StringAttr>(step).getValue())->isFloat)
        ++shape.vectorFloatAlus;
      else
        ++shape.vectorIntAlus;
    }
  shape.vectorFlits = ops.vector ? shape.flits : 0;
  shape.castFlits = ops.cast ? shape.flits : 0;
  shape.commitWrites = commit.sequencer.accesses();
  return shape;
}

} // namespace rngd::tcp
