// `batch_final_layer`: logits = RMSNorm(x) x lm_head^T for the T tokens of a batched decode
// step, each token's arithmetic final_layer's: RMSNorm of each token on a slice of its own (the
// same six passes), the normalised tokens on a ring of slices that broadcasts them to every
// slice, then final_layer's LM-head tiles (LmHead.h), each streamed from HBM once and
// contracted against all T tokens while it sits in the TRF.
#include "compiler/placement/qwen3/BatchFinalLayerPlan.h"
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/PrefillShared.h"
#include "compiler/placement/qwen3/Stages.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace rngd::placement::qwen3 {

namespace {

using batch_final::Plan;

std::string num(int64_t n) { return std::to_string(n); }

std::string real(double x) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", x);
  return text;
}

/// The pair of the items present (one alone as itself, none as `1`).
Expr seq(const std::vector<std::optional<Expr>> &items) {
  std::vector<Expr> out;
  for (const std::optional<Expr> &item : items)
    if (item)
      out.push_back(*item);
  return out.empty() ? Expr::one() : out.size() == 1 ? out[0] : Expr::pair(out);
}

/// A replica axis over the clusters, or `1` on a one-cluster target.
Expr everyCluster(StageBuilder &b, const std::string &name) {
  const TargetModel &t = b.target();
  return t.clusters > 1 ? b.axis(name + num(t.clusters), t.clusters) : Expr::one();
}

/// A slice mapping over the first `used` slices of a cluster, padded to the cluster's.
Expr padSlices(const TargetModel &t, const Expr &slice, int64_t used) {
  return used < t.slicesPerCluster ? slice.pad(t.slicesPerCluster) : slice;
}

/// The token factors of the ring's stream: [T / ringT, T % ringT], the ones of one value left
/// out (the contraction keeps them, in this order, as the result's time).
struct TokenTerms {
  std::optional<Expr> local, ring; // local: each slice's tokens in time; ring: over the slices
};

TokenTerms tokenTerms(const Plan &p, const Expr &t) {
  TokenTerms terms;
  if (p.tokens / p.ringT > 1)
    terms.local = p.ringT > 1 ? t / p.ringT : t;
  if (p.ringT > 1)
    terms.ring = p.ringT < p.tokens ? t % p.ringT : t;
  return terms;
}

struct Types {
  Expr t = Expr::one(), h = Expr::one();
  TokenTerms tokens;
  mlir::Type x, vec, lm, out;
  // RMSNorm, one token a slice, on every cluster (final_layer's types with tokens on slices).
  Expr normCluster = Expr::one(), normSlice = Expr::one();
  mlir::Type one, xs, sum, sumDm, sumVrf, w, wVrf, xwDm;
  // The normalised tokens on the rings, their stream there and after the broadcast.
  mlir::Type ring, ringLoad, ringOut, firstRing;
};

void normTypes(StageBuilder &b, const Plan &p, Types &y) {
  const TargetModel &t = b.target();
  const Expr &h = y.h;
  Expr k = everyCluster(b, "K");
  Expr s = padSlices(t, y.t, p.tokens);
  const int64_t perFlit = t.flitBytes / 4;                    // f32 after the fetch adapter
  const int64_t perSubAccess = t.subFetchAccessBytes / 2;     // bf16 read, f32 streamed
  Expr scalar = Expr::one().pad(t.commitStrideAlignment / 4); // one f32, a committable packet
  y.normCluster = k;
  y.normSlice = s;
  y.one = b.dm("xone", b.bf16(), k, s, h);
  y.xs = b.stream("xs", b.f32(), k, s, h / perFlit, h % perFlit);
  y.sum = b.stream("ss", b.f32(), k, s, Expr::one(), scalar);
  y.sumDm = b.dm("sdm", b.f32(), k, s, scalar);
  y.sumVrf = b.vrf("svrf", b.f32(), k, s, scalar);
  y.w = b.stream("wsub", b.f32(), k, s, h / perSubAccess, h % perSubAccess);
  y.wVrf = b.vrf("wvrf", b.f32(), k, s, h);
  y.xwDm = b.dm("xfdm", b.f32(), k, s, h);
}

