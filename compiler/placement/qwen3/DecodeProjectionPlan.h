// The numbers of the decode `projection` stage's placement (Projection.cpp): x^'s rings, the
// rows per TRF lane of q, k and v (q in passes of whole heads where one pass does not fit),
// the heads' gather rings and RoPE's tables, each from the shape and the target.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/Qwen3Stages.h"
#include "compiler/placement/StageBuilder.h"
#include "compiler/placement/qwen3/Common.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rngd::placement::qwen3::decode_projection {

inline constexpr const char *kStage = "projection";

/// Flits the contraction's stream adapter packs into one packet: two, 32 bf16 of x^ against
/// every lane's row each cycle, the multipliers' full width.
inline constexpr int64_t kPackFlits = 2;

inline std::string num(int64_t n) { return std::to_string(n); }

// The numbers of the placement, each from the shape and the target (planProjection).
struct ProjectionPlan {
  int64_t flitBf16;       // bf16 values in a flit: x^'s packets, the weights' TRF-load packets
  int64_t flitF32;        // f32 values in a flit: the Vector Engine passes' packets
  int64_t subF32;         // f32 values of one sub-context fetch of bf16 (the VRF loads)
  int64_t scalarCells;    // a lone f32 padded to the smallest packet (a reduction's result)
  int64_t xRing;          // slices of one ring of x^
  int64_t xFlitsPerSlice; // x^'s flits on each slice of a ring (1 where H allows)
  int64_t xRings;         // x^'s rings per cluster
  int64_t xWeightParts;   // parts of H whose norm weight (f32) fits the VRF in turn
  int64_t qLanes;         // q's rows per slice, one per TRF lane
  int64_t kvLanes;        // k's and v's rows per slice
  int64_t qPasses = 1;     // passes over q's heads, each filling every slice
  int64_t qHeadsPerCluster; // q heads of one pass on one cluster
  int64_t qReplicas = 1;    // copies of q's rows on a cluster (QR) when they fill fewer slices
  int64_t qClusterCopies = 1; // an odd q head count's passes, each copied onto every cluster (CQ)
  // A last q pass after the full ones, fewer heads copied until they fill the cluster (planQTail).
  int64_t qTailHeads = 0; // its heads over all clusters; 0: no last pass
  int64_t qTailHeadsPerCluster = 0;
  int64_t qTailReplicas = 1;      // its copies on a cluster (QL)
  int64_t qTailClusterCopies = 1; // a lone last head's copy on every cluster (CQ)
  int64_t kvHeadsPerCluster;
  int64_t kvClusterCopies = 1; // a lone kv head's copies, one per cluster (CK)
  int64_t kvReplicas = 1; // copies of k's and v's rows on a cluster (RR), fewer than its slices
  int64_t qSlices;   // slices of one q head: its gather ring and RoPE's tables
  int64_t kvSlices;  // slices of one kv head: kCopies q heads' slices
  int64_t kCopies;   // copies of a k head, one per q head's slices of its ring (RK)
  int64_t vGather;   // v's slices gathered onto one, so that one holds an f32 flit
  int64_t chunkKeys; // rows of a KV-cache chunk
};

// Rows of one weight matrix over every slice of the chip, one row per TRF lane. A slice's
// partial rows (one f32 per lane) then move as one packet of at least the smallest 8 bytes
// when the Switch Engine gathers a head.
inline llvm::Expected<int64_t> lanesFor(const char *what, int64_t rows, int64_t hidden,
                                 const TargetModel &t) {
  const int64_t slices = t.totalSlices();
  const int64_t lanes = rows / slices;
  const int64_t minLanes = t.fetchPacketAlignment / 4;
  if (rows % slices || !isPowerOfTwo(lanes) || lanes > t.trfLanes || lanes < minLanes)
    return placementError(kStage, "weight rows fill every slice, one row per TRF lane",
                          llvm::Twine(what) + "'s " + num(rows) + " rows over " + num(slices) +
                              " slices are not " + num(minLanes) + " to " + num(t.trfLanes) +
                              " (a power of two) rows per slice");
  if (hidden * 2 > t.trfBytesPerSlice / lanes)
    return placementError(kStage, "a weight row fits its TRF lane",
                          llvm::Twine(what) + ": a row of " + num(hidden * 2) +
                              " bytes, a lane of " + num(t.trfBytesPerSlice / lanes));
  return lanes;
}

