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
  bool lone; // a lone kv head (a tensor-parallel shard's): on the first cluster, the rest idle
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
  // The q heads in passes: G above is a pass's query slots of a kv head (G x TT slices a
  // tile), `passes` passes of the GA heads a kv head has one after the other, each against the
  // same masks, keys and V in DM. Pass i runs heads[i] of them (a divisor of G), each on
  // G / heads[i] copies of its slices (like RQ's); H and RH: the pass being built.
  int64_t GA = 0, passes = 1;
  std::vector<int64_t> heads;
  int64_t H = 0, RH = 1;
};

/// The plan of pass `i` (its heads H and their copies RH).
inline AttentionPlan passPlan(const AttentionPlan &p, int64_t i) {
  AttentionPlan q = p;
  q.H = p.heads[size_t(i)], q.RH = p.G / q.H;
  return q;
}

/// Pass `i`'s axes: its heads' (`G` in one pass, else `GP` for G heads, one of `GQ`, `GR`, ...
/// for each smaller count) and its copies' (`RH`, `RI`, ...).
inline std::pair<std::string, std::string> passAxes(const AttentionPlan &p, int64_t H) {
  if (p.passes == 1)
    return {"G", "RH"};
  if (H == p.G)
    return {"GP", ""};
  std::vector<int64_t> sizes; // the smaller counts, in pass order
  for (int64_t h : p.heads)
    if (h < p.G && std::find(sizes.begin(), sizes.end(), h) == sizes.end())
      sizes.push_back(h);
  const char k = char(std::find(sizes.begin(), sizes.end(), H) - sizes.begin());
  return {std::string("G") + char('Q' + k), std::string("R") + char('H' + k)};
}

inline llvm::Error checkAttention(const AttentionPlan &p, const TargetModel &t) {
  auto refuse = [&](llvm::StringRef rule, const llvm::Twine &detail) {
    if (p.passes > 1) // say which split of the heads was tried last
      return placementError(kAttentionStage, rule,
                            detail + " (" + num(p.GA) + " q heads in passes of " + num(p.G) + ")");
    return placementError(kAttentionStage, rule, detail);
  };
  if (p.N % p.C != 0 && !p.lone)
    return refuse("kv heads split evenly over the clusters (or one kv head)",
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

/// The plan of passes of `slots` q heads of each kv head a tile (all of them: one pass).
inline llvm::Expected<AttentionPlan> planPass(const Qwen3Shape &s, const TargetModel &t,
                                              int64_t tokens, int64_t slots) {
  AttentionPlan p;
  p.GA = s.groups();
  // The heads: passes of `slots`, the rest in the largest divisors of `slots` (copied).
  for (int64_t rest = p.GA, h = slots; slots > 0 && rest > 0; rest -= h) {
    for (h = std::min(slots, rest); slots % h != 0;)
      --h;
    p.heads.push_back(h);
  }
  p.passes = int64_t(p.heads.size());
  p.N = s.kvHeads, p.G = slots, p.D = s.headDim, p.C = t.clusters;
  p.lone = p.N == 1 && p.C > 1, p.NC = p.lone ? 1 : p.N / p.C;
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

/// The fewest passes, then the fewest slots (copies), of the slot counts that place: all q
/// heads of a kv head in one pass when they do. Fewer slots have longer key tiles (G x tile /
/// 16 = D / 16 slices); more than the heads (copies, up to tiles of 16 keys) shorter ones.
/// A shape none places is refused with the one-slot rule.
inline llvm::Expected<AttentionPlan> planAttention(const Qwen3Shape &s, const TargetModel &t,
                                                   int64_t tokens) {
  std::optional<AttentionPlan> best;
  const int64_t most = std::max(s.groups(), s.headDim / (t.flitBytes / 2));
  for (int64_t slots = most; slots >= 1; --slots) {
    llvm::Expected<AttentionPlan> p = planPass(s, t, tokens, slots);
    if (!p) {
      llvm::consumeError(p.takeError());
      continue;
    }
    auto cost = [](const AttentionPlan &x) { return std::make_pair(x.passes, x.passes * x.G); };
    if (!best || cost(*p) < cost(*best))
      best = *p;
  }
  if (best)
    return *best;
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

/// `pass`: a pass's part of each (its H heads of the GA, views of the arguments).
inline AttentionLayouts attentionLayouts(const AttentionPlan &p, bool pass = false) {
  auto d = [&](int64_t lo, int64_t hi) { return digits("D", p.D, lo, hi); };
  Term g = whole("G", p.GA);
  if (pass)
    g = (p.H > 1 ? Expr::axis(passAxes(p, p.H).first) : Expr::one()).pad(p.GA);
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
  int64_t heads = 0; // the heads before pass c, of each kv head
  for (int64_t i = 0; i < c; ++i)
    heads += p.heads[size_t(i)];
  return {heads * p.tok.perCluster * p.D, heads * p.T, heads * p.T * p.D};
}

} // namespace rngd::placement::qwen3
