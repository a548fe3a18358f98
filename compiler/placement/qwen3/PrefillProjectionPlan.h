// prefill_projection's plan: every number of its placement derived from the shape, the target and
// the block size T, each rule checked, and its HBM layouts. PrefillProjection.cpp builds the ops and
// the header. Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/PrefillTerms.h"

namespace rngd::placement::qwen3 {

inline constexpr const char *kProjectionStage = "prefill_projection";

/// What differs between the stages this placement builds: prefill_projection (q_out in the
/// attention's tiles, k and v into a KV chunk's caches) and batch_projection (q_out row-major
/// [T, Q], each token's q a contiguous [N, G, D] row; k and v to the staging rows k_rows,
/// v_rows). The arithmetic is the same.
struct ProjectionOptions {
  std::string stage = kProjectionStage; // the stage named in placement errors
  bool rowMajorQ = false;               // batch_projection's outputs
};

struct ProjectionPlan {
  ProjectionOptions opt;
  // The model.
  int64_t H, D, F, O, Q, N, qHeads, heads; // F = D / 2; O = q, k and v rows; heads = O / D
  double eps;
  // The machine.
  int64_t C, S, lanes, vb, vf, sub; // vb / vf: bf16 / f32 per flit; sub: f32 per sub access
  int64_t tr, trRow;                // the transpose: tokens per column, values per row
  // The GEMM: every slice holds rowsPerLane rows in each lane; a head on slicesPerHead slices.
  int64_t rowsPerLane, rowsPerSlice, slicesPerHead;
  int64_t halves, HL, hSlices, rowsMax; // x^ in halves of h, each on hSlices x rowsMax slices
  // The tokens.
  PrefillTokens tok;
  int64_t T, TC, A, K;      // K = TC / A
  int64_t tps, rowsX, repX; // x: tokens per slice, rows of slices, copies of x
  int64_t tpp, xPasses;     // x's sums of squares: tpp tokens a pass (the reducer's slots)
  int64_t CT, chunks, U;    // the halves' sums: CT tokens a chunk (U of each A-block)
  int64_t V, sumPasses;     // head norms: V slots of tr tokens a pass
  int64_t trfBytes = 0;     // the TRF's bytes a slice
  int64_t headSlots = 0;    // a cluster's heads at once: S / slicesPerHead
  int64_t headPasses = 1;   // passes of the heads, each at most headSlots of them (headPasses())
  bool qThenKv = false;     // two passes: q's heads, then k's and v's
  // The heads split over the clusters for the GEMM (PrefillProjectionSplit.h): x^ on every
  // cluster, tpsS tokens a slice on rowsXS rows of slices, repXS copies.
  bool split = false;
  int64_t tpsS = 0, rowsXS = 0, repXS = 0;
};

/// A pass of the projection's heads: heads [first, first + count) of O's heads, placed as one
/// pass (a head on slicesPerHead slices from slice 0); q's heads [qFirst, qFirst + qCount) from
/// slice 0, k's heads from slice kAt, v's from vAt (-1: none).
struct HeadPass {
  int64_t first, count;
  int64_t qFirst, qCount;
  int64_t kAt, vAt;
  std::string suffix; // the pass's axes' names: "" for one pass
};

/// The passes' head ranges: from head 0, each as many heads as a cluster holds, cut before k's
/// or v's heads where a pass would split them (k's and v's heads each go to the cache from one
/// pass's slices). An empty list: a pass that holds no head (N over a cluster's heads).
inline std::vector<std::pair<int64_t, int64_t>> headRanges(const ProjectionPlan &p) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (int64_t first = 0; first < p.heads;) {
    int64_t end = std::min(first + p.headSlots, p.heads);
    for (int64_t group : {p.qHeads, p.qHeads + p.N})
      if (group < end && end < group + p.N) {
        if (group <= first)
          return {};
        end = group;
      }
    ranges.push_back({first, end - first});
    first = end;
  }
  return ranges;
}