/// The rings: slice [replica, T % ringT, H / 16 % ringH] holds its tokens' flit of each row;
/// broadcast1 gives every slice the stream [T / ringT, T % ringT, H / 16] (or [T, H / 16 /
/// ringH, H / 16 % ringH]): each token's row in H order.
void ringTypes(StageBuilder &b, const Plan &p, Types &y) {
  const TargetModel &t = b.target();
  const int64_t perFlit = t.flitBytes / 2; // bf16
  const Expr &h = y.h;
  Expr flit = h / perFlit;
  std::optional<Expr> outer, inner = flit;
  if (p.ringH < p.flits) {
    outer = flit / p.ringH;
    inner = flit % p.ringH;
  }
  std::optional<Expr> replica;
  if (p.replicas > 1)
    replica = b.axis("RP", p.replicas);
  Expr cluster = everyCluster(b, "C");
  Expr ringSlice = seq({replica, y.tokens.ring, inner});
  Expr ringElem = seq({y.tokens.local, outer, h % perFlit});
  y.ring = b.dm("xring", b.bf16(), cluster, ringSlice, ringElem);
  // With several rings a cluster, the first is laid out alone (32-byte pieces) and copied to
  // the others whole (a slice's part is one run).
  if (p.replicas > 1)
    y.firstRing = b.dm("xfirst", b.bf16(), cluster,
                       seq({Expr::one().pad(p.replicas), y.tokens.ring, inner}), ringElem);
  y.ringLoad =
      b.stream("xload", b.bf16(), cluster, ringSlice, seq({y.tokens.local, outer}), h % perFlit);
  Expr fresh = b.axis("XR", p.ringH * p.ringT);
  y.ringOut = b.stream("xn", b.bf16(), cluster, seq({replica, fresh}),
                       seq({y.tokens.local, outer, y.tokens.ring, inner}), h % perFlit);
}

Types declareTypes(StageBuilder &b, const Qwen3Shape &s, const Plan &p) {
  Types y;
  y.t = b.axis("T", p.tokens);
  y.h = b.axis("H", s.hidden);
  Expr w = b.axis("W", s.vocab);
  Expr wp = p.lm.paddedVocab > s.vocab ? w.pad(p.lm.paddedVocab) : w;
  y.tokens = tokenTerms(p, y.t);
  const ProjectionTokens pt = projectionTokens(p.tokens, b.target());
  y.x = b.hbm("x", b.bf16(), decoderXLayout({{"T", p.tokens}}, pt, p.tokens, p.xRowsPerSlice));
  y.vec = b.hbm("vec", b.bf16(), y.h);
  y.lm = b.hbm("lm", b.bf16(), Expr::pair({wp / p.lm.tileRows, wp % p.lm.tileRows, y.h}));
  y.out = b.hbm("logits", b.bf16(), Expr::pair({wp / p.outBlock, y.t, wp % p.outBlock}));
  normTypes(b, p, y);
  ringTypes(b, p, y);
  return y;
}

/// One LM-head tile: `rows` rows over axis `name`, `lanes` TRF lanes of `rowsPerLane` rows on
/// the first `slices` slices of every cluster (final_layer's), its results for all T tokens.
struct TileTypes {
  int64_t rows = 0;
  mlir::Type tile, dm, load, trf, acc, res, result, rowsOut;
};

