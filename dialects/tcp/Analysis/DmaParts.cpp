// dmaParts / indirectDmaParts: cutting a DMA's loop nest by cluster and over engines.
#include "dialects/tcp/Analysis/DmaParts.h"

using namespace mlir;

namespace rngd::tcp {

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

/// Whether cutting loop `k` into runs of iterations gives parts whose destination bytes lie
/// in disjoint [lo, hi) ranges: one iteration of loop k (the other loops' reach plus a packet)
/// fits in its stride. The simulator checks concurrent HBM writes by such bounding ranges
/// (docs/simulator.md, "Hazards"), so parts writing HBM must not interleave.
bool separatesDestination(const Nest &loops, size_t k, int64_t packetBytes) {
  Nest others = loops;
  others[k].size = 1;
  auto [lo, hi] = reach(others, /*dst=*/true);
  int64_t stride = loops[k].dstStride < 0 ? -loops[k].dstStride : loops[k].dstStride;
  return stride >= hi - lo + packetBytes;
}

/// The loop of `loops` from `first` on a piece is cut at: among those `allowed` of
/// kStreamSplitIterations or more iterations (so chunks can be sized finely), the one three
/// stream engines share most evenly (the outermost on ties), else the longest; loops.size()
/// when no allowed loop has two iterations.
template <typename Allowed>
size_t cutLoop(const Nest &loops, size_t first, Allowed allowed) {
  size_t longest = loops.size(), even = loops.size();
  // The largest of three near-equal chunks over a third of the loop, as a fraction n / 3.
  auto excess = [&](size_t k) { return (loops[k].size + 2) / 3 * 3 * 1000 / loops[k].size; };
  for (size_t k = first; k < loops.size(); ++k) {
    if (!allowed(k))
      continue;
    if (longest == loops.size() || loops[k].size > loops[longest].size)
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
  // A stream reads each HBM byte once per cluster piece: a load replicating within a piece (a
  // loop reading the same source again) is small however many copies it writes; one that
  // replicates only across clusters streams each cluster's copy.
  bool largeLoad = (plan.hbmSource || (plan.dmSource && plan.dmDest)) &&
                   makePart(whole, 0).packets * packetBytes >= kDmaSplitBytes;
  size_t nextChunk = 0;
  for (size_t pi = 0; pi < pieces.size(); ++pi) {
    const Piece &p = pieces[pi];
    bool large = largeLoad && llvm::none_of(p.loops, [](const auto &l) {
                   return l.size > 1 && l.srcStride == 0;
                 });
    int64_t base = p.cluster * enginesPerCluster;
    size_t i = cutLoop(p.loops, 0, [&](size_t k) {
      return !plan.hbmDest || separatesDestination(p.loops, k, packetBytes);
    });
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
    // Inside the row loop: every part reads its rows' offsets. A scatter's parts write HBM,
    // and rows at different offsets interleave any cut unless there is one row.
    size_t i = cutLoop(p.loops, 1, [&](size_t k) {
      return !plan.scatter ||
             (plan.rows == 1 && separatesDestination(p.loops, k, packetBytes));
    });
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

} // namespace rngd::tcp