inline std::vector<HeadPass> headPasses(const ProjectionPlan &p) {
  const int64_t sph = p.slicesPerHead;
  const std::vector<std::pair<int64_t, int64_t>> ranges = headRanges(p);
  std::vector<HeadPass> passes;
  for (size_t i = 0; i < ranges.size(); ++i) {
    auto [first, count] = ranges[i];
    const int64_t end = first + count, qEnd = std::min(end, p.qHeads);
    auto at = [&](int64_t group) {
      return group >= first && group < end ? (group - first) * sph : -1;
    };
    passes.push_back({first, count, first, std::max<int64_t>(0, qEnd - first), at(p.qHeads),
                      at(p.qHeads + p.N), ranges.size() == 1 ? "" : std::string(1, char('A' + i))});
  }
  return passes;
}

inline llvm::Error checkProjectionWeights(const ProjectionPlan &p, const TargetModel &t) {
  auto refuse = [&p](llvm::StringRef rule, const llvm::Twine &detail) {
    return placementError(p.opt.stage, rule, detail);
  };
  if (p.D % (2 * p.lanes) != 0)
    return refuse("rows d and d + D/2 of a head on one slice and lane",
                  "head_dim " + num(p.D) + " is not a multiple of 2 x " + num(p.lanes) + " lanes");
  if (p.S % p.slicesPerHead != 0)
    return refuse("a head's slices dividing a cluster's",
                  num(p.D) + " rows a head are " + num(p.slicesPerHead) + " slices of " +
                      num(p.rowsPerSlice) + " rows, which do not divide " + num(p.S));
  if (p.headSlots % p.N != 0 || headRanges(p).empty())
    return refuse("k's heads, and v's, in one pass of at most a cluster's heads (" +
                      num(p.headSlots) + " of " + num(p.slicesPerHead) +
                      " slices), padded to it in whole blocks of N",
                  "N = " + num(p.N) + " kv heads against " + num(p.headSlots) +
                      " heads a cluster (" + num(p.S) + " slices), not a multiple of N");
  if (p.H % (p.halves * p.vb) != 0 || p.hSlices == 0 || p.S % p.hSlices != 0)
    return refuse("each half of h spread over whole rows of a cluster's slices",
                  "H = " + num(p.H) + ": halves of " + num(p.HL) + " values are " +
                      num(p.HL / p.vb) + " slices of " + num(p.vb) + ", which do not divide " +
                      num(p.S));
  // Both halves in the TRF at once, or (over its capacity) each half by itself, the second
  // loading once the first's contraction has read it.
  if (p.rowsPerSlice * p.HL * 2 > t.trfBytesPerSlice)
    return refuse("each half's weights in the TRF",
                  num(p.rowsPerSlice) + " rows x " + num(p.HL) + " values of bf16 is " +
                      num(p.rowsPerSlice * p.HL * 2) + " bytes a slice, over " +
                      num(t.trfBytesPerSlice));
  return llvm::Error::success();
}

inline llvm::Error checkProjectionTokens(const ProjectionPlan &p, const TargetModel &t) {
  auto refuse = [&p](llvm::StringRef rule, const llvm::Twine &detail) {
    return placementError(p.opt.stage, rule, detail);
  };
  const int64_t slots = t.vectorReduceSlots;
  if (p.T % t.clusters != 0 || p.TC % p.tr != 0 || p.rowsX * p.repX != p.rowsMax)
    return refuse("tokens split over the clusters, whole columns of " + num(p.tr) +
                      " on rows of x's slices",
                  "T = " + num(p.T) + " over " + num(t.clusters) + " clusters and " +
                      num(p.rowsMax) + " rows");
  if (p.tps % p.tpp != 0)
    return refuse("x's RMSNorm: a slice's tokens in passes of the reducer's " + num(slots) +
                      " slots of " + num(p.tr),
                  "T = " + num(p.T) + " puts " + num(p.tps) + " tokens on each of " + num(p.rowsX) +
                      " rows of slices (H = " + num(p.H) + ")");
  if (p.TC * p.lanes * 4 > t.vrfBytesPerSlice)
    return refuse("a slice's part of a RoPE table (f32) in the VRF",
                  num(p.TC) + " tokens x " + num(p.lanes) + " frequencies of f32 is over " +
                      num(t.vrfBytesPerSlice) + " bytes");
  if (p.CT % p.K != 0 || p.A % p.U != 0 || p.V % p.K != 0 || (p.A / p.tr) % (p.V / p.K) != 0)
    return refuse("the token chunks of the halves' sums and the head norms",
                  "T = " + num(p.T) + ": " + num(p.CT) + " and " + num(p.V * p.tr) +
                      " tokens a chunk against blocks of " + num(p.A));
  return llvm::Error::success();
}

