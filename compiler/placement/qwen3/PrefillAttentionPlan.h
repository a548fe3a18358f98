// prefill_attention's (and prefill_attention_partial's) plan: every number of the placement of
// a block of T queries against one earlier 512-key chunk, derived from the shape, the target
// and T, each rule checked. PrefillAttention.cpp builds the types, the ops and the header.
// Header-only: inline functions, in their own namespace (prefill_attention_first's plan,
// PrefillAttentionFirstPlan.h, has its own AttentionPlan).
#pragma once

#include "compiler/placement/qwen3/PrefillAttentionPartial.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace rngd::placement::qwen3::chunk_fold {

// The numbers of the placement, each from the shape, the target and T (see planAttention).
struct AttentionPlan {
  int64_t kvClusters;   // clusters holding kv heads: all, or the first for a lone kv head
  int64_t kvPerCluster; // kv heads on one cluster
  int64_t ring;         // slices of one kv head: the ring the keys and V are broadcast around
  int64_t idle;         // a cluster's slices over its kv heads' rings (after each ring, idle)
  int64_t lanes;        // TRF lanes: queries of one slice side by side
  int64_t flitBf16;     // bf16 values in a flit
  int64_t flitF32;      // f32 values in a flit
  int64_t trRows;       // rows a transpose turns into one bf16 column
  int64_t tq;           // queries per slice: lanes x the contraction's two time-broadcast rows
  int64_t keys;         // keys in a chunk of the cache
  int64_t keysPerSlice; // whole key rows on one slice as they arrive
  int64_t si;           // keys of one key tile (SI); SB tiles make the chunk
  int64_t sb;
  int64_t tt, tb; // the block: TB query tiles of TT slices of TQ queries
  int64_t vSplit; // V's d split over the ring's slices (D / 64 for D = 128)
  int64_t heads;  // q heads of a kv head a pass (of the model's groups())
  int64_t gSlots; // the slices of a query tile's heads (heads, padded so that tiles tile the ring)
  int64_t passes; // passes one after another, each against the same keys and V in DM
  std::vector<int64_t> split; // each pass's heads (equal, or the rest in fewer)
  bool partial = false;        // prefill_attention_partial: the key mask added to the scores
  KeyMaskPlan km;              // its layouts (partial only)
};

// The name of a pass of `G` heads' axis: `G` in one pass, `GP` for the first pass's count, one
// of `GQ`, `GR`, ... for each other count.
inline std::string passAxis(const AttentionPlan &p, int64_t G) {
  if (p.passes == 1)
    return "G";
  std::vector<int64_t> sizes; // the counts, in pass order
  for (int64_t h : p.split)
    if (std::find(sizes.begin(), sizes.end(), h) == sizes.end())
      sizes.push_back(h);
  return std::string("G") + char('P' + (std::find(sizes.begin(), sizes.end(), G) - sizes.begin()));
}

// The kv heads over the clusters and each head's ring of slices (planPass). A key row arrives
// whole on a slice; the Switch Engine's inter_transpose then swaps the ring's innermost factor
// (keysPerSlice rows) with d's flits, so a slice holds D / 16 rows and a kv head's ring is
// keys / (D / 16) slices (64 for D = 128), whatever the kv heads. A tensor-parallel shard's
// few kv heads leave the rest of each cluster idle (a `1 # idle` factor after each ring); a
// lone kv head sits on cluster 0, the other clusters idle.
inline llvm::Error planRings(const Qwen3Shape &s, const TargetModel &t, AttentionPlan &p,
                             const char *stage) {
  const int64_t N = s.kvHeads, D = s.headDim, S = t.slicesPerCluster;
  if (N % t.clusters && N != 1)
    return placementError(stage, "kv heads split evenly over the clusters (or one kv head)",
                          decimal(N) + " kv heads over " + decimal(t.clusters) + " clusters");
  p.kvClusters = N % t.clusters ? 1 : t.clusters;
  p.kvPerCluster = N / p.kvClusters;
  const int64_t dFlits = D / p.flitBf16;
  // The ring's slices are [SB, SI / rows] before the transpose and [SB, D / 16] after it.
  if (D % p.flitBf16 || p.keys % (dFlits * dFlits))
    return placementError(stage,
                          "a chunk's keys are whole tiles of a key row's flits x as many rows "
                          "(inter_transpose)",
                          "head_dim " + decimal(D) + " is " + decimal(dFlits) +
                              " flits, a chunk of " + decimal(p.keys) + " keys in tiles of " +
                              decimal(dFlits) + " x " + decimal(dFlits));
  p.ring = p.keys / dFlits;
  p.keysPerSlice = dFlits;
  const int64_t rings = p.kvPerCluster * p.ring;
  if (rings > S || S % rings)
    return placementError(stage, "a cluster's slices hold its kv heads' rings evenly",
                          decimal(p.kvPerCluster) + " kv heads x a ring of " + decimal(p.ring) +
                              " slices (" + decimal(p.keys) + " keys in rows of " +
                              decimal(dFlits) + ", head_dim " + decimal(D) + ") on " +
                              decimal(S) + " slices");
  p.idle = S / rings;
  return llvm::Error::success();
}

