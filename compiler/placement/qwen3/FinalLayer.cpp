// `final_layer`: logits = RMSNorm(input) x lm_head^T. RMSNorm on one slice of each cluster, the
// normalised x copied DM to DM onto the slices of each LM-head tile, then the tiles (LmHead.h)
// streamed through the Contraction Engine one after the other.
#include "compiler/placement/qwen3/LmHead.h"
#include "compiler/placement/qwen3/SliceNorm.h"
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/Stages.h"


#include "llvm/Support/Format.h"

#include <string>
#include <vector>

namespace rngd::placement::qwen3 {

namespace {

std::string num(int64_t n) { return std::to_string(n); }

std::string real(double x) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", x);
  return text;
}

/// The placement of one LM-head tile: `rows` rows over axis `name`, `lanes` TRF lanes of
/// `rowsPerLane` rows on the first `slices` slices of every cluster; the aliases start with
/// `prefix` (none for the full tiles, "c" and "e" for the remainder's).
struct TileLayout {
  int64_t rows = 0;
  std::string copy; // the SSA name of the normalised x's copy on the tile's slices
  mlir::Type tile, rowsOut, dm, load, trf, acc, res, result, xdm, xs;
};

/// x (bf16 over H) as a stream on `slice` of every cluster: one flit per time step.
mlir::Type xStream(StageBuilder &b, const std::string &alias, const Expr &cluster,
                   const Expr &slice, const Expr &h) {
  const int64_t perFlit = b.target().flitBytes / 2; // bf16
  return b.stream(alias, b.bf16(), cluster, slice, h / perFlit, h % perFlit);
}

/// The cluster mapping of `rows` rows split evenly over the clusters in order (cluster 0 the
/// first), or `1` on a one-cluster target (`H / H` would cover H twice).
Expr byCluster(const TargetModel &t, const Expr &axis, int64_t rows) {
  return t.clusters > 1 ? axis / (rows / t.clusters) : Expr::one();
}

/// A copy on every cluster: a replica axis, or `1` on a one-cluster target.
Expr everyCluster(StageBuilder &b, const std::string &name) {
  const TargetModel &t = b.target();
  return t.clusters > 1 ? b.axis(name + std::to_string(t.clusters), t.clusters) : Expr::one();
}

/// A slice mapping over the first `used` slices of a cluster, padded to the cluster's.
Expr padSlices(const TargetModel &t, const Expr &slice, int64_t used) {
  return used < t.slicesPerCluster ? slice.pad(t.slicesPerCluster) : slice;
}

/// Declares an axis once: tiles on the same number of slices share their replica axis.
Expr axisOnce(StageBuilder &b, std::vector<std::string> &declared, const std::string &name,
              int64_t size) {
  if (!llvm::is_contained(declared, name)) {
    declared.push_back(name);
    b.axis(name, size);
  }
  return Expr::axis(name);
}

TileLayout tileLayout(StageBuilder &b, std::vector<std::string> &declared, const Expr &h,
                      const std::string &prefix, const std::string &name, int64_t rows,
                      int64_t lanes, int64_t rowsPerLane, int64_t slices) {
  const TargetModel &t = b.target();
  const int64_t perSlice = lanes * rowsPerLane, perFlit = t.flitBytes / 2;
  Expr r = axisOnce(b, declared, name, rows);
  Expr cluster = byCluster(t, r, rows);
  Expr slice = padSlices(t, r / perSlice % slices, slices);
  Expr lane = r % lanes, row = r / lanes % rowsPerLane;
  Expr packet = lanes < t.trfLanes ? lane.pad(t.trfLanes) : lane;
  const bool slots = rowsPerLane > 1;
  TileLayout l;
  l.rows = rows;
  l.copy = prefix.empty() ? "xnd" : prefix + "x";
  l.tile = b.hbm(prefix + "tile", b.bf16(), Expr::pair({r, h}));
  l.rowsOut = b.hbm(prefix + "rows", b.bf16(), r);
  l.dm = b.dm(prefix + "tdm", b.bf16(), cluster, slice, Expr::pair({r % perSlice, h}));
  l.load = b.stream(prefix + "tload", b.bf16(), cluster, slice,
                    slots ? Expr::pair({lane, row, h / perFlit}) : Expr::pair({lane, h / perFlit}),
                    h % perFlit);
  l.trf = b.trf(prefix + "ttrf", b.bf16(), cluster, slice, lane, slots ? Expr::pair({row, h}) : h);
  l.acc = b.stream(prefix + "acc", b.f32(), cluster, slice, slots ? row : Expr::one(), packet);
  l.res = b.stream(prefix + "res", b.bf16(), cluster, slice, slots ? row : Expr::one(), packet);
  l.result = b.dm(prefix + "rdm", b.bf16(), cluster, slice, r % perSlice);
  // The normalised x, replicated on the tile's slices of every cluster.
  Expr xCluster =
      t.clusters > 1 ? axisOnce(b, declared, "C" + num(t.clusters), t.clusters) : Expr::one();
  Expr xSlice = padSlices(t, axisOnce(b, declared, "S" + num(slices), slices), slices);
  l.xdm = b.dm(prefix + "xdm", b.bf16(), xCluster, xSlice, h);
  l.xs = xStream(b, prefix + "xn", xCluster, xSlice, h);
  return l;
}

struct NormTypes {
  Expr cluster = Expr::one(), slice = Expr::one(); // one slice of each cluster
  mlir::Type one, xs, sum, sumDm, sumVrf, w, wVrf, xwDm;
};

NormTypes normTypes(StageBuilder &b, const Expr &h) {
  const TargetModel &t = b.target();
  Expr k = everyCluster(b, "K");
  Expr one = Expr::one().pad(t.slicesPerCluster);
  const int64_t perFlit = t.flitBytes / 4;                    // f32 after the fetch adapter
  const int64_t perSubAccess = t.subFetchAccessBytes / 2;     // bf16 read, f32 streamed
  Expr scalar = Expr::one().pad(t.commitStrideAlignment / 4); // one f32, a committable packet
  NormTypes n;
  n.cluster = k;
  n.slice = one;
  n.one = b.dm("xone", b.bf16(), k, one, h);
  n.xs = b.stream("xs", b.f32(), k, one, h / perFlit, h % perFlit);
  n.sum = b.stream("ss", b.f32(), k, one, Expr::one(), scalar);
  n.sumDm = b.dm("sdm", b.f32(), k, one, scalar);
  n.sumVrf = b.vrf("svrf", b.f32(), k, one, scalar);
  n.w = b.stream("wsub", b.f32(), k, one, h / perSubAccess, h % perSubAccess);
  n.wVrf = b.vrf("wvrf", b.f32(), k, one, h);
  n.xwDm = b.dm("xfdm", b.f32(), k, one, h);
  return n;
}

/// RMSNorm of x (bf16, on one slice of each cluster) with weight w there: the normalised x,
/// bf16, on that slice. Six passes: sum of squares, rms, rms and w into the VRF (sub), x * w
/// (in `parts` passes: SliceNorm.h), / rms with the cast.
mlir::Value rmsNorm(StageBuilder &b, const Qwen3Shape &shape, const NormTypes &n, mlir::Value x,
                    mlir::Value w, int64_t parts) {
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
  // rms goes to the VRF before the weight when both fit; otherwise after x * w, into the
  // weight's bytes (a VRF tensor lives until the last pass that reads it ends).
  const bool rmsAfterWeight = slicenorm::rmsAfterWeight(shape, b.target());
  mlir::Value rv = rmsAfterWeight ? mlir::Value() : loadRms();
  const slicenorm::PartNames names{"xd", "wd", "s4",   "c4",  "wv", "s5", "c5",
                                   "p",  "xw", "join", "xw",  "x",  "HP", "HI"};
  mlir::Value xw = slicenorm::multiplyByWeight(b, names, shape.hidden, parts, n.cluster, n.slice,
                                               x, w, n.xs, n.w, n.wVrf, n.xwDm);
  if (rmsAfterWeight)
    rv = loadRms();
  mlir::Value c6 = b.collect("c6", b.fetch("s6", Context::main, xw, n.xs));
  mlir::Value normed = b.vector("n", c6, {Step::vrfOf("div_f", rv)});
  return b.commit("xn1", normed, n.one, /*castToBf16=*/true);
}

/// The checks RMSNorm on one slice rests on: whole flits and sub accesses of H (the weight
/// goes to the VRF whole or in parts: SliceNorm.h).
llvm::Error checkNorm(const Qwen3Shape &s, const TargetModel &t) {
  const int64_t perFlit = t.flitBytes / 4, perSubAccess = t.subFetchAccessBytes / 2;
  if (s.hidden % perFlit != 0 || s.hidden % perSubAccess != 0 || s.hidden * 2 % t.flitBytes)
    return placementError("final_layer", "x streams in whole flits",
                          "hidden " + llvm::Twine(s.hidden) + " in flits of " +
                              llvm::Twine(perFlit) + " f32 and sub accesses of " +
                              llvm::Twine(perSubAccess));
  return llvm::Error::success();
}

/// One tile: weights HBM -> DM -> TRF (main, whole flits), contraction against x, cast, commit
/// and store into `out`'s rows [first, first + rows).
void streamTile(StageBuilder &b, int64_t i, const TileLayout &l, mlir::Value weights,
                mlir::Value out, mlir::Value x, int64_t first, int64_t hidden) {
  using tcp::Context;
  auto id = [&](const char *stem) { return stem + num(i); };
  mlir::Value w = b.view(id("w"), weights, first * hidden, l.tile);
  mlir::Value d = b.dma(id("d"), w, l.dm);
  mlir::Value k = b.collect(id("k"), b.fetch(id("l"), Context::main, d, l.load));
  mlir::Value t = b.toTrf(id("t"), k, l.trf);
  mlir::Value y = b.collect(id("y"), b.fetch(id("x"), Context::main, x, l.xs));
  mlir::Value a = b.contract(id("a"), y, t, /*pack=*/2, l.acc);
  mlir::Value o = b.commit(id("o"), b.cast(id("b"), a, l.res), l.result);
  b.dmaInto(o, b.view(id("v"), out, first, l.rowsOut));
}

std::string count(size_t n, const std::string &what) {
  return (n == 1 ? "one " + what : n == 2 ? "two " + what + "s" : num(n) + " " + what + "s");
}

void describe(StageBuilder &b, const Qwen3Shape &s, const LmHeadTiling &lm,
              const std::vector<LmHeadTailTile> &tail, int64_t normParts) {
  const TargetModel &t = b.target();
  const int64_t remainder = s.vocab - lm.fullTiles * lm.tileRows;
  const int64_t tileBytes = lm.tileRows * s.hidden * 2;
  const std::string perSlice = num(lm.rowsPerSlice), slots = num(lm.rowsPerLane);
  std::string what = "`final_layer` stage: logits = RMSNorm(input) x lm_head^T over ";
  what += num(lm.fullTiles) + " tiles of " + num(lm.tileRows) + " rows and ";
  what += count(tail.size(), "tile") + " of the remaining " + num(remainder) + " (the LM head ";
  what += "buffer is padded to Wp = " + num(lm.paddedVocab) + " rows; the padding rows are ";
  what += "neither read nor written, so rows >= W of `out` are unspecified).";
  b.describe(wrapLines(what));
  std::string norm = "\nRMSNorm runs on one slice of each cluster (input and weight come from ";
  norm += "HBM once per cluster, replica axis K" + num(t.clusters) + "), then the normalised x ";
  norm += "goes to every slice DM to DM (replica axes C" + num(t.clusters) + " x S";
  norm += num(t.slicesPerCluster) + "), each cluster reading the other cluster's copy, so that ";
  norm += "every slice streams it:\n  1. sum of squares (intra-slice tree per flit, ";
  norm += num(s.hidden * 4 / t.flitBytes) + " flits into one slot)\n  2. rms = sqrt(sum / ";
  norm += num(s.hidden) + " + " + real(s.rmsNormEps) + ")      3-4. rms and w into the VRF ";
  norm += "(sub)\n  5. x * w                                6. / rms, cast to bf16\n";
  norm += "Each tile: the " + num(tileBytes >> 20) + " MiB tile -> DM over ";
  norm += num(t.totalSlices()) + " slices (" + perSlice + " rows each), DM -> TRF on the main ";
  norm += "context in " + num(t.flitBytes) + "-byte packets (" + num(lm.lanes) + " lanes x ";
  norm += slots + " rows), the contraction against the normalised x (" + slots + " slots), a ";
  norm += "cast to bf16, and the " + perSlice + " results per slice back to `out`.";
  if (lm.lanes < t.trfLanes)
    norm += " A row (" + num(s.hidden * 2) + " bytes) is longer than half of each of " +
            num(t.trfLanes) + " TRF lanes (" + num(t.trfBytesPerSlice / t.trfLanes / 2) +
            "), so a tile uses " + num(lm.lanes) + " lanes of " +
            num(t.trfBytesPerSlice / lm.lanes) + " bytes.";
  if (!lm.doubleBuffered)
    norm += " A row is longer than half of such a lane: the TRF is not double buffered (a "
            "tile's TRF load waits for the previous tile's contraction).";
  if (slicenorm::rmsAfterWeight(s, t))
    norm += " rms goes to the VRF after step 5: the weight in f32 (" + num(s.hidden * 4) +
            " bytes) leaves no room for it before.";
  if (normParts > 1)
    norm += " Steps 4-5 run in " + num(normParts) + " parts of H (the weight in f32, " +
            num(s.hidden * 4) + " bytes, does not fit the VRF whole), the products joined by " +
            "tcp.dm_join.";
  b.describe(wrapLines(norm));
  if (tail.empty())
    return;
  std::string last = "\nThe last " + num(remainder) + " rows in " + count(tail.size(), "tile");
  last += ", so that little is left to load into the TRF after the last byte arrives ";
  last += "(LmHead.h, planLmHeadTail): ";
  for (size_t i = 0; i < tail.size(); ++i) {
    const LmHeadTailTile &tile = tail[i];
    last += (i == 0 ? "" : ", then ") + num(tile.rows) + " rows on " + num(tile.slicesPerCluster) +
            " slices of each cluster (" + num(tile.rowsPerSlice) +
            " rows each, one per TRF lane: " + num(tile.rowsPerSlice) + "/" + perSlice +
            " of a full tile's TRF load)";
  }
  last += ", each tile with its own copy of the normalised x on its slices.";
  b.describe(wrapLines(last));
}

} // namespace