/// Whether the heads split over the clusters, and its numbers: a whole number of each pass's
/// heads a cluster, the halves' sums added in one pass (T tokens' rows in the VRF), x^ on whole
/// rows of slices; and only when the whole contraction of the T tokens a cluster, in every pass
/// of the heads, fits in the HBM cycles that reading the weights once saves (above that the
/// longer contraction, the copies and the adds on T tokens cost more than they save: 0.6B
/// measured 9,778 against 14,270 at T = 16, 15,797 against 16,569 at 64, 23,028 against 19,715
/// at 128; 4B, two passes, 42,121 against 49,058 at 64, 69,292 against 55,878 at 128).
inline void chooseProjectionSplit(ProjectionPlan &p, const TargetModel &t) {
  p.split = false;
  if (p.C < 2)
    return;
  for (const HeadPass &hp : headPasses(p))
    if (hp.count % p.C != 0)
      return;
  if (p.T * p.rowsPerSlice * 4 > t.vrfBytesPerSlice)
    return;
  p.tpsS = std::max(p.tr, p.T / p.rowsMax);
  if (p.T % p.tpsS != 0 || p.rowsMax % (p.T / p.tpsS) != 0)
    return;
  p.rowsXS = p.T / p.tpsS, p.repXS = p.rowsMax / p.rowsXS;
  const int64_t weightBytes = p.O * p.H * 2;
  const int64_t saved = (p.C - 1) * weightBytes / t.hbmBytesPerCycle;
  const int64_t contraction = p.headPasses * p.T * p.H / p.vb; // every pass streams x^ whole
  p.split = contraction <= saved;
}

inline llvm::Expected<ProjectionPlan> planProjection(const Qwen3Shape &s, const TargetModel &t,
                                                     int64_t tokens,
                                                     const ProjectionOptions &opt = {}) {
  ProjectionPlan p;
  p.opt = opt;
  p.H = s.hidden, p.D = s.headDim, p.F = s.headDim / 2, p.Q = s.qDim(), p.N = s.kvHeads;
  p.O = s.qDim() + 2 * s.kvDim(), p.qHeads = s.heads, p.heads = p.O / p.D, p.eps = s.rmsNormEps;
  p.C = t.clusters, p.S = t.slicesPerCluster, p.lanes = t.trfLanes;
  p.vb = t.flitBytes / 2, p.vf = t.flitBytes / 4, p.sub = t.subFetchAccessBytes / 4;
  p.tr = t.transposeColumnBytes / 2, p.trRow = t.transposeValidElements;
  // Two rows a lane (the time-broadcast rows that keep the MACs busy): d and d + D/2.
  p.rowsPerLane = 2, p.rowsPerSlice = p.rowsPerLane * p.lanes;
  p.slicesPerHead = p.D / p.rowsPerSlice;
  // h in parts ("halves"): two, or the fewest more whose slices of vb values divide a cluster's.
  p.trfBytes = t.trfBytesPerSlice, p.halves = 2;
  while (p.halves < p.H / p.vb &&
         (p.H % (p.halves * p.vb) != 0 || p.S % std::max<int64_t>(1, p.H / (p.halves * p.vb)) != 0))
    ++p.halves;
  p.HL = p.H / p.halves, p.hSlices = p.HL / p.vb;
  p.rowsMax = p.hSlices > 0 ? p.S / p.hSlices : 0;
  // Heads that overfill a cluster run in passes of a cluster's heads (headRanges).
  p.headSlots = p.S / std::max<int64_t>(1, p.slicesPerHead);
  if (llvm::Error e = checkProjectionWeights(p, t))
    return e;
  const std::vector<HeadPass> passes = headPasses(p);
  p.headPasses = int64_t(passes.size());
  p.qThenKv = passes.size() == 2 && passes[0].count == p.qHeads;
  p.tok = prefillTokens(tokens, t);
  p.T = tokens, p.TC = p.tok.perCluster, p.A = p.tok.tile, p.K = p.TC / p.A;
  // x on rowsMax rows of slices, at least tr tokens a slice (the transpose's column); fewer
  // tokens than that leave rows over, which hold copies of x (the GEMM's stream then reaches
  // every slice through a ring of the rows that hold one copy).
  p.tps = std::max(p.tr, p.TC / p.rowsMax), p.rowsX = p.TC / p.tps, p.repX = p.rowsMax / p.rowsX;
  // x's sums of squares: a pass sums up to the reducer's slots of tr tokens.
  p.tpp = std::min(p.tps, p.tr * t.vectorReduceSlots), p.xPasses = p.tps / p.tpp;
  // The halves' f32 sums are added CT tokens at a time, one of them through the VRF.
  p.CT = std::min(p.TC, t.vrfBytesPerSlice / (p.rowsPerSlice * 4));
  p.chunks = p.TC / p.CT, p.U = p.CT / p.K;
  // Head norms: each pass sums V slots of tr tokens (tokens in the lanes).
  p.V = std::min(t.vectorReduceSlots, p.TC / p.tr), p.sumPasses = p.TC / (p.tr * p.V);
  if (llvm::Error e = checkProjectionTokens(p, t))
    return e;
  chooseProjectionSplit(p, t);
  return p;
}