// x's RMSNorm on one slice and x^'s rings.
inline llvm::Error planX(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t H = s.hidden, S = t.slicesPerCluster;
  // x^ is spread over rings that each hold all of it: the Switch Engine broadcasts within a
  // ring, a power of two of slices no larger than a cluster; the largest that divides x^'s
  // flits, one flit per slice where H allows. The contraction takes x^'s flits two a packet.
  const int64_t xFlits = H / p.flitBf16;
  p.xRing = 1;
  while (p.xRing * 2 <= S && xFlits % (p.xRing * 2) == 0)
    p.xRing *= 2;
  p.xFlitsPerSlice = xFlits / p.xRing;
  if (H % p.flitBf16 || xFlits % kPackFlits || p.xRing < kPackFlits)
    return placementError(kStage,
                          "x^ spreads over a ring (a power of two of slices, at most a "
                          "cluster) in pairs of flits",
                          "hidden " + num(H) + " is " + num(H * 2) + " bytes, " +
                              (H % p.flitBf16 ? "not a whole number of "
                                              : num(H * 2 / t.flitBytes) + " ") +
                              "flits of " + num(t.flitBytes));
  p.xRings = S / p.xRing;
  // x times its norm weight reads the weight from the VRF as f32, next to x's rms (one VRF
  // row): in as many parts of H (a power of two) as it takes to fit.
  p.xWeightParts = 1;
  const int64_t vrfRoom = t.vrfBytesPerSlice - t.vrfAllocationAlignment;
  while (H % (p.xWeightParts * 2) == 0 && (H / p.xWeightParts) * 4 > vrfRoom)
    p.xWeightParts *= 2;
  const int64_t part = H / p.xWeightParts;
  if (part * 4 > vrfRoom || part % p.flitF32 || part % p.subF32)
    return placementError(
        kStage, "x's norm weight (f32) fits the VRF in equal parts of whole flits",
        "hidden " + num(H) + " in " + num(p.xWeightParts) + " parts of " + num(part * 4) +
            " bytes; the VRF holds " + num(vrfRoom) + " beside x's rms");
  return llvm::Error::success();
}

// q's rows in equal passes of whole heads that do not fill a cluster, where a copied last pass
// (planQTail) reads more or does not fit (a lone q head; 7 heads a cluster, whose rest of 3 is
// no power of two): each pass's heads copied (QR) until they cover the cluster, as few q rows
// are (copiesFor), so x^, the heads and the RoPE tables keep covering the same slices. q heads
// that do not split over the clusters run the same way with each pass's heads copied onto every
// cluster (CQ, as a lone kv head is, CK): every cluster then holds all the heads over the
// passes. The fewest passes (the most heads a pass), then the fewest copies (each copy streams
// the pass's weights from HBM again): a power of two of heads per cluster dividing the
// cluster's heads, at the lanes whose row fits. Leaves p alone and returns false where none
// fits.
inline bool planQCopiedPasses(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t S = t.slicesPerCluster, C = t.clusters, D = s.headDim;
  const int64_t minLanes = t.fetchPacketAlignment / 4;
  const int64_t clusterCopies = s.heads % C ? C : 1;
  const int64_t perCluster = s.heads * clusterCopies / C;
  int64_t bestHeads = 0, bestLanes = 0, bestCopies = 0;
  for (int64_t lanes = minLanes; lanes <= t.trfLanes; lanes *= 2) {
    const int64_t headSlices = D / lanes;
    if (s.hidden * 2 > t.trfBytesPerSlice / lanes || D % lanes || !isPowerOfTwo(headSlices) ||
        headSlices > S)
      continue;
    for (int64_t heads = S / headSlices; heads >= 1; heads /= 2) {
      if (perCluster % heads)
        continue;
      const int64_t copies = S / (heads * headSlices);
      if (heads > bestHeads || (heads == bestHeads && copies < bestCopies)) {
        bestHeads = heads;
        bestLanes = lanes;
        bestCopies = copies;
      }
      break;
    }
  }
  if (!bestHeads)
    return false;
  p.qLanes = bestLanes;
  p.qPasses = perCluster / bestHeads;
  p.qReplicas = bestCopies;
  p.qClusterCopies = clusterCopies;
  return true;
}

