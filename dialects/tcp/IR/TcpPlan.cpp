#include "dialects/tcp/IR/TcpPlan.h"

using namespace mlir;

namespace rngd::tcp {

static bool isDm(Type t) { return llvm::isa<DmType>(t); }

/// Whether DM to DM copy `op` may read its source from any cluster: the source's cluster
/// level is one axis that the destination does not hold (so the copy reads one position of
/// it, deriveDma) and that the DMA producing the source broadcast (its own source lacks the
/// axis), so every cluster holds the same bytes.
static bool clusterCopies(DmaOp op, const DmLayout &source, const DmLayout &dest) {
  const TargetModel &t = getTarget(op);
  const auto &factors = source.spatial.cluster.factors();
  if (factors.size() != 1 || factors[0].isConstant() || factors[0].visible() != t.clusters)
    return false;
  const std::string &axis = factors[0].axis;
  auto holds = [&](const std::vector<std::string> &axes) {
    return std::find(axes.begin(), axes.end(), axis) != axes.end();
  };
  auto producer = op.getSource().getDefiningOp<DmaOp>();
  if (holds(dest.axes) || !producer || producer.getDest())
    return false;
  Type from = producer.getSource().getType();
  if (auto dm = dyn_cast<DmType>(from)) {
    auto layout = resolveDm(producer, dm);
    return layout && !holds(layout->axes);
  }
  auto layout = resolveHbm(producer, cast<HbmType>(from));
  return layout && !holds(layout->axes);
}

/// The axes of the HBM side of `plan` that its DM side lacks, as "`J`" or "`J`, `K`" (empty
/// when it lacks none, or the copy is not between HBM and DM).
static std::string axesOnlyIn(const DmaOpPlan &plan, bool toDm) {
  const std::vector<std::string> *hbm = nullptr, *dm = nullptr;
  if (toDm && plan.hbmSource && plan.dmDest)
    hbm = &plan.hbmSource->axes, dm = &plan.dmDest->axes;
  else if (!toDm && plan.dmSource && plan.hbmDest)
    hbm = &plan.hbmDest->axes, dm = &plan.dmSource->axes;
  std::string missing;
  for (const std::string &axis : hbm ? *hbm : std::vector<std::string>{})
    if (std::find(dm->begin(), dm->end(), axis) == dm->end())
      missing += (missing.empty() ? "`" : ", `") + axis + "`";
  return missing;
}

std::optional<DmaOpPlan> planDma(DmaOp op) {
  const TargetModel &t = getTarget(op);
  DmaOpPlan out;
  out.target = &t;
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
    auto diag = op.emitOpError("DMA alignment: packets of ")
                << out.plan.packetBytes << " bytes; transfers between HBM and DM move packets "
                << "that are a multiple of " << t.dmaAlignment << " bytes";
    if (std::string missing = axesOnlyIn(out, out.dmDest.has_value()); !missing.empty())
      diag << ". The DM tensor " << (out.dmDest ? dstType : srcType) << " holds no " << missing << ", which the HBM tensor has: the copy "
           << "takes one position of it, so each packet is this short";
    return std::nullopt;
  }
  if (out.hbmSource && out.hbmDest)
    out.route = DmaRoute::HbmToHbm;
  else if (out.hbmSource)
    out.route = DmaRoute::HbmToDm;
  else if (out.hbmDest)
    out.route = DmaRoute::DmToHbm;
  else
    out.route = mapping::sameOrder(out.dmSource->spatial.cluster, out.dmDest->spatial.cluster)
                    ? DmaRoute::DmToDmSameCluster
                    : DmaRoute::DmToDmCrossCluster;
  out.cycles = dmaCycles(t, out.route, out.plan.packetBytes, out.plan.packets());
  out.sourceOnEveryCluster =
      out.dmSource && out.dmDest && clusterCopies(op, *out.dmSource, *out.dmDest);
  return out;
}