/// The projection's HBM arguments. T's blocks: TC tokens a cluster, A-token tiles inside.
struct ProjectionLayouts {
  Expr x, w, tables, q, cache;
};

inline ProjectionLayouts projectionLayouts(const ProjectionPlan &p) {
  auto t = [&](int64_t lo, int64_t hi) { return digits("T", p.T, lo, hi); };
  auto h = [&](int64_t lo, int64_t hi) { return digits("H", p.H, lo, hi); };
  auto q = [&](int64_t lo, int64_t hi) { return digits("Q", p.Q, lo, hi); };
  auto f = [&](int64_t lo, int64_t hi) { return digits("F", p.F, lo, hi); };
  const int64_t run = p.tok.queryRun;
  ProjectionLayouts l{
      cat({t(p.TC, p.T), t(p.A, p.TC), h(p.vb, p.H), t(1, p.A), h(1, p.vb)}),
      cat({h(p.HL, p.H), whole("O", p.O), h(1, p.HL)}),
      cat({t(p.TC, p.T), f(p.lanes, p.F), t(1, p.A), t(p.A, p.TC), f(1, p.lanes)}),
      cat({t(p.TC, p.T), q(p.D, p.Q), t(run, p.TC), q(p.lanes, p.D), t(1, run), q(1, p.lanes)}),
      cat({whole("T", p.T), whole("N", p.N), whole("D", p.D)})};
  if (p.opt.rowMajorQ)
    l.q = cat({whole("T", p.T), whole("Q", p.Q)});
  return l;
}

/// Builds the projection stage with `opt`'s outputs (PrefillProjection.cpp); prefill_projection
/// is the default options.
llvm::Error buildProjectionStage(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                 const ProjectionOptions &opt);

/// The header's sentence on the passes of the heads ("" for one pass).
inline std::string headPassesText(const ProjectionPlan &p) {
  if (p.headPasses == 1)
    return "";
  if (p.qThenKv)
    return " The heads run in two passes, each placed so from slice 0: q's " + num(p.qHeads) +
           " heads, then k's and v's " + num(2 * p.N) + " (steps 2 to 6 a pass; x^ made once).";
  std::string text = " The heads run in " + num(p.headPasses) + " passes of at most a cluster's " +
                     num(p.headSlots) + ", each placed so from slice 0: ";
  const std::vector<HeadPass> passes = headPasses(p);
  for (size_t i = 0; i < passes.size(); ++i) {
    const HeadPass &hp = passes[i];
    std::vector<std::string> kinds;
    if (hp.qCount > 0)
      kinds.push_back("q's heads " + num(hp.qFirst) + " to " + num(hp.qFirst + hp.qCount - 1));
    if (hp.kAt >= 0)
      kinds.push_back("k's " + num(p.N));
    if (hp.vAt >= 0)
      kinds.push_back("v's " + num(p.N));
    text += i == 0 ? "" : "; then ";
    for (size_t k = 0; k < kinds.size(); ++k)
      text += (k == 0 ? "" : k + 1 == kinds.size() ? " and " : ", ") + kinds[k];
  }
  return text + " (steps 2 to 6 a pass; x^ made once).";
}