// q heads from HBM, counting each copy: the copies' cost (each streams its weights again).
inline int64_t qHeadReads(const ProjectionPlan &p, const Qwen3Shape &s) {
  return (s.heads - p.qTailHeads) * p.qReplicas * p.qClusterCopies +
         p.qTailHeads * p.qTailReplicas * p.qTailClusterCopies;
}

// q's heads as full passes (each cluster's slices filled by whole heads, as 14B's) and a last
// pass of the rest, copied until it fills the cluster: 14B over 2 chips, 10 heads a cluster,
// in 2 passes of 4 and a last of 2 copied twice (q's weights read 1.2 times, not the equal
// copied passes' 2). An odd head count (14B over 8 chips: 5) keeps its last head for the last
// pass, copied onto every cluster (CQ), the others in passes as an even count's, copied when
// fewer than fill a cluster. At the lanes whose row fits, the fewest reads of q's weights.
// Leaves p alone and returns false where none fits.
inline bool planQTail(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t S = t.slicesPerCluster, C = t.clusters, D = s.headDim;
  const int64_t extra = s.heads % C, perCluster = (s.heads - extra) / C;
  if (extra > 1 || !perCluster)
    return false;
  std::optional<ProjectionPlan> best;
  for (int64_t lanes = t.fetchPacketAlignment / 4; lanes <= t.trfLanes; lanes *= 2) {
    const int64_t headSlices = D / lanes;
    if (s.hidden * 2 > t.trfBytesPerSlice / lanes || D % lanes || !isPowerOfTwo(headSlices) ||
        headSlices > S)
      continue;
    const int64_t fill = S / headSlices; // heads that fill a cluster
    ProjectionPlan q = p;
    q.qLanes = lanes;
    if (extra) { // the lone last head on every cluster, the others in passes
      q.qTailHeads = 1;
      q.qTailHeadsPerCluster = 1;
      q.qTailReplicas = fill;
      q.qTailClusterCopies = C;
      const bool fills = perCluster % fill == 0;
      if (!fills && (perCluster > fill || !isPowerOfTwo(perCluster)))
        continue;
      q.qPasses = fills ? perCluster / fill : 1;
      q.qReplicas = fills ? 1 : fill / perCluster;
    } else { // full passes, the rest's heads in the last
      const int64_t rest = perCluster % fill;
      if (perCluster < fill || !rest || !isPowerOfTwo(rest))
        continue;
      q.qPasses = perCluster / fill;
      q.qTailHeads = rest * C;
      q.qTailHeadsPerCluster = rest;
      q.qTailReplicas = fill / rest;
    }
    if (!best || qHeadReads(q, s) < qHeadReads(*best, s))
      best = q;
  }
  if (!best)
    return false;
  p = *best;
  return true;
}

// q's rows in passes when one row per lane over every slice does not fit (more rows than
// lanes, or a row longer than a lane): the fewest equal passes of whole heads on each cluster,
// each filling every slice with a power of two of rows per slice whose rows fit their lane;
// where none does (a shard's few heads), copies of a last pass or of every pass fill it.
inline llvm::Error planQPasses(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t slices = t.totalSlices(), rows = s.qDim(), minLanes = t.fetchPacketAlignment / 4;
  for (int64_t lanes = t.trfLanes; lanes >= minLanes; lanes /= 2) {
    const int64_t perPass = slices * lanes;
    if (s.hidden * 2 > t.trfBytesPerSlice / lanes || rows % perPass)
      continue;
    const int64_t passes = rows / perPass;
    if (s.heads % (passes * t.clusters))
      continue;
    p.qLanes = lanes;
    p.qPasses = passes;
    return llvm::Error::success();
  }
  // Else the fewer reads of q's weights: a copied last pass, or equal copied passes.
  ProjectionPlan tail = p, copied = p;
  const bool tailFits = planQTail(tail, s, t), copiedFits = planQCopiedPasses(copied, s, t);
  if (tailFits && (!copiedFits || qHeadReads(tail, s) <= qHeadReads(copied, s))) {
    p = tail;
    return llvm::Error::success();
  }
  if (copiedFits) {
    p = copied;
    return llvm::Error::success();
  }
  return placementError(kStage,
                        "weight rows fill every slice, one row per TRF lane (q in equal passes "
                        "of whole heads per cluster)",
                        "q's " + num(rows) + " rows of " + num(s.hidden * 2) + " bytes over " +
                            num(slices) + " slices, " + num(minLanes) + " to " +
                            num(t.trfLanes) + " lanes of " + num(t.trfBytesPerSlice) +
                            " bytes per slice, " + num(s.heads) + " q heads over " +
                            num(t.clusters) + " clusters");
}

