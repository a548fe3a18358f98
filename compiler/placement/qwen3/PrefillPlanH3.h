// The plans of prefill_projection and prefill_attention_first: every number of their placement
// derived from the shape, the target and the block size T, each rule checked, and their HBM
// layouts (functions of T that the host, kernels/qwen3/host, indexes). The stages' files build
// the ops and the headers. Header-only (inline functions): the two stages' files include
// it, and the mapping terms below drop themselves where a block of T tokens leaves a factor of
// the 512-token placement one value.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/StageBuilder.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rngd::placement::qwen3 {

// ---- Mapping terms.

/// One term of a mapping, or nothing when it would hold a single cell.
using Term = std::optional<Expr>;

/// The digit block [lo, hi) of an axis of `size` values (lo divides hi): `A`, `A / lo`,
/// `A % hi` or `A % hi / lo`; nothing if it has one value.
inline Term digits(const std::string &axis, int64_t size, int64_t lo, int64_t hi) {
  hi = std::min(hi, size);
  if (hi <= lo)
    return std::nullopt;
  Expr a = Expr::axis(axis);
  if (hi == size)
    return lo == 1 ? a : a / lo;
  return lo == 1 ? a % hi : a % hi / lo;
}

/// A whole axis as a term (nothing for an axis of one value).
inline Term whole(const std::string &axis, int64_t size) { return digits(axis, size, 1, size); }

/// `[a, b, ...]` of the terms present, `1` if none is.
inline Expr cat(const std::vector<Term> &terms) {
  std::vector<Expr> items;
  for (const Term &t : terms)
    if (t)
      items.push_back(*t);
  return items.empty() ? Expr::one() : Expr::pair(items);
}

inline std::string num(int64_t v) {
  std::string s = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0)
      out += ',';
    out += s[i];
  }
  return v < 0 ? "-" + out : out;
}

/// Where a line of at most `width` columns can break: the last space before it outside a
/// mapping's brackets (npos if none after `from`).
inline size_t breakAt(const std::string &line, size_t width, size_t from) {
  size_t cut = std::string::npos;
  int depth = 0;
  for (size_t i = 0; i < line.size() && i <= width; ++i) {
    depth += line[i] == '[' ? 1 : line[i] == ']' ? -1 : 0;
    if (line[i] == ' ' && depth == 0 && i > from)
      cut = i;
  }
  return cut;
}

/// `text` with each line longer than `width` broken at spaces outside brackets; a continuation
/// is indented as its line, plus the width of a list marker ("1. ", "- ") or `hang`.
inline std::string wrap(const std::string &text, size_t width = 96, size_t hang = 0) {
  std::string out;
  size_t start = 0;
  while (true) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    size_t indent = std::min(line.find_first_not_of(' '), line.size());
    size_t marker = line.find(' ', indent);
    bool listed = marker != std::string::npos && marker > indent &&
                  (line[marker - 1] == '.' || line[indent] == '-') && marker - indent <= 3;
    indent += listed ? marker + 1 - indent : hang;
    while (line.size() > width) {
      size_t cut = breakAt(line, width, indent);
      if (cut == std::string::npos)
        break;
      out += line.substr(0, cut) + "\n";
      line = std::string(indent, ' ') + line.substr(cut + 1);
    }
    out += line;
    if (end == std::string::npos)
      return out;
    out += "\n";
    start = end + 1;
  }
}

/// `text` with each `{name}` replaced by its value.
using Values = std::vector<std::pair<std::string, std::string>>;
inline std::string fill(std::string text, const Values &values) {
  for (const auto &[name, value] : values)
    for (size_t at = text.find("{" + name + "}"); at != std::string::npos;
         at = text.find("{" + name + "}", at + value.size()))
      text.replace(at, name.size() + 2, value);
  return text;
}