static const VectorStepInfo kVectorSteps[] = {
    {"add_i", isa::Alu::FxpAdd, StepKind::BinaryI, isa::VectorOp::Add},
    {"sub_i", isa::Alu::FxpAdd, StepKind::BinaryI, isa::VectorOp::Sub},
    {"mul_i", isa::Alu::FxpMul, StepKind::BinaryI, isa::VectorOp::Mul},
    {"to_f32", isa::Alu::FxpToFp, StepKind::ToF32, isa::VectorOp::ToF32},
    {"add_f", isa::Alu::FpFma, StepKind::BinaryF, isa::VectorOp::Add},
    {"sub_f", isa::Alu::FpFma, StepKind::BinaryF, isa::VectorOp::Sub},
    {"fma_f", isa::Alu::FpFma, StepKind::FmaF, isa::VectorOp::Fma},
    {"sqrt_f", isa::Alu::FpFpu, StepKind::UnaryF, isa::VectorOp::Sqrt},
    {"sigmoid_f", isa::Alu::FpFpu, StepKind::UnaryF, isa::VectorOp::Sigmoid},
    {"exp_f", isa::Alu::FpExp, StepKind::UnaryF, isa::VectorOp::Exp},
    {"mul_f", isa::Alu::FpMul0, StepKind::BinaryF, isa::VectorOp::Mul},
    {"reduce_add_f", isa::Alu::IntraReduce, StepKind::ReduceF, isa::VectorOp::Add},
    {"reduce_max_f", isa::Alu::IntraReduce, StepKind::ReduceF, isa::VectorOp::Max},
    {"div_f", isa::Alu::FpDiv, StepKind::BinaryF, isa::VectorOp::Div},
    {"to_i32", isa::Alu::FpToFxp, StepKind::ToI32, isa::VectorOp::ToI32},
    {"max_f", isa::Alu::Clip, StepKind::BinaryF, isa::VectorOp::Max},
    {"min_f", isa::Alu::Clip, StepKind::BinaryF, isa::VectorOp::Min},
    {"clip_add_f", isa::Alu::Clip, StepKind::BinaryF, isa::VectorOp::Add},
    {"inter_add_f", isa::Alu::InterReduce, StepKind::InterF, isa::VectorOp::Add},
    {"inter_max_f", isa::Alu::InterReduce, StepKind::InterF, isa::VectorOp::Max},
    {"stash", isa::Alu::Stash, StepKind::Stash, isa::VectorOp::None},
};

const VectorStepInfo *findVectorStep(StringRef name) {
  for (const VectorStepInfo &s : kVectorSteps)
    if (s.name == name)
      return &s;
  return nullptr;
}

