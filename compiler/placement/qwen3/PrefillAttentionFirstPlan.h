// prefill_attention_first's plan: every number of its placement derived from the shape, the target
// and the block size T, each rule checked, and its HBM layouts. PrefillAttentionFirst.cpp builds the
// ops and the header. Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/PrefillTerms.h"

namespace rngd::placement::qwen3 {

inline constexpr const char *kAttentionStage = "prefill_attention_first";

struct AttentionPlan {
  // The model and the machine.
  int64_t N, G, D, C, NC, S, lanes, vb, sub, tr; // NC: kv heads a cluster; vb: bf16 a flit
  // The queries: TQ a slice (the lanes x two time-broadcast rows). A tile's keys lie on
  // keySlices slices (16 values of d each), as do its queries (G heads x TT blocks, x RQ
  // copies when the block is shorter than a tile).
  int64_t TQ, keySlices, tile;
  PrefillTokens tok;
  int64_t T, tileT, TB, TT, RQ, SB, SI, ring;
  int64_t rowKeys; // keys a slice as whole rows, before the inter_transpose
  int64_t vd;      // V: 16 keys x vd values of d a slice
  bool hasMain;    // more than one tile: the main contraction over the earlier tiles
  double scale;    // sqrt(D)
  // The q heads in passes: G above is a pass's heads (of the GA a kv head has), `passes` of
  // them one after the other, each against the same keys and V in DM.
  int64_t GA = 0, passes = 1;
};

inline llvm::Error checkAttention(const AttentionPlan &p, const TargetModel &t) {
  auto refuse = [&](llvm::StringRef rule, const llvm::Twine &detail) {
    if (p.passes > 1) // say which split of the heads was tried last
      return placementError(kAttentionStage, rule,
                            detail + " (" + num(p.GA) + " q heads in passes of " + num(p.G) + ")");
    return placementError(kAttentionStage, rule, detail);
  };
  if (p.N % p.C != 0)
    return refuse("kv heads split evenly over the clusters",
                  num(p.N) + " kv heads over " + num(p.C) + " clusters");
  if (p.D % p.vb != 0 || (p.TQ * p.keySlices) % p.G != 0 || p.tile % p.TQ != 0)
    return refuse("a tile's keys (16 values of d a slice) on the slices of its queries",
                  "D = " + num(p.D) + " is " + num(p.keySlices) + " slices of keys, which " +
                      num(p.G) + " q heads x blocks of " + num(p.TQ) + " queries do not fill");
  if (p.T % p.TQ != 0 || p.T % p.tileT != 0)
    return refuse("whole blocks of queries and tiles", "T = " + num(p.T) + " against blocks of " +
                                                           num(p.TQ) + " and tiles of " +
                                                           num(p.tile));
  if (p.NC * p.ring > p.S || p.S % (p.NC * p.ring) != 0)
    return refuse("each kv head's queries on one ring of a cluster",
                  num(p.NC) + " kv heads x " + num(p.ring) + " slices (T = " + num(p.T) +
                      ", G = " + num(p.G) + ") against " + num(p.S));
  if (p.D % p.vd != 0 || p.SI % p.vb != 0 || (p.D / p.vd) * (p.SI / p.vb) != p.keySlices)
    return refuse("V: 16 keys x SI values of d a slice on a tile's slices",
                  "D = " + num(p.D) + ", a tile of " + num(p.SI) + " keys");
  // The main P . V streams d's blocks D / vd inside the key tiles: the time reducer keeps
  // their sums (x the two query rows) while it adds the tiles, in 32-value packets.
  const int64_t slots = (p.D / p.vd) * (p.TQ / p.lanes), cells = slots * 2 * p.vb;
  if (p.hasMain && cells > t.timeReducerCells)
    return refuse("o's main contraction: d's blocks inside the key tiles in the time reducer",
                  "tiles of " + num(p.SI) + " keys put V on " + num(p.vd) +
                      " values of d a slice: " + num(slots) + " slots x " + num(2 * p.vb) +
                      " values, over the " + num(t.timeReducerCells) + " cells (T = " + num(p.T) +
                      ", G = " + num(p.G) + ")");
  // Both masks sit in the VRF while the scores are made (f32: a query's tile_mask row, SB
  // values, and diag_mask's tile of SI keys).
  const int64_t masks = ((p.hasMain ? p.SB : 0) + p.SI) * p.TQ * 4;
  if (masks > t.vrfBytesPerSlice)
    return refuse("the masks (tile_mask's and diag_mask's rows of a slice's queries) in the VRF",
                  num(masks) + " bytes (tiles of " + num(p.SI) + " keys), over " +
                      num(t.vrfBytesPerSlice));
  if (p.D * p.TQ * 4 > t.vrfBytesPerSlice)
    return refuse("o's f32 part (D x a slice's queries) in the VRF",
                  num(p.D * p.TQ * 4) + " bytes, over " + num(t.vrfBytesPerSlice));
  return llvm::Error::success();
}

/// The plan of a pass of `heads` q heads of each kv head (all of them: one pass).
inline llvm::Expected<AttentionPlan> planPass(const Qwen3Shape &s, const TargetModel &t,
                                              int64_t tokens, int64_t heads) {
  AttentionPlan p;
  p.GA = s.groups(), p.passes = heads > 0 ? p.GA / heads : 0;
  p.N = s.kvHeads, p.G = heads, p.D = s.headDim, p.C = t.clusters, p.NC = p.N / p.C;
  p.S = t.slicesPerCluster, p.lanes = t.trfLanes, p.vb = t.flitBytes / 2;
  p.sub = t.subFetchAccessBytes / 4, p.tr = t.transposeColumnBytes / 2;
  p.TQ = 2 * p.lanes, p.keySlices = p.D / p.vb;
  // A tile's G x tile / TQ query slices are its keySlices key slices.
  p.tile = p.G > 0 ? p.TQ * p.keySlices / p.G : 0;
  p.tok = prefillTokens(tokens, t);
  p.T = tokens, p.tileT = std::min(p.tile, p.T);
  p.TB = p.tileT > 0 ? p.T / p.tileT : 0, p.TT = p.tileT / p.TQ;
  p.RQ = p.tileT > 0 ? p.tile / p.tileT : 0;
  p.SB = p.TB, p.SI = p.tileT, p.ring = p.TB * p.keySlices;
  p.rowKeys = p.keySlices > 0 ? p.SI / p.keySlices : 0;
  p.vd = p.SI; // (D / vd) x (SI / 16) V slices fill a tile's keySlices = D / 16
  p.hasMain = p.TB > 1;
  p.scale = std::sqrt(double(p.D));
  if (llvm::Error e = checkAttention(p, t))
    return e;
  return p;
}

/// All q heads of a kv head in one pass when they place, else the fewest passes of equal
/// heads that do (a pass of fewer heads has longer key tiles: G x tile / 16 = D / 16 slices);
/// a shape none places is refused with the one-head pass's rule.
inline llvm::Expected<AttentionPlan> planAttention(const Qwen3Shape &s, const TargetModel &t,
                                                   int64_t tokens) {
  const int64_t G = s.groups();
  for (int64_t heads = G; heads > 1; --heads) {
    if (G % heads != 0)
      continue;
    llvm::Expected<AttentionPlan> p = planPass(s, t, tokens, heads);
    if (p)
      return p;
    llvm::consumeError(p.takeError());
  }
  return planPass(s, t, tokens, 1);
}

/// Token digits [lo, hi) of T = [TB, TT, TQ] as terms over those axes.
inline std::vector<Term> attentionTokens(const AttentionPlan &p, int64_t lo, int64_t hi) {
  std::vector<Term> out;
  const std::vector<std::tuple<const char *, int64_t, int64_t>> axes = {
      {"TB", p.TB, p.tileT}, {"TT", p.TT, p.TQ}, {"TQ", p.TQ, 1}};
  for (const auto &[name, size, unit] : axes) {
    int64_t a = std::max(lo, unit), z = std::min(hi, unit * size);
    if (a < z)
      out.push_back(digits(name, size, a / unit, z / unit));
  }
  return out;
}

/// The attention's HBM arguments (q: the projection's q_out over [TB, TT, TQ]).
struct AttentionLayouts {
  Expr q, kv, tileMask, diagMask, state, outState, attn;
};

/// `pass`: a pass's part of each (its heads, GP of the G, views of the arguments).
inline AttentionLayouts attentionLayouts(const AttentionPlan &p, bool pass = false) {
  auto d = [&](int64_t lo, int64_t hi) { return digits("D", p.D, lo, hi); };
  Term g = whole("G", p.GA);
  if (pass)
    g = (p.G > 1 ? Expr::axis("GP") : Expr::one()).pad(p.GA);
  Term n = whole("N", p.N), tb = whole("TB", p.TB), tt = whole("TT", p.TT);
  Term tq = whole("TQ", p.TQ), sb = whole("SB", p.SB), si = whole("SI", p.SI);
  const int64_t tc = p.tok.perCluster, run = p.tok.queryRun, half = p.D / 2;
  std::vector<Term> q = attentionTokens(p, tc, p.T);
  q.insert(q.end(), {n, g});
  for (const Term &x : attentionTokens(p, run, tc))
    q.push_back(x);
  q.push_back(d(p.lanes, p.D));
  for (const Term &x : attentionTokens(p, 1, run))
    q.push_back(x);
  q.push_back(d(1, p.lanes));
  // out_in's d in two halves whatever the tile (prefill_attention writes it so).
  return {cat(q),
          cat({sb, si, n, whole("D", p.D)}),
          cat({tb, sb, tq}),
          cat({tt, si, tq}),
          cat({n, g, tb, tt, tq}),
          cat({n, g, tb, tt, d(1, half), d(half, p.D), tq}),
          cat({n, g, d(p.vb, p.D), tb, tt, tq, d(1, p.vb)})};
}

/// Where pass `c`'s heads start in each argument (elements): its q, state, out_in and attn.
struct PassOffsets {
  int64_t q, state, out;
};

inline PassOffsets passOffsets(const AttentionPlan &p, int64_t c) {
  const int64_t heads = c * p.G; // the heads before pass c, of each kv head
  return {heads * p.tok.perCluster * p.D, heads * p.T, heads * p.T * p.D};
}

} // namespace rngd::placement::qwen3
