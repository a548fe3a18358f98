// The decode `projection` stage's header text (Projection.cpp): where x^, q, k and v go, the
// few heads' copies and q's passes, from the plan (DecodeProjectionPlan.h). Header-only:
// inline functions.
#pragma once

#include "compiler/placement/qwen3/DecodeAttentionPlan.h"
#include "compiler/placement/qwen3/DecodeProjectionPlan.h"

#include <string>

namespace rngd::placement::qwen3::decode_projection {

using tcp::Context;

// v's gather runs on sub (whose configuration then loads while main contracts) when a
// slice's partial rows are one sub-context commit access, else on main.
inline Context vGatherContext(const ProjectionPlan &p, const TargetModel &t) {
  return p.kvLanes * 4 == t.subFetchAccessBytes ? Context::sub : Context::main;
}

inline std::string headCount(int64_t n) { return num(n) + (n == 1 ? " head" : " heads"); }

// The header's paragraph on q's full passes and its copied last pass (planQTail).
inline void describeLastPass(StageBuilder &b, const Qwen3Shape &s, const ProjectionPlan &p) {
  const int64_t mainHeads = s.heads - p.qTailHeads;
  b.describe(wrapParagraph(
      "\nq's " + headCount(s.heads) + " fit no equal passes of whole heads that fill the " +
      "clusters: q runs in " + num(p.qPasses) + " full " + (p.qPasses == 1 ? "pass" : "passes") +
      " of " + headCount(mainHeads / p.qPasses) + " (axis NP, " +
      headCount(p.qHeadsPerCluster) + " per cluster, each on " + num(p.qSlices) + " slices (" +
      num(p.qLanes) + " lanes)" +
      (p.qReplicas > 1 ? ", " + num(p.qReplicas) + " copies of them per cluster, QR" : "") +
      "), then a last pass of " + headCount(p.qTailHeads) + " (axis NL, " +
      headCount(p.qTailHeadsPerCluster) + " per cluster" +
      (p.qTailClusterCopies > 1 ? ", copied onto each cluster, CQ, as k's lone head is" : "") +
      ") with " + num(p.qTailReplicas) +
      " copies of them per cluster (QL), so every pass covers the cluster like x^. Each copy's "
      "weights are DMA'd from HBM: q's weights are read as " +
      headCount(qHeadReads(p, s)) + " for its " + num(s.heads) +
      " (the RoPE tables on every copy's heads, RQ); q_out reads copy 0. Each pass loads its "
      "rows into the TRF, contracts, gathers, normalises, ropes and stores its heads."));
}

// The header's paragraphs on q's and k's and v's copies (a shard's few heads), if any.
inline void describeCopies(StageBuilder &b, const Qwen3Shape &s, const ProjectionPlan &p) {
  const TargetModel &t = b.target();
  if (p.qTailHeads)
    describeLastPass(b, s, p);
  else if (p.qReplicas > 1 && (p.qPasses > 1 || p.qClusterCopies > 1))
    b.describe(wrapParagraph(
        "\nq's " +
        (p.qClusterCopies > 1
             ? headCount(s.heads) + (s.heads == 1 ? " does" : " do") + " not split over the " +
                   num(t.clusters) +
                   " clusters: a pass's heads are copied onto each cluster (CQ, as k's lone "
                   "head is, CK); "
             : headCount(s.heads / t.clusters) + " per cluster fit no equal passes that fill a "
                                                 "cluster: ") +
        "a pass takes " + headCount(p.qHeadsPerCluster) + " per cluster, each on " +
        num(p.qSlices) + " slices (" + num(p.qLanes) + " lanes), and " + num(p.qReplicas) +
        " copies of them cover the cluster like x^ (QR: the pass's weights DMA'd to each copy, "
        "so q's weights are read " +
        num(p.qReplicas * p.qClusterCopies) +
        " times from HBM; the RoPE tables on every copy's heads, RQ); q_out reads copy 0."));
  else if (p.qReplicas > 1)
    b.describe(wrapParagraph(
        "\nq's " + num(s.qDim()) + " rows are fewer than " + num(p.qLanes) +
        " per slice over all " + num(t.totalSlices()) + " slices: each q head's rows sit on " +
        num(p.qSlices) + " slices, " + num(p.qReplicas) +
        " copies of them per cluster (QR: the weights DMA'd to each; the RoPE tables on " +
        "every copy's heads, RQ), so they cover the cluster like x^; q_out reads copy 0."));
  if (p.kvReplicas > 1)
    b.describe(wrapParagraph(
        "\nk's and v's " + num(s.kvDim()) + " rows are fewer than " + num(p.kvLanes) +
        " per slice over all " + num(t.totalSlices()) + " slices: each kv head's rows sit on " +
        num(p.kvSlices) + " slices, " + num(p.kvReplicas) +
        " copies of them per cluster (RR: the weights DMA'd to each)" +
        (p.kvClusterCopies > 1 ? ", the lone kv head on each of the " + num(t.clusters) +
                                     " clusters (CK)"
                               : std::string()) +
        ", so they cover the cluster like x^ and the RoPE tables; the gathers run within each "
        "copy and the scatters into the caches read copy 0."));
}

inline void describe(StageBuilder &b, const Qwen3Shape &s, const ProjectionPlan &p) {
  const TargetModel &t = b.target();
  auto heads = [](int64_t perCluster) { return "0.." + num(perCluster - 1); };
  const std::string weightParts =
      p.xWeightParts == 1 ? ""
                          : " The norm weight goes to the VRF in " + num(p.xWeightParts) +
                                " parts of H (XP x XI; f32 H would not fit), each part of x "
                                "multiplied by it in turn and the products joined (tcp.dm_join).";
  const std::string perSlice =
      p.xFlitsPerSlice == 1
          ? "one flit of x^ per slice"
          : num(p.xFlitsPerSlice) + " flits of x^ per slice, every " + num(p.xRing) + "th";
  b.describe(wrapParagraph(
      "`projection` stage: x^ = RMSNorm(x); q, k, v = x^ W^T; per-head RMSNorm of q and k; RoPE "
      "on q and k (out = x cos + swap(x) sin, the host's sin has its first half negated); the "
      "new k and v rows scattered into the caches at byte offset kv_offset; q written to "
      "q_out."));
  b.describe(wrapParagraph(
      "\nRMSNorm of x runs on one slice of cluster 0 (x and its norm weight come from HBM once; "
      "the mean over H divides by " +
      num(s.hidden) + ", eps from the config)." + weightParts + " x^ is then spread over the " +
      num(p.xRings) + " " + num(p.xRing) + "-slice rings of each cluster (replica axes CX, RX; " +
      perSlice +
      ", in the order of H) "
      "and reaches every slice through the Switch Engine's broadcast (fresh axis XR) as each "
      "contraction streams it, two flits a packet. Projections run one row per TRF lane, so "
      "the weights stream into both clusters' DM and each slice's TRF load is short; the "
      "weights go to the TRF on main in " +
      num(t.flitBytes) +
      "-byte packets. q, k and v use "
      "all " +
      num(t.slicesPerCluster) + " slices of each cluster (q: " + num(p.qLanes) + " lanes, heads " +
      heads(p.qHeadsPerCluster) + " in cluster 0; k and v: " + num(p.kvLanes) +
      " lanes, kv heads " + heads(p.kvHeadsPerCluster) + " in cluster 0)."));
  describeCopies(b, s, p);
  if (p.qPasses > 1 && !p.qTailHeads)
    b.describe(wrapParagraph(
        "\nq runs in " + num(p.qPasses) + " passes of " + headCount(s.heads / p.qPasses) +
        " (axis NP; pass j's heads are j x " + num(s.heads / p.qPasses) +
        " onwards, " + num(p.qHeadsPerCluster) +
        " per cluster): " +
        (p.qReplicas > 1
             ? std::string("its heads copied as above")
             : "one row per lane over every slice does not fit (" +
                   num(s.qDim() / t.totalSlices()) + " rows per slice, or a " +
                   num(s.hidden * 2) + "-byte row in a lane of " +
                   num(t.trfBytesPerSlice / t.trfLanes) + " bytes)") +
        ". Each pass loads its rows into the TRF, contracts, gathers, normalises, "
        "ropes and stores its heads."));
  b.describe(wrapParagraph(
      "\nEach q and k head is then gathered by the Switch Engine, no DMA: the partial rows of the "
      "head's slices are broadcast around the ring of those slices (" +
      num(p.qSlices) + " for a q head, fresh axis XQ; " + num(p.kvSlices) +
      " for a k head, XK) and committed "
      "on one slice per q head and " +
      num(p.kCopies) + " per k head (RK, one per q head" +
      (p.kCopies == s.groups() ? " of its group" : " slices of its ring") +
      "), so the k heads sit on the q heads' slices (slice " +
      num(p.qSlices) +
      " x head) and share their cos and sin tables (replicated on every q head's slices of "
      "both clusters: CT, RQ). v's slices are gathered the same way, " +
      num(p.vGather) + " onto one (XV: one f32 flit), on " +
      (vGatherContext(p, t) == Context::sub ? "sub (whose configuration then loads while main "
                                              "contracts)"
                                            : "main") +
      ", and cast to bf16 there: the scatter into the cache moves packets of a "
      "multiple of " +
      num(t.dmaAlignment) + " bytes, " + num(p.flitF32 * 2) + " bytes of bf16 per slice, " +
      num(p.kvHeadsPerCluster * s.headDim / p.flitF32) +
      " packets per cluster, one scatter descriptor per cluster."));
  b.describe(wrapParagraph(
      "\nPer-head RMSNorm divides by sqrt(sum / " + num(s.headDim) +
      " + eps); RoPE reads "
      "swap(x) from x stored twice in the VRF (TW) at + " +
      num(s.headDim / 2) +
      ". k's "
      "scalar pass runs on sub: main is the busy context once k lands (its TRF load, v's). "
      "Rounding points: x^, the normalised q/k, the RoPE results and v are bf16."));
}

} // namespace rngd::placement::qwen3::decode_projection