TileTypes tileTypes(StageBuilder &b, const Plan &p, const Types &y, const std::string &prefix,
                    const std::string &name, int64_t rows, int64_t lanes, int64_t rowsPerLane,
                    int64_t slices) {
  const TargetModel &t = b.target();
  const int64_t perSlice = lanes * rowsPerLane, perFlit = t.flitBytes / 2;
  const Expr &h = y.h;
  Expr r = b.axis(name, rows);
  Expr cluster = t.clusters > 1 ? r / (rows / t.clusters) : Expr::one();
  Expr slice = padSlices(t, r / perSlice % slices, slices);
  Expr lane = r % lanes, row = r / lanes % rowsPerLane;
  Expr packet = lanes < t.trfLanes ? lane.pad(t.trfLanes) : lane;
  std::optional<Expr> slot;
  if (rowsPerLane > 1)
    slot = row;
  TileTypes l;
  l.rows = rows;
  l.tile = b.hbm(prefix + "tile", b.bf16(), Expr::pair({r, h}));
  l.dm = b.dm(prefix + "tdm", b.bf16(), cluster, slice, Expr::pair({r % perSlice, h}));
  l.load = b.stream(prefix + "tload", b.bf16(), cluster, slice, seq({lane, slot, h / perFlit}),
                    h % perFlit);
  l.trf = b.trf(prefix + "ttrf", b.bf16(), cluster, slice, lane, seq({slot, h}));
  Expr time = seq({y.tokens.local, y.tokens.ring, slot});
  l.acc = b.stream(prefix + "acc", b.f32(), cluster, slice, time, packet);
  l.res = b.stream(prefix + "res", b.bf16(), cluster, slice, time, packet);
  // In the time order of the commit: a packet of fewer lanes than trfLanes writes its padding
  // too (bf16), which the next packet then overwrites. A full tile's [T, slot, lane] is one block of
  // the logits' layout.
  // The last packet's padding lands past the results: room for it as padding tokens.
  const int64_t spill = (t.trfLanes - std::min(lanes, t.trfLanes)) * 2;
  const int64_t room = (spill + perSlice * 2 - 1) / (perSlice * 2);
  l.result = b.dm(prefix + "rdm", b.bf16(), cluster, slice,
                  seq({room > 0 ? y.t.pad(p.tokens + room) : y.t, slot, lane}));
  l.rowsOut = b.hbm(prefix + "rows", b.bf16(),
                    Expr::pair({r / p.outBlock, y.t, r % p.outBlock}));
  return l;
}

/// RMSNorm of each token (bf16, on its slice of each cluster) with weight w there: final_layer's
/// six passes, the normalised tokens bf16 on their slices.
mlir::Value rmsNorm(StageBuilder &b, const Qwen3Shape &shape, const Plan &p, const Types &n,
                    mlir::Value x, mlir::Value w) {
  using tcp::Context;
  mlir::Value c1 = b.collect("c1", b.fetch("s1", Context::main, x, n.xs));
  mlir::Value q =
      b.vector("q", c1, {Step::op("stash"), Step::stash("mul_f"), Step::op("reduce_add_f")}, n.sum);
  mlir::Value sum = b.commit("sum", q, n.sumDm);
  mlir::Value c2 = b.collect("c2", b.fetch("s2", Context::main, sum, n.sum));
  mlir::Value r = b.vector(
      "r", c2,
      {Step::fma(float(1.0 / double(shape.hidden)), float(shape.rmsNormEps)), Step::op("sqrt_f")});
  mlir::Value rms = b.commit("rms", r, n.sumDm);
  auto loadRms = [&] {
    return b.toVrf("rv", b.collect("c3", b.fetch("s3", Context::sub, rms, n.sum)), n.sumVrf);
  };
  const bool rmsAfterWeight = slicenorm::rmsAfterWeight(shape, b.target());
  mlir::Value rv = rmsAfterWeight ? mlir::Value() : loadRms();
  const slicenorm::PartNames names{"xd", "wd", "s4",   "c4",  "wv", "s5", "c5",
                                   "p",  "xw", "join", "xw",  "x",  "HP", "HI"};
  mlir::Value xw = slicenorm::multiplyByWeight(b, names, shape.hidden, p.normParts,
                                               n.normCluster, n.normSlice, x, w, n.xs, n.w,
                                               n.wVrf, n.xwDm);
  if (rmsAfterWeight)
    rv = loadRms();
  mlir::Value c6 = b.collect("c6", b.fetch("s6", Context::main, xw, n.xs));
  mlir::Value normed = b.vector("n", c6, {Step::vrfOf("div_f", rv)});
  return b.commit("xn1", normed, n.one, /*castToBf16=*/true);
}

