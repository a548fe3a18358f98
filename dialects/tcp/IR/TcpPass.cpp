#include "dialects/tcp/IR/TcpPass.h"

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

namespace {
/// The lowest and highest byte offset the loop nest reaches (packet excluded).
std::pair<int64_t, int64_t> reach(const std::vector<mapping::DmaPlan::PairLoop> &loops,
                                  bool dst) {
  int64_t lo = 0, hi = 0;
  for (const auto &l : loops) {
    int64_t span = (l.size - 1) * (dst ? l.dstStride : l.srcStride);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

/// The cluster whose DM a nest's side (the destination's when `dst`) stays in, its offsets
/// counted from `base`; -1 when it spans two.
int64_t clusterOf(const TargetModel &t, const std::vector<mapping::DmaPlan::PairLoop> &loops,
                  int64_t base, bool dst) {
  const int64_t clusterBytes = t.slicesPerCluster * t.dmSliceWindowBytes;
  auto [lo, hi] = reach(loops, dst);
  int64_t first = (base + lo) / clusterBytes, last = (base + hi) / clusterBytes;
  return first == last ? first : int64_t(-1);
}

using Nest = std::vector<mapping::DmaPlan::PairLoop>;
struct Piece {
  Nest loops;
  int64_t src = 0, dst = 0, cluster = 0;
};

/// Iterations [from, to) of loop i of a piece, as a piece of their own.
Piece slicePiece(const Piece &p, size_t i, int64_t from, int64_t to) {
  Piece q = p;
  q.loops[i].size = to - from;
  q.src += from * p.loops[i].srcStride;
  q.dst += from * p.loops[i].dstStride;
  return q;
}

/// One piece per cluster the DM side of `loops` (the destination's when `dmDst`) reaches: the
/// outermost loop from `firstCut` on whose iterations each stay in one cluster is cut where the
/// cluster changes. Empty when no such loop separates the clusters (no engine could run it).
std::vector<Piece> clusterPieces(const TargetModel &t, const Nest &loops, bool dmDst,
                                 size_t firstCut) {
  Piece whole{loops, 0, 0, 0};
  whole.cluster = clusterOf(t, whole.loops, 0, dmDst);
  if (whole.cluster >= 0)
    return {whole};
  for (size_t i = firstCut; i < whole.loops.size(); ++i) {
    std::vector<Piece> cut;
    int64_t from = 0, current = -2;
    for (int64_t j = 0; j <= whole.loops[i].size; ++j) {
      int64_t c = -2;
      if (j < whole.loops[i].size) {
        Piece one = slicePiece(whole, i, j, j + 1);
        c = clusterOf(t, one.loops, dmDst ? one.dst : one.src, dmDst);
        if (c < 0)
          break; // an iteration spans both clusters: try an inner loop
      }
      if (c != current && j > from) {
        cut.push_back(slicePiece(whole, i, from, j));
        cut.back().cluster = current;
        from = j;
      }
      current = c;
      if (j == whole.loops[i].size)
        return cut;
    }
  }
  return {};
}

/// The loop of `loops` from `first` on a piece is cut at: among those of
/// kStreamSplitIterations or more iterations (so chunks can be sized finely), the one three
/// stream engines share most evenly (the outermost on ties), else the longest; loops.size()
/// when no loop has two iterations.
size_t cutLoop(const Nest &loops, size_t first) {
  size_t longest = first, even = loops.size();
  // The largest of three near-equal chunks over a third of the loop, as a fraction n / 3.
  auto excess = [&](size_t k) { return (loops[k].size + 2) / 3 * 3 * 1000 / loops[k].size; };
  for (size_t k = first; k < loops.size(); ++k) {
    if (loops[k].size > loops[longest].size)
      longest = k;
    if (loops[k].size >= kStreamSplitIterations &&
        (even == loops.size() || excess(k) < excess(even)))
      even = k;
  }
  if (even < loops.size())
    return even;
  return longest < loops.size() && loops[longest].size >= 2 ? longest : loops.size();
}

/// Appends piece `pi` (`p`) cut at loop `i` into parts of `sizes` iterations (a size of 0
/// drops its part), part c on engine `base + c`, made by `make(piece, engine)`; false when the
/// sizes do not add up to the loop.
template <typename Make>
bool appendCut(std::vector<DmaPart> &parts, const Piece &p, size_t pi, size_t i,
               llvm::ArrayRef<int64_t> sizes, int64_t base, bool stream, Make make) {
  int64_t from = 0, n = p.loops[i].size;
  for (size_t c = 0; c < sizes.size(); ++c) {
    if (sizes[c] < 0 || from + sizes[c] > n)
      return false;
    if (sizes[c] > 0) {
      parts.push_back(make(slicePiece(p, i, from, from + sizes[c]), base + int64_t(c)));
      parts.back().chunk = sizes[c];
      parts.back().piece = static_cast<int64_t>(pi);
      parts.back().cutIterations = n;
      parts.back().stream = stream;
    }
    from += sizes[c];
  }
  return from == n;
}
} // namespace

std::vector<DmaPart> dmaParts(const DmaOpPlan &plan, llvm::ArrayRef<int64_t> chunks) {
  const TargetModel &t = *plan.target;
  const int64_t packetBytes = plan.plan.packetBytes;
  bool dmDst = plan.dmDest.has_value();
  const int64_t clusterBytes = t.slicesPerCluster * t.dmSliceWindowBytes;
  // Streams use the first engines of a cluster; the last one stays free for small transfers,
  // which a long stream would otherwise hold up in its engine's queue.
  const int64_t enginesPerCluster = t.dmaEngines / t.clusters;
  const int64_t streamEngines = enginesPerCluster - 1;
  auto makePart = [&](const Piece &p, int64_t engine) {
    DmaPart part{p.loops, p.src, p.dst, engine, 1, 0, {}};
    for (const auto &l : part.loops)
      part.packets *= l.size;
    int64_t bytes = part.packets * packetBytes;
    // DM to DM: the route of the first packet (the simulator times a descriptor by it).
    DmaRoute route = plan.route;
    if (plan.dmSource && plan.dmDest)
      route = p.src / clusterBytes == p.dst / clusterBytes ? DmaRoute::DmToDmSameCluster
                                                           : DmaRoute::DmToDmCrossCluster;
    part.cycles = dmaCycles(t, route, packetBytes, part.packets);
    part.traffic.hbmBytes = (plan.hbmSource ? bytes : 0) + (plan.hbmDest ? bytes : 0);
    if (dmDst)
      part.traffic.dmWriteBytes[p.cluster] = bytes;
    return part;
  };

  Piece whole{plan.plan.loops, 0, 0, 0};
  if (!plan.dmSource && !plan.dmDest)
    return {makePart(whole, streamEngines)};
  // 1. One piece per cluster.
  std::vector<Piece> pieces = clusterPieces(t, whole.loops, dmDst, 0);
  if (pieces.empty()) // no loop separates the clusters: no engine can run it
    return {};
  // A source held alike by every cluster is read from another cluster than the piece writes:
  // DM to DM across clusters pipelines its reads and writes (half the cycles).
  if (plan.sourceOnEveryCluster)
    for (Piece &p : pieces)
      if (clusterOf(t, p.loops, p.src, false) == p.cluster)
        p.src += ((p.cluster + 1) % t.clusters - p.cluster) * clusterBytes;
  // 2. A stream: each cluster's piece over the cluster's first three engines, its cutLoop
  //    cut into near-equal chunks (or the scheduler's, one per engine of the cluster). A small
  //    DMA stays whole on the cluster's fourth engine unless the scheduler gives chunks.
  std::vector<DmaPart> parts;
  // A stream reads each HBM byte once: a replicating load (a loop reading the same source
  // again) is small however many copies it writes.
  bool replicates = llvm::any_of(whole.loops, [](const auto &l) {
    return l.size > 1 && l.srcStride == 0;
  });
  bool large = plan.hbmSource && !replicates &&
               makePart(whole, 0).packets * packetBytes >= kDmaSplitBytes;
  size_t nextChunk = 0;
  for (size_t pi = 0; pi < pieces.size(); ++pi) {
    const Piece &p = pieces[pi];
    int64_t base = p.cluster * enginesPerCluster;
    size_t i = cutLoop(p.loops, 0);
    int64_t n = i < p.loops.size() ? p.loops[i].size : 0;
    if (!chunks.empty() && i == p.loops.size())
      return {}; // chunks for a piece with no loop to cut
    if (!large && chunks.empty()) {
      parts.push_back(makePart(p, base + streamEngines));
      parts.back().piece = static_cast<int64_t>(pi);
      parts.back().cutIterations = n;
      continue;
    }
    if (i == p.loops.size()) { // a large load with no loop to cut: one part
      parts.push_back(makePart(p, base));
      parts.back().piece = static_cast<int64_t>(pi);
      continue;
    }
    // Default (a stream): near-equal chunks on the stream engines. Given chunks: one per
    // engine of the cluster, the fourth (spare) engine's included.
    SmallVector<int64_t> sizes;
    if (chunks.empty()) {
      int64_t count = std::min(streamEngines, n);
      for (int64_t c = 0; c < count; ++c)
        sizes.push_back((c + 1) * n / count - c * n / count);
    } else {
      if (nextChunk + enginesPerCluster > chunks.size())
        return {}; // fewer chunks than engines
      sizes.append(chunks.begin() + nextChunk, chunks.begin() + nextChunk + enginesPerCluster);
      nextChunk += enginesPerCluster;
    }
    if (!appendCut(parts, p, pi, i, sizes, base, large, makePart))
      return {}; // chunks that do not cover the piece
  }
  if (nextChunk != chunks.size())
    return {};
  return parts;
}

std::vector<DmaPart> indirectDmaParts(const IndirectDmaPlan &plan,
                                      llvm::ArrayRef<int64_t> chunks) {
  const TargetModel &t = *plan.dma.target;
  const DmaOpPlan &dma = plan.dma;
  const int64_t packetBytes = dma.plan.packetBytes;
  const int64_t enginesPerCluster = t.dmaEngines / t.clusters;
  // Loop 0: the rows; the HBM side's step comes from the offsets (stride 0 here).
  Nest loops = {{plan.rows, plan.scatter ? plan.dmRowStride : 0,
                 plan.scatter ? 0 : plan.dmRowStride}};
  loops.insert(loops.end(), dma.plan.loops.begin(), dma.plan.loops.end());
  auto makePart = [&](const Piece &p, int64_t engine) {
    DmaPart part{p.loops, p.src, p.dst, engine, 1, 0, {}};
    for (const auto &l : part.loops)
      part.packets *= l.size;
    int64_t bytes = part.packets * packetBytes;
    part.cycles = dmaCycles(t, dma.route, packetBytes, part.packets);
    part.traffic.hbmBytes = bytes + plan.offsets.elem.size() * plan.offsets.elemBytes;
    if (!plan.scatter)
      part.traffic.dmWriteBytes[p.cluster] = bytes;
    return part;
  };
  std::vector<DmaPart> parts;
  size_t nextChunk = 0;
  std::vector<Piece> pieces = clusterPieces(t, loops, !plan.scatter, 1);
  for (size_t pi = 0; pi < pieces.size(); ++pi) {
    const Piece &p = pieces[pi];
    int64_t base = p.cluster * enginesPerCluster;
    size_t i = cutLoop(p.loops, 1); // inside the row loop: every part reads its rows' offsets
    int64_t n = i < p.loops.size() ? p.loops[i].size : 0;
    if (!chunks.empty() && i == p.loops.size())
      return {}; // chunks for a piece with no loop to cut
    if (chunks.empty()) {
      parts.push_back(makePart(p, base + enginesPerCluster - 1));
      parts.back().piece = static_cast<int64_t>(pi);
      parts.back().cutIterations = n;
      continue;
    }
    if (nextChunk + enginesPerCluster > chunks.size())
      return {};
    llvm::ArrayRef<int64_t> sizes = chunks.slice(nextChunk, enginesPerCluster);
    nextChunk += enginesPerCluster;
    if (!appendCut(parts, p, pi, i, sizes, base, false, makePart))
      return {};
  }
  if (nextChunk != chunks.size())
    return {};
  return parts;
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
  auto attr = func->getAttrOfType<StringAttr>("tcp.prefetch");
  return attr && attr.getValue() == "all" ? Prefetch::All : Prefetch::Double;
}

int64_t lastUseOf(Value v, Block &block, const llvm::DenseMap<Operation *, int64_t> &order) {
  int64_t last = v.getDefiningOp() ? order.lookup(v.getDefiningOp()) : 0;
  for (Operation *user : v.getUsers()) {
    Operation *inBlock = block.findAncestorOpInBlock(*user);
    last = std::max(last, order.lookup(passEnd(inBlock)));
    if (llvm::isa<ReinterpretOp, DmViewOp, VrfViewOp>(inBlock))
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
  int64_t held = heldEnd(result->elem) * result->elemBytes;
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