llvm::Error buildFinalLayer(StageBuilder &b, const Qwen3Shape &shape, int64_t) {
  const TargetModel &t = b.target();
  llvm::Expected<LmHeadTiling> lm = planLmHead(shape, t);
  if (!lm)
    return lm.takeError();
  llvm::Expected<std::vector<LmHeadTailTile>> tail = planLmHeadTail(shape, t, *lm);
  if (!tail)
    return tail.takeError();
  if (llvm::Error e = checkNorm(shape, t))
    return e;
  llvm::Expected<int64_t> normParts = slicenorm::weightParts("final_layer", shape, t);
  if (!normParts)
    return normParts.takeError();
  describe(b, shape, *lm, *tail, *normParts);

  Expr h = b.axis("H", shape.hidden);
  Expr w = b.axis("W", shape.vocab);
  Expr wp = lm->paddedVocab > shape.vocab ? w.pad(lm->paddedVocab) : w;
  std::vector<std::string> declared = {"H", "W"};
  mlir::Type vec = b.hbm("vec", b.bf16(), h);
  mlir::Type lmType = b.hbm("lm", b.bf16(), Expr::pair({wp / lm->tileRows, wp % lm->tileRows, h}));
  mlir::Type logits = b.hbm("logits", b.bf16(), wp);
  NormTypes norm = normTypes(b, h);
  std::vector<TileLayout> layouts;
  if (lm->fullTiles > 0)
    layouts.push_back(tileLayout(b, declared, h, "", "R", lm->tileRows, lm->lanes, lm->rowsPerLane,
                                 t.slicesPerCluster));
  const char *tailNames[] = {"C", "E"};
  const char *tailPrefixes[] = {"c", "e"};
  // The last tile is always E (its rows are the fewest a store moves), the one before it C.
  for (size_t i = 0; i < tail->size(); ++i) {
    const LmHeadTailTile &tile = (*tail)[i];
    size_t role = i + 2 - tail->size();
    layouts.push_back(tileLayout(b, declared, h, tailPrefixes[role], tailNames[role], tile.rows,
                                 tile.rowsPerSlice, 1, tile.slicesPerCluster));
  }

  mlir::Value input = b.input("input", vec);
  mlir::Value rmsWeight = b.input("rms_weight", vec);
  mlir::Value weights = b.input("lm_head_weight", lmType);
  mlir::Value out = b.output("out", logits);
  mlir::Value x = b.dma("xd", input, norm.one);
  mlir::Value wd = b.dma("wd", rmsWeight, norm.one);
  mlir::Value normed = rmsNorm(b, shape, norm, x, wd, *normParts);
  // The normalised x on every tile's slices (the full tiles' first), DM to DM.
  std::vector<mlir::Value> copies;
  for (const TileLayout &layout : layouts)
    copies.push_back(b.dma(layout.copy, normed, layout.xdm));

  int64_t first = 0, index = 0;
  for (int64_t i = 0; i < lm->fullTiles; ++i, first += lm->tileRows)
    streamTile(b, index++, layouts[0], weights, out, copies[0], first, shape.hidden);
  for (size_t i = lm->fullTiles > 0 ? 1 : 0; i < layouts.size(); ++i) {
    streamTile(b, index++, layouts[i], weights, out, copies[i], first, shape.hidden);
    first += layouts[i].rows;
  }
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