/// One tile: weights HBM -> DM -> TRF (main, whole flits), the tokens broadcast around the
/// rings and contracted against it, cast, commit, and the T x rows results stored into `out`.
void streamTile(StageBuilder &b, int64_t i, const Types &y, const TileTypes &l,
                mlir::Value weights, mlir::Value out, mlir::Value ring, int64_t first,
                int64_t hidden, int64_t tokens) {
  using tcp::Context;
  auto id = [&](const char *stem) { return stem + num(i); };
  mlir::Value w = b.view(id("w"), weights, first * hidden, l.tile);
  mlir::Value d = b.dma(id("d"), w, l.dm);
  mlir::Value k = b.collect(id("k"), b.fetch(id("l"), Context::main, d, l.load));
  mlir::Value t = b.toTrf(id("t"), k, l.trf);
  mlir::Value f = b.fetch(id("f"), Context::main, ring, y.ringLoad);
  mlir::Value s = b.switchOp(id("s"), tcp::SwitchMode::broadcast1, f, y.ringOut);
  mlir::Value a = b.contract(id("a"), b.collect(id("y"), s), t, /*pack=*/2, l.acc);
  mlir::Value o = b.commit(id("o"), b.cast(id("b"), a, l.res), l.result);
  b.dmaInto(o, b.view(id("v"), out, first * tokens, l.rowsOut));
}

std::string count(size_t n, const std::string &what) {
  return (n == 1 ? "one " + what : n == 2 ? "two " + what + "s" : num(n) + " " + what + "s");
}

void describeSignature(StageBuilder &b, const Qwen3Shape &s, const Plan &p,
                       const std::string &xLayout) {
  const int64_t u = p.outBlock;
  std::string text = "`batch_final_layer` stage: logits = RMSNorm(x) x lm_head^T for the T = " +
                     num(p.tokens) + " tokens of a batched decode step.\nSignature:\n";
  text += "  x               [T, H] bf16, the last prefill_decoder's y, layout " + xLayout + "\n";
  text += "  rms_weight      [H] bf16 (model.norm.weight)\n";
  text += "  lm_head_weight  [Wp, H] bf16, final_layer's padded LM head (Wp = " +
          num(p.lm.paddedVocab) + ", row-major)\n";
  text += "  out             [T, Wp] bf16 logits, layout [Wp / " + num(u) + ", T, Wp % " +
          num(u) + "]: token t's logit w at element (w / " + num(u) + " x T + t) x " + num(u) +
          " + w % " + num(u) + " (the " + num(u) +
          " rows a slice of a full tile are one block, so a slice's results are one run of "
          "HBM); rows >= W (" + num(s.vocab) + ") are unspecified.\n";
  text += "Each token's logits are bit-identical to final_layer's for that token alone: the "
          "same RMSNorm passes (on a slice of its own) and the same contraction of each row in "
          "one lane, in H order. A zero row of x (a padding token) gives zero logits (eps keeps "
          "rms finite).";
  b.describe(wrapLines(text));
}

void describe(StageBuilder &b, const Qwen3Shape &s, const Plan &p) {
  const TargetModel &t = b.target();
  const int64_t remainder = s.vocab - p.lm.fullTiles * p.lm.tileRows;
  std::string text = "\nRMSNorm: token t on slice t of each cluster (x and the weight read once "
                     "per cluster), final_layer's six passes: sum of squares (" +
                     num(s.hidden * 4 / t.flitBytes) + " flits into one slot), rms = sqrt(sum / " +
                     num(s.hidden) + " + " + real(s.rmsNormEps) +
                     "), rms and w into the VRF, x * w, / rms with the cast to bf16";
  if (p.normParts > 1)
    text += " (x * w in " + num(p.normParts) + " parts of H)";
  text += ". Then a DMA lays the normalised tokens on rings of " + num(p.ringH * p.ringT) +
          " slices (" + num(p.replicas) + " a cluster; a slice holds " +
          (p.ringT > 1 ? "flit H / 16 of " + num(p.tokens / p.ringT) + " tokens"
                       : "flit H / 16 % " + num(p.ringH) + " of every token") +
          ")" + (p.replicas > 1 ? " (the first ring laid out, then copied whole to the others)" : "") +
          ", and each tile's pass broadcasts them around the ring (broadcast1): every slice "
          "streams [T, H / 16], each token's row in H order.\n";
  text += "LM head: final_layer's tiles, " + count(p.tail.size(), "tile") + " of the " +
          num(remainder) + " rows past the full tiles first (a tile's contraction takes as long " +
          "as a full one's: the T tokens' stream sets it, " + num(p.tokens * p.flits) +
          " flits), then " + num(p.fullTiles) + " full tiles of " + num(p.tileRows) + " rows (" +
          num(p.lm.lanes) + " lanes x " + num(p.rowsPerLane) + " rows a slice), so that a " +
          "full tile ends the weights' stream. Each is read from HBM once, loaded into the " +
          "TRF and contracted against the " + num(p.tokens) + " tokens (the result's time [T, " +
          "slot]); each slice's " + num(p.tokens) + " x rows results go to `out` in one DMA " +
          "per tile.";
  if (p.group > 1)
    text += " A full tile here is " + num(p.group) + " of final_layer's (" +
            num(p.lm.tileRows) + " rows, one a lane): its " + num(p.tokens * p.flits) +
            " flits of tokens would outlast its DMA with each packet meeting one row, so " +
            "each lane holds " + num(p.rowsPerLane) + " rows, broadcast in time.";
  if (!p.lm.doubleBuffered || p.group > 1)
    text += " The TRF is not double buffered (a tile's rows fill more than half a lane).";
  b.describe(wrapLines(text));
}