DmaTraffic dmaTraffic(const DmaOpPlan &plan, int64_t bytes) {
  const TargetModel &t = *plan.target;
  DmaTraffic traffic;
  traffic.hbmBytes = (plan.hbmSource ? bytes : 0) + (plan.hbmDest ? bytes : 0);
  if (!plan.dmDest)
    return traffic;
  std::vector<int64_t> slices = plan.dmDest->spatial.activeSlices(t);
  if (slices.empty())
    return traffic;
  for (int64_t c = 0; c < t.clusters && c < 2; ++c) {
    int64_t in = llvm::count_if(slices, [&](int64_t s) { return s / t.slicesPerCluster == c; });
    traffic.dmWriteBytes[c] = bytes * in / static_cast<int64_t>(slices.size());
  }
  return traffic;
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

bool isPassEnd(Operation *op) { return llvm::isa<CommitOp, ToTrfOp, ToVrfOp>(op); }

bool isDmaUnit(Operation *op) { return llvm::isa<DmaOp, DmaScatterOp, DmaGatherOp>(op); }

Operation *passEnd(Operation *op) {
  while (op->getNumResults() == 1 && llvm::isa<StreamType>(op->getResult(0).getType()) &&
         op->getResult(0).hasOneUse())
    op = *op->getResult(0).getUsers().begin();
  return op;
}

llvm::DenseMap<Operation *, int64_t> programOrder(Block &block) {
  llvm::DenseMap<Operation *, int64_t> order;
  int64_t index = 0;
  for (Operation &op : block)
    order[&op] = index++;
  return order;
}

llvm::DenseMap<Operation *, int64_t>
liveStarts(Block &block, const llvm::DenseMap<Operation *, int64_t> &order, Prefetch prefetch) {
  llvm::DenseMap<Operation *, int64_t> starts;
  int64_t previousLoad = -1;
  for (Operation &op : block) {
    int64_t at = order.lookup(&op);
    starts[&op] = at;
    auto dma = dyn_cast<DmaOp>(op);
    if (!dma || !dma.getResult() || !llvm::isa<HbmType>(dma.getSource().getType()))
      continue;
    if (prefetch == Prefetch::All)
      starts[&op] = 0;
    else if (previousLoad >= 0)
      starts[&op] = previousLoad;
    previousLoad = at;
  }
  return starts;
}

Prefetch prefetchOf(Operation *func) {
  auto attr = func->getAttrOfType<PrefetchAttr>(kPrefetchAttrName);
  return attr ? attr.getValue() : Prefetch::Double;
}

int64_t lastUseOf(Value v, Block &block, const llvm::DenseMap<Operation *, int64_t> &order) {
  int64_t last = v.getDefiningOp() ? order.lookup(v.getDefiningOp()) : 0;
  for (Operation *user : v.getUsers()) {
    Operation *inBlock = block.findAncestorOpInBlock(*user);
    last = std::max(last, order.lookup(passEnd(inBlock)));
    if (llvm::isa<ReinterpretOp, DmViewOp, VrfViewOp, DmJoinOp>(inBlock))
      last = std::max(last, lastUseOf(inBlock->getResult(0), block, order));
  }
  return last;
}

static int64_t accessLimit(const TargetModel &t, Context ctx) {
  return ctx == Context::main ? t.maxFetchAccessBytes : t.subFetchAccessBytes;
}

std::optional<FetchPlan> planFetch(FetchOp op) {
  const TargetModel &t = getTarget(op);
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

/// Whether commit `op` writes some of the identical copies of a stream: the result's slice
/// mapping is the stream's with one run of factors over axes the pass made (a switch broadcast's
/// or an inter-slice reduce's fresh axes, along which every slice holds the same values)
/// replaced by constants or by axes the stream lacks (copies in the result), and the slices it
/// writes are slices the stream is on.
static bool commitsCopies(CommitOp op, const DmLayout &result, const StreamLayout &stream) {
  Operation *def = op.getInput().getDefiningOp();
  while (def && !llvm::isa<FetchOp>(def))
    def = def->getNumOperands() ? def->getOperand(0).getDefiningOp() : nullptr;
  auto fetch = dyn_cast_or_null<FetchOp>(def);
  auto fetched = fetch ? resolveStream(fetch, fetch.getResult().getType()) : std::nullopt;
  if (!fetched)
    return false;
  std::vector<std::string> before;
  for (const mapping::Mapping *m : {&fetched->spatial.cluster, &fetched->spatial.slice,
                                    &fetched->time, &fetched->packet})
    for (const std::string &a : m->axes())
      before.push_back(a);
  std::vector<std::string> streamAxes = stream.spatial.slice.axes();
  for (const mapping::Mapping *m : {&stream.spatial.cluster, &stream.time, &stream.packet})
    for (const std::string &a : m->axes())
      streamAxes.push_back(a);
  const auto &s = stream.spatial.slice.factors(), &r = result.spatial.slice.factors();
  size_t front = 0, back = 0;
  while (front < s.size() && front < r.size() && s[front] == r[front])
    ++front;
  while (back < s.size() - front && back < r.size() - front &&
         s[s.size() - 1 - back] == r[r.size() - 1 - back])
    ++back;
  // (Both mappings fill a cluster's slices, so the two runs span as many cells.)
  for (size_t i = front; i < s.size() - back; ++i)
    if (s[i].isConstant() || llvm::is_contained(before, s[i].axis))
      return false; // not a copy the pass made
  for (size_t i = front; i < r.size() - back; ++i)
    if (!r[i].isConstant() && llvm::is_contained(streamAxes, r[i].axis))
      return false;
  const TargetModel &t = getTarget(op);
  std::vector<int64_t> from = stream.spatial.activeSlices(t);
  return front + back < s.size() &&
         llvm::all_of(result.spatial.activeSlices(t),
                      [&](int64_t slice) { return llvm::is_contained(from, slice); });
}

/// A DMA that reads DM tensor `v` or a view of it, if any.
static Operation *dmaReading(Value v) {
  SmallVector<Value> work = {v};
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    for (Operation *user : cur.getUsers()) {
      if (llvm::isa<DmaOp>(user) && user->getOperand(0) == cur)
        return user;
      if (user->getNumResults() == 1 && llvm::isa<DmType>(user->getResult(0).getType()) &&
          user->getOperand(0) == cur && !llvm::isa<DmaOp>(user))
        work.push_back(user->getResult(0)); // a view or reinterpretation of it
    }
  }
  return nullptr;
}

std::optional<CommitPlan> planCommit(CommitOp op) {
  const TargetModel &t = getTarget(op);
  auto result = resolveDm(op, op.getResult().getType());
  auto stream = resolveStream(op, op.getInput().getType());
  if (!result || !stream)
    return std::nullopt;
  if (!mapping::sameOrder(result->spatial.cluster, stream->spatial.cluster) ||
      (!mapping::sameOrder(result->spatial.slice, stream->spatial.slice) &&
       !commitsCopies(op, *result, *stream))) {
    op.emitOpError("each slice commits to its own DM: the result's cluster/slice mappings must "
                   "equal the stream's (or keep some of the copies along axes the pass made: ")
        << "slice " << stream->spatial.slice.str() << " vs " << result->spatial.slice.str()
        << ")";
    return std::nullopt;
  }
  // A result that a DMA moves must hold at least commitStrideAlignment meaningful bytes per
  // slice (its trailing padding excluded): refused here, where its layout is chosen, rather
  // than at the DMA (docs/layout-cookbook.md, "Results under 8 bytes per slice"). Passes
  // may read smaller, padded results (a reduction's one value per slice).
  int64_t held = result->elem.heldEnd() * result->elemBytes;
  if (held < t.commitStrideAlignment)
    if (Operation *dma = dmaReading(op.getResult())) {
      InFlightDiagnostic diag = op.emitOpError("the result holds ")
                                << held << " meaningful bytes per slice (elem \""
                                << result->elem.str() << "\") but a DMA moves it, which needs "
                                << t.commitStrideAlignment << ": put more elements on each "
                                << "slice, or commit f32 and gather (docs/layout-cookbook.md, "
                                << "section 2.3)";
      diag.attachNote(dma->getLoc()) << "the DMA";
      return std::nullopt;
    }
  // Valid bytes per flit as written (after the commit adapter's cast, if any).
  int64_t valid = stream->packet.size() * result->elemBytes;
  if (valid % t.commitStrideAlignment != 0 || valid < t.commitStrideAlignment ||
      valid > t.flitBytes) {
    op.emitOpError("commit trim: a flit's valid bytes must be a multiple of ")
        << t.commitStrideAlignment << " up to " << t.flitBytes << ", got " << valid;
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
  return CommitPlan{*result, *stream, *seq, valid, op.getCast()};
}

TensorPassOps tensorPassOps(Operation *end) {
  TensorPassOps ops;
  ops.end = end;
  ops.commit = dyn_cast<CommitOp>(end);
  ops.toTrf = dyn_cast<ToTrfOp>(end);
  ops.toVrf = dyn_cast<ToVrfOp>(end);
  Operation *op = end->getOperand(0).getDefiningOp();
  while (op) {
    if (auto c = dyn_cast<CastOp>(op))
      ops.cast = c;
    else if (auto t = dyn_cast<TransposeOp>(op))
      ops.transpose = t;
    else if (auto w = dyn_cast<SwitchOp>(op))
      ops.sw = w;
    else if (auto v = dyn_cast<VectorOp>(op))
      ops.vector = v;
    else if (auto c = dyn_cast<ContractOp>(op))
      ops.contract = c;
    else if (auto c = dyn_cast<CollectOp>(op))
      ops.collect = c;
    else if (auto f = dyn_cast<FetchOp>(op)) {
      ops.fetch = f;
      break;
    }
    op = op->getNumOperands() ? op->getOperand(0).getDefiningOp() : nullptr;
  }
  return ops;
}

std::optional<TensorPassPlan> planTensorPass(Operation *end) {
  TensorPassPlan plan;
  plan.ops = tensorPassOps(end);
  TensorPassOps &ops = plan.ops;
  if (!ops.fetch || !ops.collect) {
    end->emitOpError("is not the end of a Tensor Unit pass (no tcp.fetch / tcp.collect)");
    return std::nullopt;
  }
  auto fetch = planFetch(ops.fetch);
  if (!fetch)
    return std::nullopt;
  plan.fetch = *fetch;
  TensorPassShape &s = plan.shape;
  s.fetchAccesses = fetch->sequencer.accesses();
  s.fetchCast = fetch->cast;
  int64_t flits = fetch->stream.time.size(); // one flit per packet (packets fit one flit)
  if (ops.sw) {
    plan.sw = planSwitch(ops.sw);
    if (!plan.sw)
      return std::nullopt;
    s.switchCycles = plan.sw->cycles;
    flits = plan.sw->out.time.size();
  }
  s.flits = flits;
  if (ops.contract) {
    plan.contract = planContract(ops.contract);
    if (!plan.contract)
      return std::nullopt;
    s.contractIterations = plan.contract->iterations();
    s.contractPacketElems = plan.contract->packetElems;
    s.contractSlots = plan.contract->slots;
    flits = plan.contract->out.time.size();
  }
  if (ops.vector) {
    plan.vector = planVector(ops.vector);
    if (!plan.vector)
      return std::nullopt;
    s.vectorFlits = flits;
    s.vectorFloatAlus = plan.vector->floatAlus;
    s.vectorIntAlus = plan.vector->intAlus;
    s.interReduceSlices = plan.vector->interGroup;
    flits = plan.vector->out.time.size();
  }
  if (ops.cast)
    s.castFlits = flits;
  if (ops.transpose) {
    plan.transpose = planTranspose(ops.transpose);
    if (!plan.transpose)
      return std::nullopt;
    s.transposeCycles = plan.transpose->cycles;
    flits = plan.transpose->out.time.size();
  }
  if (ops.commit) {
    plan.commit = planCommit(ops.commit);
    if (!plan.commit)
      return std::nullopt;
    s.commitWrites = plan.commit->sequencer.accesses();
  } else if (ops.toTrf) {
    plan.trf = planToTrf(ops.toTrf);
    if (!plan.trf)
      return std::nullopt;
    s.registerWrites = flits;
  } else if (ops.toVrf) {
    plan.vrf = planToVrf(ops.toVrf);
    if (!plan.vrf)
      return std::nullopt;
    s.registerWrites = flits;
  }
  return plan;
}

} // namespace rngd::tcp