// Few rows (a shard's): `rows` fewer than the fewest lanes over every slice sit on that lane
// count, `headsPerCluster` heads of D rows a cluster, copied until they cover the cluster (a
// power of two of copies). Returns the copies.
inline llvm::Expected<int64_t> copiesFor(const char *what, int64_t headsPerCluster,
                                         int64_t lanes, const Qwen3Shape &s,
                                         const TargetModel &t) {
  const int64_t S = t.slicesPerCluster, perCluster = headsPerCluster * s.headDim;
  const int64_t used = perCluster / lanes, copies = used ? S / used : 0;
  if (perCluster % lanes || !used || S % used || !isPowerOfTwo(copies))
    return placementError(kStage,
                          "few weight rows fill a cluster's slices in a power of two of copies",
                          llvm::Twine(what) + "'s " + num(perCluster) + " rows per cluster in " +
                              num(lanes) + " rows per slice over " + num(S) + " slices");
  if (s.hidden * 2 > t.trfBytesPerSlice / lanes)
    return placementError(kStage, "a weight row fits its TRF lane",
                          llvm::Twine(what) + ": a row of " + num(s.hidden * 2) +
                              " bytes, a lane of " + num(t.trfBytesPerSlice / lanes));
  return copies;
}

// q's rows: one per lane over every slice (lanesFor), else in passes (planQPasses), else,
// fewer than the fewest lanes over every slice, copied (copiesFor).
inline llvm::Error planQLanes(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t minLanes = t.fetchPacketAlignment / 4;
  // q heads that do not split over the clusters only place as passes copied onto each.
  if (s.heads % t.clusters)
    return planQPasses(p, s, t);
  if (s.qDim() < t.totalSlices() * minLanes) {
    p.qLanes = minLanes;
    llvm::Expected<int64_t> copies = copiesFor("q", s.heads / t.clusters, minLanes, s, t);
    if (!copies)
      return copies.takeError();
    p.qReplicas = *copies;
    return llvm::Error::success();
  }
  llvm::Expected<int64_t> q = lanesFor("q", s.qDim(), s.hidden, t);
  if (q) {
    p.qLanes = *q;
    return llvm::Error::success();
  }
  llvm::consumeError(q.takeError());
  return planQPasses(p, s, t);
}

// k's and v's rows, one per TRF lane. Where they fill every slice, lanesFor's rule. Where they
// are fewer than the fewest lanes (a DMA-sized packet of partial rows) over every slice (a
// tensor-parallel shard's few kv heads), each kv head's rows sit on that fewest lane count
// and are copied (RR) until a cluster's slices are covered: a power of two of copies, so the
// contraction's x^ and k's RoPE tables are on the same slices as k's rows.
inline llvm::Error planKvLanes(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t rows = s.kvDim(), minLanes = t.fetchPacketAlignment / 4;
  if (rows >= t.totalSlices() * minLanes) {
    llvm::Expected<int64_t> kv = lanesFor("k and v", rows, s.hidden, t);
    if (!kv)
      return kv.takeError();
    p.kvLanes = *kv;
    return llvm::Error::success();
  }
  p.kvLanes = minLanes;
  llvm::Expected<int64_t> copies = copiesFor("k and v", p.kvHeadsPerCluster, minLanes, s, t);
  if (!copies)
    return copies.takeError();
  p.kvReplicas = *copies;
  return llvm::Error::success();
}