std::vector<TileTypes> declareTiles(StageBuilder &b, const Plan &p, const Types &y) {
  std::vector<TileTypes> tiles;
  if (p.fullTiles > 0)
    tiles.push_back(tileTypes(b, p, y, "", "R", p.tileRows, p.lm.lanes, p.rowsPerLane,
                              b.target().slicesPerCluster));
  const char *names[] = {"C", "E"};
  const char *prefixes[] = {"c", "e"};
  // The last tile is always E, the one before it C (final_layer's names).
  for (size_t i = 0; i < p.tail.size(); ++i) {
    const LmHeadTailTile &tile = p.tail[i];
    size_t role = i + 2 - p.tail.size();
    tiles.push_back(tileTypes(b, p, y, prefixes[role], names[role], tile.rows,
                              tile.rowsPerSlice, 1, tile.slicesPerCluster));
  }
  return tiles;
}

} // namespace

llvm::Error buildBatchFinalLayer(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  llvm::Expected<Plan> plan = batch_final::plan(shape, b.target(), tokens);
  if (!plan)
    return plan.takeError();
  const Plan &p = *plan;
  Types y = declareTypes(b, shape, p);
  std::vector<TileTypes> tiles = declareTiles(b, p, y);
  const ProjectionTokens pt = projectionTokens(p.tokens, b.target());
  describeSignature(b, shape, p,
                    decoderXLayout({{"T", p.tokens}}, pt, p.tokens, p.xRowsPerSlice).str());
  describe(b, shape, p);

  mlir::Value input = b.input("x", y.x);
  mlir::Value rmsWeight = b.input("rms_weight", y.vec);
  mlir::Value weights = b.input("lm_head_weight", y.lm);
  mlir::Value out = b.output("out", y.out);
  mlir::Value x = b.dma("xd", input, y.one);
  mlir::Value wd = b.dma("wd", rmsWeight, y.one);
  mlir::Value normed = rmsNorm(b, shape, p, y, x, wd);
  mlir::Value ring = p.replicas > 1 ? b.dma("xr", b.dma("xr1", normed, y.firstRing), y.ring)
                                     : b.dma("xr", normed, y.ring);

  // The tiles past the full ones first: their contraction takes as long as a full tile's (the
  // T tokens' stream sets it), so a full tile ends the weights' stream and only its TRF load,
  // contraction and store follow the last byte.
  int64_t first = p.fullTiles * p.tileRows, index = 0;
  for (size_t i = p.fullTiles > 0 ? 1 : 0; i < tiles.size(); ++i) {
    streamTile(b, index++, y, tiles[i], weights, out, ring, first, shape.hidden, p.tokens);
    first += tiles[i].rows;
  }
  for (int64_t i = 0; i < p.fullTiles; ++i)
    streamTile(b, index++, y, tiles[0], weights, out, ring, i * p.tileRows, shape.hidden,
               p.tokens);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