// The plan of a pass of `G` q heads of each kv head (all of them: one pass).
inline llvm::Expected<AttentionPlan> planPass(const Qwen3Shape &s, const TargetModel &t,
                                              int64_t T, int64_t G, const char *kStage) {
  AttentionPlan p;
  const int64_t D = s.headDim;
  auto num = [](int64_t n) { return decimal(n); };
  p.heads = G, p.passes = s.groups() / G;
  p.lanes = t.trfLanes;
  p.flitBf16 = t.flitBytes / 2;
  p.flitF32 = t.flitBytes / 4;
  p.trRows = t.transposeColumnBytes / 2;
  p.tq = p.lanes * kTimeBroadcastRows;
  p.keys = kvChunkKeys();
  if (llvm::Error e = planRings(s, t, p, kStage))
    return std::move(e);
  const int64_t dFlits = D / p.flitBf16;
  p.si = p.keysPerSlice * dFlits;
  p.sb = p.keys / p.si;
  if (T % p.tq)
    return placementError(kStage, "the block fills whole query slices",
                          "T = " + num(T) + " is not a multiple of " + num(p.tq));
  p.tt = std::min(T, p.si) / p.tq;
  p.tb = (T + p.si - 1) / p.si;
  if (T > p.si && T % p.si)
    return placementError(kStage, "the block is whole query tiles",
                          "T = " + num(T) + " over tiles of " + num(p.si));
  const int64_t used = p.tb * G * p.tt;
  if (used > p.ring)
    return placementError(kStage, "a kv head's queries fit its ring's TRF slots",
                          num(G) + " q heads x " + num(T) + " queries in " + num(p.tq) +
                              " per slice need " + num(used) + " slices, the ring has " +
                              num(p.ring) +
                              (p.passes > 1 ? " (" + num(s.groups()) + " q heads in passes of " +
                                                  num(G) + ")"
                                            : std::string()));
  // A smaller block leaves the ring's last query tiles padding: whole tiles of gSlots x TT
  // slices, gSlots the fewest slots from G (G # gSlots) whose tiles tile the ring.
  auto tiles = [&](int64_t slots) {
    return p.ring % (slots * p.tt) == 0 && p.tb * slots * p.tt <= p.ring;
  };
  for (p.gSlots = G; p.gSlots * p.tt <= p.ring && !tiles(p.gSlots);)
    ++p.gSlots;
  if (p.gSlots * p.tt > p.ring)
    return placementError(kStage, "a kv head's query tiles (G x TT slices, padded) tile its ring",
                          num(G) + " q heads x " + num(p.tt) + " slices per tile, " + num(p.tb) +
                              " tiles, over a ring of " + num(p.ring));
  const int64_t vRows = p.sb * (p.si / p.flitBf16); // V's 16-key pieces of a chunk
  if (p.si % p.flitBf16 || p.ring % vRows || D % (p.ring / vRows) ||
      (D / (p.ring / vRows)) % p.flitBf16)
    return placementError(kStage, "V's 16-key pieces tile the ring, d split over the rest",
                          num(vRows) + " pieces, a ring of " + num(p.ring) + ", head_dim " +
                              num(D));
  p.vSplit = p.ring / vRows;
  if (D * p.tq * 4 > t.vrfBytesPerSlice)
    return placementError(kStage, "o alpha of a slice's queries fits the VRF",
                          num(D) + " x " + num(p.tq) + " f32 is " + num(D * p.tq * 4) +
                              " bytes, the VRF holds " + num(t.vrfBytesPerSlice));
  if (p.tq / p.lanes > t.vectorReduceSlots)
    return placementError(kStage, "a row's max fits the reducer's slots",
                          num(p.tq / p.lanes) + " rows per lane");
  return p;
}

// All q heads of a kv head in one pass when they place, else passes of the most heads that
// place, the rest likewise (5 heads: 4 + 1, or 2 + 2 + 1); a shape none places is refused with
// the one-head pass's rule. The first pass's plan, with every pass's heads in `split`.
inline llvm::Expected<AttentionPlan> planAttention(const Qwen3Shape &s, const TargetModel &t,
                                                   int64_t T, const char *stage) {
  std::vector<int64_t> split;
  std::optional<AttentionPlan> first;
  for (int64_t rest = s.groups(); rest > 0;) {
    int64_t heads = rest;
    llvm::Expected<AttentionPlan> p = planPass(s, t, T, heads, stage);
    while (!p && heads > 1) {
      llvm::consumeError(p.takeError());
      p = planPass(s, t, T, --heads, stage);
    }
    if (!p)
      return p.takeError();
    if (!first)
      first = *p;
    split.push_back(heads);
    rest -= heads;
  }
  first->split = split;
  first->passes = int64_t(split.size());
  return *first;
}

// Pass `c`'s plan (its heads).
inline AttentionPlan passPlan(const AttentionPlan &p, int64_t c) {
  AttentionPlan q = p;
  q.heads = p.split[size_t(c)];
  return q;
}

// A kv head's slices on its cluster: its place among the cluster's heads (only with several:
// a lone head's `N % 1` would cover N twice), the idle slices after each ring (`1 # idle`,
// only when the rings leave some), then `inner`.
inline Expr headSlices(const AttentionPlan &p, const Expr &n, const std::vector<Expr> &inner) {
  std::vector<Expr> items;
  if (p.kvPerCluster > 1)
    items.push_back(n % p.kvPerCluster);
  if (p.idle > 1)
    items.push_back(Expr::one().pad(p.idle));
  items.insert(items.end(), inner.begin(), inner.end());
  return Expr::pair(items);
}

// A kv head's cluster: N over the clusters (N itself with one a cluster), or the first for a
// lone kv head (`1 # clusters`).
inline Expr headCluster(const AttentionPlan &p, const Expr &n, const TargetModel &t) {
  if (p.kvClusters < t.clusters)
    return Expr::one().pad(t.clusters);
  return p.kvPerCluster > 1 ? n / p.kvPerCluster : n;
}

} // namespace rngd::placement::qwen3::chunk_fold