// q's, k's and v's rows over the slices, the heads' gathers and RoPE.
inline llvm::Error planHeads(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t D = s.headDim, C = t.clusters, S = t.slicesPerCluster;
  // (A lone kv head, a tensor-parallel shard's, is copied onto every cluster: its k sits on
  // q heads' slices of both, for RoPE's tables; its q heads, however many, run in passes each
  // copied onto every cluster, planQCopiedPasses.)
  if (s.kvHeads != 1 && (s.heads % C || s.kvHeads % C))
    return placementError(kStage, "q and kv heads split evenly over the clusters",
                          num(s.heads) + " q heads and " + num(s.kvHeads) + " kv heads over " +
                              num(C) + " clusters");
  p.kvClusterCopies = s.kvHeads % C ? C : 1;
  p.kvHeadsPerCluster = s.kvHeads * p.kvClusterCopies / C;
  if (llvm::Error e = planQLanes(p, s, t))
    return e;
  p.qHeadsPerCluster = (s.heads - p.qTailHeads) * p.qClusterCopies / p.qPasses / C;
  if (llvm::Error e = planKvLanes(p, s, t))
    return e;
  p.qSlices = D / p.qLanes;
  p.kvSlices = D / p.kvLanes;
  // A head's rows gather around the ring of its slices (the Switch Engine: a power of two).
  if (D % p.qLanes || !isPowerOfTwo(p.qSlices) ||
      p.qHeadsPerCluster * p.qReplicas * p.qSlices != S)
    return placementError(kStage, "a q head's slices form a ring",
                          "head_dim " + num(D) + " over " + num(p.qLanes) + " lanes is " +
                              num(D / p.qLanes) + " slices");
  if (D % p.kvLanes || !isPowerOfTwo(p.kvSlices) || p.kvSlices > S)
    return placementError(kStage, "a kv head's slices form a ring",
                          "head_dim " + num(D) + " over " + num(p.kvLanes) + " lanes is " +
                              num(D / p.kvLanes) + " slices");
  // k heads sit on q heads' slices (they share RoPE's tables): kCopies q heads' slices per
  // k head, every q head's slices of a cluster covered.
  p.kCopies = p.kvSlices / p.qSlices;
  if (p.kvSlices % p.qSlices || p.kvHeadsPerCluster * p.kvReplicas * p.kvSlices != S)
    return placementError(kStage, "a k head's ring covers whole q heads' slices (RoPE's tables)",
                          num(p.kvHeadsPerCluster) + " kv heads (" + num(p.kvReplicas) +
                              " copies each) of " + num(p.kvSlices) +
                              " slices, q heads of " + num(p.qSlices) + ", " + num(S) +
                              " slices per cluster");
  // v's rows gather until one slice holds an f32 flit: its bf16 half is the scatter's packet,
  // a multiple of the DMA's 8 bytes.
  p.vGather = p.flitF32 / p.kvLanes;
  if (p.flitF32 % p.kvLanes || !isPowerOfTwo(p.vGather) || (p.flitF32 * 2) % t.dmaAlignment)
    return placementError(kStage, "v's rows gather into f32 flits",
                          num(p.kvLanes) + " rows per slice into flits of " + num(p.flitF32));
  if (D % 2 || D % p.flitF32 || D % p.subF32)
    return placementError(kStage, "a head is whole flits and halves (RoPE)", "head_dim " + num(D));
  return llvm::Error::success();
}

inline llvm::Error planProjection(ProjectionPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  p.flitBf16 = t.flitBytes / 2;
  p.flitF32 = t.flitBytes / 4;
  p.subF32 = t.subFetchAccessBytes / 2;
  p.scalarCells = t.fetchPacketAlignment / 4;
  p.chunkKeys = kvChunkKeys();
  if (llvm::Error e = planX(p, s, t))
    return e;
  return planHeads(p, s, t);
}

} // namespace rngd::placement::qwen3::decode_projection