/// q_out's layout over `qCount` of its heads (axis `axis`): q's, its heads' term padded to all q
/// heads; a view of q_out at the pass's first head (qFirst x D x TC cells in).
inline Expr qPassLayout(const ProjectionPlan &p, const std::string &axis, int64_t qCount) {
  auto t = [&](int64_t lo, int64_t hi) { return digits("T", p.T, lo, hi); };
  auto q = [&](int64_t lo, int64_t hi) { return digits(axis, qCount * p.D, lo, hi); };
  const int64_t run = p.tok.queryRun;
  Term heads = q(p.D, qCount * p.D);
  heads = heads ? heads->pad(p.qHeads) : Expr::one().pad(p.qHeads);
  return cat({t(p.TC, p.T), heads, t(run, p.TC), q(p.lanes, p.D), t(1, run), q(1, p.lanes)});
}

/// The numbers prefill_projection's header prints, by name.
inline Values projectionValues(const ProjectionPlan &p) {
  const ProjectionLayouts l = projectionLayouts(p);
  return {{"T", num(p.T)},
          {"T1", num(p.T - 1)},
          {"heads", num(p.heads)},
          {"qh", num(p.qHeads)},
          {"N", num(p.N)},
          {"D", num(p.D)},
          {"F", num(p.F)},
          {"O", num(p.O)},
          {"Q", num(p.Q)},
          {"kv", num(p.N * p.D)},
          {"x", l.x.str()},
          {"w", l.w.str()},
          {"tables", l.tables.str()},
          {"q", l.q.str()},
          {"run", num(p.tok.queryRun)},
          {"lanes", num(p.lanes)},
          {"C", num(p.C)},
          {"TC", num(p.TC)},
          {"A", num(p.A)},
          {"rows", num(p.rowsPerSlice)},
          {"sph", num(p.slicesPerHead)},
          {"tps", num(p.tps)},
          {"HL", num(p.HL)},
          {"vb", num(p.vb)},
          {"tr", num(p.tr)},
          {"slots", p.tpp / p.tr > 1 ? num(p.tpp / p.tr) + " slots" : "one slot"},
          {"hv", num(p.halves * p.vb)},
          {"nhalves", p.halves == 2 ? "two halves" : num(p.halves) + " parts (\"halves\")"},
          {"trf", p.rowsPerSlice * p.H * 2 > p.trfBytes
                      ? " (the TRF holds " + num(p.trfBytes / (p.rowsPerSlice * p.HL * 2)) +
                            " halves' weights: a half loads once an earlier one's contraction "
                            "has read it)"
                      : ""},
          {"headpasses", headPassesText(p)},
          {"hs", num(p.hSlices)},
          {"ring", num(p.rowsX * p.hSlices)},
          {"half", num(p.TC * p.HL / p.vb)},
          {"both", num(p.TC * p.H / p.vb)},
          {"tablesHbm", bytes(p.heads * p.T * p.F * 4)},
          {"copies", p.repX > 1 ? "; a cluster's " + num(p.TC) + " tokens fill " + num(p.rowsX) +
                                      " rows of slices, so x is copied " + num(p.repX) +
                                      " times, each copy's slices a ring for the GEMM's stream"
                                : ""},
          {"xpasses",
           p.xPasses > 1 ? " in " + num(p.xPasses) + " passes of " + num(p.tpp) + " tokens (joined)"
                         : ""},
          {"sums", p.chunks > 1 ? num(p.CT) + " tokens at a time (one through the VRF)"
                                : "in one pass (the second through the VRF)"},
          {"passes", p.sumPasses > 1 ? num(p.sumPasses) + " passes of " + num(p.V * p.tr) +
                                           " tokens' sums (joined)"
                                     : "one pass of the " + num(p.TC) + " tokens' sums"}};
}

} // namespace rngd::placement::qwen3