/// Bytes as "N KB" or "N.N MB".
inline std::string bytes(int64_t n) {
  if (n < (1 << 20))
    return num(n / 1024) + " KB";
  const int64_t tenths = n * 10 / (1 << 20);
  return num(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " MB";
}

/// A contraction's packet: two flits (32 bf16 values), the Contraction Engine's widest, which
/// with two time-broadcast rows a lane keeps every MAC busy (docs/prefill.md, "The GEMM").
inline constexpr int64_t kPackFlits = 2;

// ---- The token blocks both stages' HBM layouts are written in.

struct PrefillTokens {
  int64_t tokens = 512;     // T
  int64_t perCluster = 256; // TC: prefill_projection's tokens per cluster (T / clusters)
  int64_t tile = 64;        // A: the projection's inner token block (x, the RoPE tables)
  int64_t queryBlock = 16;  // TQ: attention's queries per slice
  int64_t queryRun = 16;    // q_out's run of tokens, min(TQ, TC): each cluster of the
                            // projection writes whole blocks T / TC (the simulator refuses two
                            // clusters' parts of one store whose HBM ranges interleave)
};

/// TC = T / clusters; A = min(64, TC) (64: the attention's key tile for two q heads a kv head
/// and D = 128, kept for every shape so that the host's indices do not depend on G);
/// TQ = 2 x lanes (two time-broadcast rows of queries a lane); q_out's run min(TQ, TC).
inline PrefillTokens prefillTokens(int64_t tokens, const TargetModel &target) {
  PrefillTokens p;
  p.tokens = tokens;
  p.perCluster = tokens / target.clusters;
  p.tile = std::min<int64_t>(64, p.perCluster);
  p.queryBlock = 2 * target.trfLanes;
  p.queryRun = std::min(p.queryBlock, p.perCluster);
  return p;
}

// ---- prefill_projection.

inline constexpr const char *kProjectionStage = "prefill_projection";

struct ProjectionPlan {
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
  int64_t headPasses = 1;   // 1: every head on a cluster at once; 2: q's heads, then k's and v's
};

/// A pass of the projection's heads: heads [first, first + count) of O's heads, placed as one
/// pass (a head on slicesPerHead slices from slice 0); k's heads from slice kAt, v's from vAt
/// (-1: none), q's from slice 0 when `q`.
struct HeadPass {
  int64_t first, count;
  bool q;
  int64_t kAt, vAt;
  std::string suffix; // the pass's axes' names: "" for one pass
};

inline std::vector<HeadPass> headPasses(const ProjectionPlan &p) {
  const int64_t sph = p.slicesPerHead;
  if (p.headPasses == 1)
    return {{0, p.heads, true, p.qHeads * sph, (p.qHeads + p.N) * sph, ""}};
  return {{0, p.qHeads, true, -1, -1, "A"}, {p.qHeads, 2 * p.N, false, 0, p.N * sph, "B"}};
}

inline llvm::Error checkProjectionWeights(const ProjectionPlan &p, const TargetModel &t) {
  auto refuse = [](llvm::StringRef rule, const llvm::Twine &detail) {
    return placementError(kProjectionStage, rule, detail);
  };
  if (p.D % (2 * p.lanes) != 0)
    return refuse("rows d and d + D/2 of a head on one slice and lane",
                  "head_dim " + num(p.D) + " is not a multiple of 2 x " + num(p.lanes) + " lanes");
  if (p.heads * p.slicesPerHead != p.S &&
      (p.qHeads * p.slicesPerHead > p.S || 2 * p.N * p.slicesPerHead > p.S))
    return refuse("every head's rows on each cluster, " + num(p.rowsPerSlice) +
                      " rows a slice: all heads at once, or q's heads, then k's and v's",
                  num(p.heads) + " heads (q, k, v) x " + num(p.slicesPerHead) +
                      " slices a head is " + num(p.heads * p.slicesPerHead) + ", not the " +
                      num(p.S) + " slices of a cluster; " + num(p.qHeads) + " q heads are " +
                      num(p.qHeads * p.slicesPerHead) + " slices, k's and v's " +
                      num(2 * p.N * p.slicesPerHead));
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
  auto refuse = [](llvm::StringRef rule, const llvm::Twine &detail) {
    return placementError(kProjectionStage, rule, detail);
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

inline llvm::Expected<ProjectionPlan> planProjection(const Qwen3Shape &s, const TargetModel &t,
                                                     int64_t tokens) {
  ProjectionPlan p;
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
  // Heads that overfill a cluster run in two passes: q's heads, then k's and v's.
  p.headPasses = p.heads * p.slicesPerHead == p.S ? 1 : 2;
  if (llvm::Error e = checkProjectionWeights(p, t))
    return e;
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
  return l;
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
          {"headpasses", p.headPasses > 1
                             ? " The heads run in two passes, each placed so from slice 0: q's " +
                                   num(p.qHeads) + " heads, then k's and v's " + num(2 * p.N) +
                                   " (steps 2 to 6 a pass; x^ made once)."
                             : ""},
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

// ---- prefill_attention_first.

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
};

inline llvm::Error checkAttention(const AttentionPlan &p, const TargetModel &t) {
  auto refuse = [](llvm::StringRef rule, const llvm::Twine &detail) {
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
  if (p.D * p.TQ * 4 > t.vrfBytesPerSlice)
    return refuse("o's f32 part (D x a slice's queries) in the VRF",
                  num(p.D * p.TQ * 4) + " bytes, over " + num(t.vrfBytesPerSlice));
  return llvm::Error::success();
}

inline llvm::Expected<AttentionPlan> planAttention(const Qwen3Shape &s, const TargetModel &t,
                                                   int64_t tokens) {
  AttentionPlan p;
  p.N = s.kvHeads, p.G = s.groups(), p.D = s.headDim, p.C = t.clusters, p.NC = p.N / p.C;
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

inline AttentionLayouts attentionLayouts(const AttentionPlan &p) {
  auto d = [&](int64_t lo, int64_t hi) { return digits("D", p.D, lo, hi); };
  Term n = whole("N", p.N), g = whole("G", p.G), tb = whole("TB", p.TB), tt = whole("TT", p.TT);
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

} // namespace rngd::placement::qwen3
