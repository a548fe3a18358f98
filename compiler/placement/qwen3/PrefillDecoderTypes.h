// prefill_decoder's axes and types: every tensor's mapping from the plan (PrefillDecoderPlan.h).
// PrefillDecoder.cpp builds the ops on them. Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/PrefillDecoderPlan.h"

#include <optional>
#include <string>

namespace rngd::placement::qwen3::prefill_decoder {

using mlir::Type;

// The types, under the hand-placed file's aliases.
struct DecoderTypes {
  Type ah, x, vec, ow, lw, dw;
  Type adm, af, as, owdm, owload, owtrf, oacc, part;
  Type xv, xj, half, parth, parts, one, ones, onesb, onevrf;
  Type trin, trout, xtc, sqin, ssc, ssdm, sss, rsub, rvrf, wn, wnsub, wnvrf, xws;
  Type lwp, dwp; // a pass's (and a part's) gate/up and down weights (passes or xParts > 1)
  Type ahp, owp; // an o_proj pass's a and o weights (oPasses > 1; owp also xParts > 1)
  Type ahalf, afh, ash, oacch; // o_proj by halves: a half's view of a, its streams and sums
  Type adec; // a fused stage's a: adm over the attention part's axes
  Type lwh, guhh, guhj; // weightHalves: a half of gate's (up's) rows in HBM and DM, both joined
  Type gparts, gone, gones, gonevrf; // gate/up's parts of H gathered and added (hParts > 1)
  // x in parts (xParts > 1; else the part's types): r and h over all of H, the norm weight's
  // product, the parts of r joined, and of y.
  Type hfull, mones, mone, rjoin, yjoin;
  Type gchunk, gchunks, gchunkvrf, gchunkj; // a chunk of the parts' g and u sums (sumChunks > 1)
  Type xf, xn, guh, gudm, guload, gutrf, guacc, gures, gview, gs, gsb, uvrf, pc, pj, ph;
  Type pq, ddm, df, ds, dwdm, dwload, dwtrf, dacc, dpart, dparts, qone, qones, qonesb, qonevrf,
      piece, yq, yv;
  Type rpiece; // r's piece where r lies (piece itself unless sumsByTokenGroup)
  std::string xLayout; // x's HBM mapping, for the header
};

// The axes every type uses.
struct DecoderAxes {
  // (Expr has no default; each is set by declareAxes.)
  Expr t = Expr::one(), h = t, q = t, l = t, ring = t, all = t, kc = t, kg = t, u = t, kh = t,
       ks = t, kd = t, rg = t, gu = t, ls = t, uc = t, sc = t, j = t, ln = t, pu = t, kp = t;
  Expr lp = t;  // a pass's values of L (L itself when there is one pass)
  Expr qp = t;  // an o_proj pass's values of Q (Q itself when there is one pass)
  Expr hp = t, xp = t; // gate/up's parts of H and a part's slices (hParts > 1), or x's parts
  Expr hx = t;         // a part of x's values of H (H itself in one part)
  Expr hs = t;         // the slice digit of H on x's slices (H % hx / rowsPerSlice)
  std::optional<Expr> hpo; // the part digit of H on x's slices (none in one part)
  Expr kpx = t;        // y's pieces: pieces x parts (xParts > 1)
  Expr ucs = t, scs = t; // a chunk's token rows (KG x U) and the chunks (sumChunks > 1)
  Expr tc = t;  // the cluster of a token-indexed tensor (over T)
  Expr kcl = t; // the cluster of a tensor over x's view axes
  Expr wcl = t; // the cluster of a weight (one copy per cluster in use)
  // o_proj's a, weights and sums; the MLP's weights and L-indexed tensors; h's broadcast:
  // tc / wcl, wcl / kcl and kcl, or with the weights split over the clusters the pass's cluster
  // (OC, MC), and the token-wise work (kcl, wcl, hb) repeated on every cluster (CR).
  Expr oa = t, ow = t, mw = t, ml = t, hb = t;
  Expr oc = t, mc = t; // the clusters of o_proj's and the MLP's passes (split)
  // down's sums and y: their cluster and token-group slice digit (kcl and kg, or with
  // sumsByTokenGroup the group's run of groups and its place in the run).
  Expr ycl = t, ykg = t;
};

inline DecoderAxes declareAxes(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p, int64_t T) {
  DecoderAxes a;
  a.t = b.axis("T", T);
  a.h = b.axis("H", s.hidden);
  a.q = b.axis("Q", s.qDim());
  a.l = b.axis("L", s.intermediate);
  a.lp = p.passes > 1 ? b.axis("LP", p.lPass) : a.l; // a pass's values of L
  a.qp = p.oPasses > 1 ? b.axis("QP", p.qPass) : a.q; // an o_proj pass's values of Q
  if (p.hParts > 1) {
    a.hp = b.axis("HP", p.hParts);     // gate/up's parts of H
    a.xp = b.axis("XP", p.partSlices); // the slices of a part
  }
  a.hx = a.h;
  if (p.xParts > 1) {
    a.hp = b.axis("HP", p.xParts); // x's parts
    a.hx = b.axis("HX", p.hx);     // a part's values
    a.hpo = a.h / p.hx;
    a.kpx = b.axis("KPX", p.halves * p.pieces * p.xParts);
  }
  if (p.sumChunks > 1) {
    a.ucs = b.axis("UCS", p.groups * p.u / p.sumChunks);
    a.scs = b.axis("SCS", p.sumChunks);
  }
  a.hs = axisDigit(a.h, s.hidden, p.hx, p.rowsPerSlice);
  a.ring = b.axis("XR", p.rowSlices); // a ring of a weight's row slices
  a.all = b.axis("XS", p.slices);     // every slice of a cluster
  Expr cw = b.axis("CW", p.used);     // the weights' copies
  a.ks = b.axis("KS", p.groups);      // o_proj's K blocks
  a.kd = b.axis("KD", p.dBlocks);     // down's K blocks
  a.kc = b.axis("KC", p.used);        // x's view: the token clusters,
  a.kg = b.axis("KG", p.groups);      // token groups,
  a.u = b.axis("U", p.u);             // a half's tokens of a slice,
  a.kh = b.axis("KH", p.halves);      // halves,
  a.rg = b.axis("RG", p.groups);      // the norm weight's copies over the token groups
  a.gu = b.axis("GU", 2);             // gate (0) or up (1)
  a.ls = b.axis("LS", p.pairSlices);  // silu's views: the pair slices,
  a.uc = b.axis("UC", p.groups / p.siluChunks * p.u); // a chunk's tokens,
  a.sc = b.axis("SC", p.siluChunks);                  // the chunks of a half,
  if (p.pairRows > p.lanes)
    a.j = b.axis("J", p.pairRows / p.lanes); // a lane's pairs,
  a.ln = b.axis("LN", p.lanes);                       // the lanes
  a.pu = b.axis("PU", p.pu);                          // a piece's tokens of a slice
  a.kp = b.axis("KP", p.halves * p.pieces);         // the pieces
  const bool all = p.used == p.clusters;
  a.tc = all ? axisDigit(a.t, T, T, p.perCluster) : Expr::one().pad(p.clusters);
  a.kcl = all ? a.kc : Expr::one().pad(p.clusters);
  a.wcl = all ? cw : Expr::one().pad(p.clusters);
  a.oa = a.tc, a.ow = a.wcl, a.mw = a.wcl, a.ml = a.kcl, a.hb = a.kcl;
  if (p.split) {
    a.oc = b.axis("OC", p.clusters);
    a.mc = b.axis("MC", p.clusters);
    a.oa = a.oc, a.ow = a.oc, a.mw = a.mc, a.ml = a.mc;
    a.kcl = a.wcl = a.hb = b.axis("CR", p.clusters); // r, h and y on every cluster
  }
  a.ycl = a.kcl, a.ykg = a.kg;
  if (sumsByTokenGroup(p)) {
    const int64_t run = p.groups / p.clusters;
    a.ycl = a.kg / run;
    a.ykg = run > 1 ? (a.kg % run).pad(p.groups) : Expr::one().pad(p.groups);
  }
  return a;
}

inline void declareOProj(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, int64_t T,
                  DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t F = p.flit, RS = p.rowsPerSlice, LN = p.lanes, ob = p.oBlock;
  if (p.split) { // a's and the weights' passes, each cluster's c-th of its run of Q
    const int64_t run = p.qPass * p.oPasses / p.clusters;
    y.ahp = b.hbm("ahp", bf,
                  Expr::pair({a.oc, run > p.qPass ? (a.qp / F).pad(run / F) : a.qp / F, a.t,
                              a.qp % F}));
    y.owp = b.hbm("owp", bf, Expr::pair({a.hx, a.oc, run > p.qPass ? a.qp.pad(run) : a.qp}));
  } else {
    if (p.oPasses > 1)
      y.ahp = b.hbm("ahp", bf, Expr::pair({a.qp / F, a.t, a.qp % F}));
    if (p.oPasses > 1 || p.xParts > 1) // a part's rows of a pass
      y.owp = b.hbm("owp", bf,
                    Expr::pair({a.hx, p.oPasses > 1 ? a.qp.pad(p.qPass * p.oPasses) : a.qp}));
  }
  // A pass's K blocks (none when a pass is one block) and a block's values.
  const std::optional<Expr> qo =
      p.groups > 1 ? std::optional<Expr>(a.qp / ob) : std::nullopt;
  const Expr qi = p.groups > 1 ? a.qp % ob : a.qp;
  const int64_t aTokens = p.perCluster / p.aSplit, xt = p.perSlice;
  // A slice's tokens of a (none when it holds one: `T % 1` would cover T twice).
  const std::optional<Expr> tIn =
      aTokens > 1 ? std::optional<Expr>(axisDigit(a.t, T, aTokens, 1)) : std::nullopt;
  // a's token split over the ring (none when the ring is one block of a).
  const std::optional<Expr> tOut =
      p.aSplit > 1 ? std::optional<Expr>(axisDigit(a.t, T, p.perCluster, aTokens)) : std::nullopt;
  Expr aSlice = pairOf({qo, tOut, qi / F});
  y.adm = b.dm("adm", bf, a.oa, aSlice, pairOf({tIn, a.qp % F}));
  y.af = b.stream("af", bf, a.oa, aSlice, tIn ? *tIn : Expr::one(), a.qp % F);
  Expr aTime = pairOf({tIn, tOut, qi / F});
  y.as = b.stream("as", bf, a.oa, pairOf({qo, a.ring}), aTime, a.qp % F);
  Expr wSlice = pairOf({qo, a.hx / RS});
  y.owdm = b.dm("owdm", bf, a.ow, wSlice, Expr::pair({a.hx % RS, qi}));
  y.owload = b.stream("owload", bf, a.ow, wSlice,
                      Expr::pair({a.hx % LN, a.hx % RS / LN, qi / F}), a.qp % F);
  y.owtrf = b.trf("owtrf", bf, a.ow, wSlice, a.hx % LN, Expr::pair({a.hx % RS / LN, qi}));
  Expr pSlice = Expr::pair({a.ks, a.hx / RS});
  y.oacc = b.stream("oacc", f, a.oa, pSlice, pairOf({tIn, tOut, a.hx % RS / LN}), a.hx % LN);
  y.part = b.dm("part", f, a.oa, pSlice,
                pairOf({xt < p.perCluster
                            ? std::optional<Expr>(axisDigit(a.t, T, p.perCluster, xt))
                            : std::nullopt,
                        axisDigit(a.t, T, xt, 1), a.hx % RS}));
  if (!p.oProjByHalf)
    return;
  // A half's tokens over x's axes: a slice of a holds r = aTokens / xt of x's token groups
  // (KG % r) of each of its ring's (KG / r), and of each group the half's u tokens (U, every
  // other run of u in a slice of a).
  const int64_t r = aTokens / xt;
  const std::optional<Expr> kgIn = r > 1 ? std::optional<Expr>(a.kg % r) : std::nullopt;
  const std::optional<Expr> kgOut = p.aSplit > 1 ? std::optional<Expr>(a.kg / r) : std::nullopt;
  Expr hSlice = pairOf({qo, kgOut, qi / F});
  y.ahalf = b.dm("ahalf", bf, a.kcl, hSlice, pairOf({kgIn, a.u.pad(xt), a.qp % F}));
  y.afh = b.stream("afh", bf, a.kcl, hSlice, pairOf({kgIn, a.u}), a.qp % F);
  y.ash = b.stream("ash", bf, a.kcl, pairOf({qo, a.ring}), pairOf({kgIn, a.u, kgOut, qi / F}),
                   a.qp % F);
  y.oacch = b.stream("oacch", f, a.kcl, pSlice, pairOf({kgIn, a.u, kgOut, a.hx % RS / LN}),
                     a.hx % LN);
}

// x's halves: the residual on each part of x (a.hx), the norm over all of H (x's slices
// [KG, hs], each holding the part digit hpo when x is in parts).
inline void declareHalves(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, int64_t T,
                   DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t RS = p.rowsPerSlice, LN = p.lanes, tr = p.trRows;
  const int64_t tv = b.target().transposeValidElements;
  const int64_t subF32 = b.target().subFetchAccessBytes / 4;
  const Expr hx = a.hx, h = a.h;
  Expr xs = Expr::pair({a.kg, hx / RS}), xf = Expr::pair({a.kg, a.hs});
  const ProjectionTokens pt = projectionTokens(T, b.target());
  y.xv =
      b.hbm("xv", bf,
            decoderXLayout({{"KC", p.used}, {"KG", p.groups}, {"KH", p.halves}, {"U", p.u}}, pt,
                           T, RS));
  y.xj = b.dm("xj", bf, a.kcl, xf, pairOf({a.kh, a.hpo, a.u, h % RS}));
  y.half = b.dm("half", bf, a.kcl, xs, Expr::pair({a.u, hx % RS}));
  Expr uPadded = p.halves > 1 ? a.u.pad(p.perSlice) : a.u;
  // A half's partial sums: o_proj's own (by halves), else a view of all of them.
  y.parth =
      b.dm("parth", f, p.split ? a.oa : a.kcl, Expr::pair({a.ks, hx / RS}),
           Expr::pair({a.kg, p.oProjByHalf ? a.u : uPadded, hx % RS}));
  y.parts = b.dm("parts", f, a.kcl, xs,
                 p.split ? Expr::pair({a.oc, a.ks, a.u, hx % RS})
                         : Expr::pair({a.ks, a.u, hx % RS}));
  y.one = b.dm("one", f, a.kcl, xs, Expr::pair({a.u, hx % RS}));
  Expr oTime = Expr::pair({a.u, hx % RS / LN});
  y.ones = b.stream("ones", f, a.kcl, xs, oTime, hx % LN);
  y.onesb = b.stream("onesb", bf, a.kcl, xs, oTime, hx % LN);
  y.onevrf = b.vrf("onevrf", f, a.kcl, xs, Expr::pair({a.u, hx % RS}));
  y.hfull = y.half, y.mones = y.ones, y.mone = y.one;
  if (p.xParts > 1) {
    y.rjoin = b.dm("rjoin", bf, a.kcl, xs, Expr::pair({a.hp, a.u, hx % RS}));
    y.hfull = b.dm("hfull", bf, a.kcl, xf, Expr::pair({*a.hpo, a.u, h % RS}));
    y.mones = b.stream("mones", f, a.kcl, xf, Expr::pair({a.u, *a.hpo, h % RS / LN}), h % LN);
    y.mone = b.dm("mone", f, a.kcl, xf, Expr::pair({a.u, *a.hpo, h % RS}));
  }
  // The transposes' token blocks (U / tr, absent when a half is one block); x's part digit
  // (when in parts) after them.
  Expr uIn = p.u > tr ? a.u % tr : a.u;
  auto uOuter = [&](std::vector<std::optional<Expr>> items) {
    if (a.hpo)
      items.insert(items.begin() + (items[0] ? 0 : 1), *a.hpo);
    return withOuter(std::move(items), a.u, p.u, tr);
  };
  const Type trt = p.trF32 ? f : bf; // the transposes' element type
  y.trin = b.stream("trin", trt, a.kcl, xf, uOuter({std::nullopt, uIn, h % RS / tv}), h % tv);
  y.trout = b.stream("trout", trt, a.kcl, xf, uOuter({std::nullopt, h % RS / tv, h % tv}), uIn);
  y.xtc = b.dm("xtc", trt, a.kcl, xf, uOuter({std::nullopt, h % RS, uIn}));
  y.sqin = b.stream("sqin", f, a.kcl, xf, uOuter({h % RS, std::nullopt}), uIn);
  Expr rs = Expr::pair({a.kg, a.ring});
  y.ssc = b.stream("ssc", f, a.kcl, rs, withOuter({std::nullopt}, a.u, p.u, tr), uIn);
  y.ssdm = b.dm("ssdm", f, a.kcl, rs, a.u);
  auto [sssTime, sssPacket] = timePacket(a.u, p.u, p.flitF32);
  y.sss = b.stream("sss", f, a.kcl, rs, sssTime, sssPacket);
  auto [rsubTime, rsubPacket] = timePacket(a.u, p.u, subF32);
  y.rsub = b.stream("rsub", f, a.kcl, rs, rsubTime, rsubPacket);
  y.rvrf = b.vrf("rvrf", f, a.kcl, rs, a.u);
  Expr ws = Expr::pair({a.rg, a.hs});
  y.wn = b.dm("wn", bf, a.wcl, ws, pairOf({a.hpo, h % RS}));
  y.wnsub = b.stream("wnsub", f, a.wcl, ws, pairOf({a.hpo, h % RS / subF32}), h % subF32);
  y.wnvrf = b.vrf("wnvrf", f, a.wcl, ws, pairOf({a.hpo, h % RS}));
  y.xws = b.stream("xws", f, a.kcl, xf, pairOf({a.hpo, h % RS / LN, a.u}), h % LN);
}

// h's broadcast for gate/up (every pass alike).
inline void declareBroadcast(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a,
                             DecoderTypes &y) {
  Type bf = b.bf16();
  const int64_t RS = p.rowsPerSlice;
  Expr xs = Expr::pair({a.kg, a.hx / RS});
  const bool split = p.hParts > 1;
  const int64_t HL = p.hPart;
  // The broadcast keeps a part of H on its run of slices (the input's outer slice digit).
  y.xf = b.stream("xf", bf, a.hb, split ? Expr::pair({a.kg, a.hx / HL, a.hx % HL / RS}) : xs, a.u,
                  a.hx % RS);
  y.xn = split ? b.stream("xn", bf, a.hb, Expr::pair({a.kg, a.hx / HL, a.xp}),
                          Expr::pair({a.u, a.hx % HL / RS}), a.hx % RS)
               : b.stream("xn", bf, a.hb, a.all, Expr::pair({a.u, a.kg, a.hx / RS}), a.hx % RS);
}

// gate/up's and silu's types of a pass (`sfx` appended to their aliases: a shorter last pass's
// own).
inline void declareGateUp(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a,
                          DecoderTypes &y, const std::string &sfx = "") {
  Type bf = b.bf16(), f = b.f32();
  const int64_t PR = p.pairRows, LN = p.lanes, F = p.flit;
  const Expr l = a.lp;
  const bool split = p.hParts > 1;
  const int64_t HL = p.hPart;
  const Expr hk = split ? a.hx % HL : a.hx; // a part's values of H
  // A lane's pairs (none when a lane holds one).
  const std::optional<Expr> lj = PR > LN ? std::optional<Expr>(l % PR / LN) : std::nullopt;
  const std::optional<Expr> jj = PR > LN ? std::optional<Expr>(a.j) : std::nullopt;
  const bool padded = p.pairSlices < p.slices;
  Expr ls = padded ? (l / PR).pad(p.slices) : l / PR;
  if (p.split) { // a pass's weights on each cluster (of the cluster's run of L)
    const int64_t run = p.intermediate / p.clusters;
    const Expr hRow = p.xParts > 1 ? a.hx.pad(p.hx * p.xParts) : a.h; // a part's values of a row
    y.lwp = b.hbm("lwp" + sfx, bf, Expr::pair({a.mc, run > p.lPass ? l.pad(run) : l, hRow}));
    y.dwp = b.hbm("dwp" + sfx, bf, Expr::pair({a.hx, a.mc, run > p.lPass ? l.pad(run) : l}));
  } else if (p.passes > 1 || p.xParts > 1) { // a pass's (and a part's) rows
    y.lwp = b.hbm("lwp" + sfx, bf, Expr::pair({l, p.xParts > 1 ? a.hx.pad(p.hx * p.xParts) : a.h}));
    const Expr lAll = p.lPass < p.intermediate ? l.pad(p.intermediate) : l;
    y.dwp = b.hbm("dwp" + sfx, bf, Expr::pair({a.hx, lAll}));
  }
  // The contraction's slices: [part of H, pair slice] when H is in parts.
  const Expr lsp = p.pairSlices < p.partSlices ? (l / PR).pad(p.partSlices) : l / PR;
  const Expr lw = split ? Expr::pair({a.hx / HL, lsp}) : ls;
  const Expr la = split ? Expr::pair({a.hp, lsp}) : ls;
  // gate's and up's rows: apart (gateUpApart), each its own TRF tensor and sums, else together
  // (GU, the row's matrix, between a lane's pairs and H).
  const std::optional<Expr> gu = p.gateUpApart ? std::nullopt : std::optional<Expr>(a.gu);
  y.guh = b.dm("guh" + sfx, bf, a.mw, lw, Expr::pair({l % PR, hk}));
  if (p.weightHalves) { // each half of a slice's rows: LG slices, LR rows, halves LJ
    Expr lg = b.axis("LG", p.pairSlices), lj = b.axis("LJ", 2), lr = b.axis("LR", PR / 2);
    Expr slices = padded ? lg.pad(p.slices) : lg;
    y.lwh = b.hbm("lwh", bf, Expr::pair({lg, Expr::one().pad(2), lr, hk}));
    y.guhh = b.dm("guhh", bf, a.mw, slices, Expr::pair({lr, hk}));
    y.guhj = b.dm("guhj", bf, a.mw, slices, Expr::pair({lj, lr, hk}));
  }
  if (!p.gateUpApart)
    y.gudm = b.dm("gudm" + sfx, bf, a.mw, lw, Expr::pair({a.gu, l % PR, hk}));
  y.guload = b.stream("guload" + sfx, bf, a.mw, lw, pairOf({l % LN, lj, gu, hk / F}), a.hx % F);
  y.gutrf = b.trf("gutrf" + sfx, bf, a.mw, lw, l % LN, pairOf({lj, gu, hk}));
  // (x's slices are one token group when H is in parts: the group stays in the slices.)
  const std::optional<Expr> kg = split ? std::nullopt : std::optional<Expr>(a.kg);
  y.guacc = b.stream("guacc" + sfx, f, a.ml, la, pairOf({a.u, kg, lj, gu}), l % LN);
  y.gures = b.dm("gures" + sfx, f, a.ml, la, pairOf({a.kg, a.u, lj, gu, l % LN}));
  // gate/up's parts of H (and x's) gathered and added on the pass's cluster (with the weights
  // split, each cluster its own passes; else every cluster in use).
  if (split)
    y.gparts = b.dm("gparts" + sfx, f, a.ml, ls, pairOf({a.hp, a.kg, a.u, lj, a.gu, l % LN}));
  if (split || p.xParts > 1) {
    y.gone = b.dm("gone" + sfx, f, a.ml, ls, pairOf({a.kg, a.u, lj, a.gu, l % LN}));
    y.gones = b.stream("gones" + sfx, f, a.ml, ls, pairOf({a.kg, a.u, lj, a.gu}), l % LN);
    y.gonevrf = b.vrf("gonevrf" + sfx, f, a.ml, ls, pairOf({a.kg, a.u, lj, a.gu, l % LN}));
  }
  if (p.sumChunks > 1) { // a chunk of a half's token rows [KG, U]
    y.gchunk = b.dm("gchunk" + sfx, f, a.kcl, ls, pairOf({a.ucs, lj, a.gu, l % LN}));
    y.gchunks = b.stream("gchunks" + sfx, f, a.kcl, ls, pairOf({a.ucs, lj, a.gu}), l % LN);
    y.gchunkvrf = b.vrf("gchunkvrf" + sfx, f, a.kcl, ls, pairOf({a.ucs, lj, a.gu, l % LN}));
    y.gchunkj = b.dm("gchunkj" + sfx, f, a.kcl, ls, pairOf({a.scs, a.ucs, lj, a.gu, l % LN}));
  }
  Expr lsv = padded ? a.ls.pad(p.slices) : a.ls;
  // A chunk of g or of u: every other lane's width of the sums together, or a tensor apart.
  y.gview = b.dm("gview" + sfx, f, a.ml, lsv,
                 pairOf({a.uc, jj, p.gateUpApart ? a.ln : a.ln.pad(2 * LN)}));
  y.gs = b.stream("gs" + sfx, f, a.ml, lsv, pairOf({a.uc, jj}), a.ln);
  y.gsb = b.stream("gsb" + sfx, bf, a.ml, lsv, pairOf({a.uc, jj}), a.ln);
  y.uvrf = b.vrf("uvrf" + sfx, f, a.ml, lsv, pairOf({a.uc, jj, a.ln}));
  y.pc = b.dm("pc" + sfx, bf, a.ml, lsv, pairOf({a.uc, jj, a.ln}));
  y.pj = b.dm("pj" + sfx, bf, a.ml, lsv, pairOf({a.sc, a.uc, jj, a.ln}));
  y.ph = b.dm("ph" + sfx, bf, a.ml, ls, Expr::pair({a.kg, a.u, l % PR}));
}

// down's types of a pass (`sfx` appended to their aliases: a shorter last pass's own).
inline void declareDown(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a,
                        DecoderTypes &y, const std::string &sfx = "") {
  Type bf = b.bf16(), f = b.f32();
  const int64_t RS = p.rowsPerSlice, LN = p.lanes, F = p.flit;
  const int64_t db = p.dBlock, dv = p.dValues, ds = p.dSplit;
  // A token's flits on a ring slice (none when it holds one).
  const std::optional<Expr> ldv =
      dv > F ? std::optional<Expr>(a.lp % dv / F) : std::nullopt;
  const Expr l = a.lp;
  const bool padded = p.pairSlices < p.slices;
  Expr ls = padded ? (l / p.pairRows).pad(p.slices) : l / p.pairRows;
  // A pass of one K block: the block is the whole of l.
  Expr lb = p.dBlocks > 1 ? l % db : l;
  Expr blocks = p.dBlocks == 1 ? Expr::one().pad(p.groups)
                : p.dBlocks < p.groups ? (l / db).pad(p.groups)
                                       : l / db;
  Expr kdBlocks = p.dBlocks < p.groups ? a.kd.pad(p.groups) : a.kd;
  // The ring's slices beyond a block's split the token groups: dSplit of them on the ring
  // (kOut), the rest (kIn) in time.
  // With one token group (groups < dSplit) the ring's rest splits a piece's tokens instead:
  // dSplit blocks of them on the ring (kOut), each block's tokens in time (kIn).
  const bool tokenSplit = p.groups < ds;
  const int64_t kInN = tokenSplit ? p.pu / ds : p.groups / ds;
  const Expr kOut = tokenSplit ? (kInN > 1 ? a.pu / kInN : a.pu) : kInN > 1 ? a.kg / kInN : a.kg;
  const std::optional<Expr> kIn =
      kInN > 1 ? std::optional<Expr>(tokenSplit ? a.pu % kInN : a.kg % kInN) : std::nullopt;
  const std::optional<Expr> tq = tokenSplit ? std::nullopt : std::optional<Expr>(a.pu);
  Expr pu = p.pieces > 1 ? a.pu.pad(p.u) : a.pu;
  y.pq = b.dm("pq" + sfx, bf, a.ml, ls, Expr::pair({a.kg, pu, l % p.pairRows}));
  Expr dSlice = Expr::pair({blocks, kOut, lb / dv});
  // A slice of p holds pairRows values of L a token. With fewer than a flit's, each flit's runs
  // of pairRows go outermost, so the DMA moves a run for all of the slice's tokens at once
  // (packets of tokens x pairRows values, not of pairRows values); the fetch then reads a flit in
  // as many pieces, hidden behind the ring's broadcast.
  const int64_t PR = p.pairRows;
  const std::optional<Expr> lRun = PR < F ? std::optional<Expr>(l % F / PR) : std::nullopt;
  y.ddm = b.dm("ddm" + sfx, bf, a.ml, dSlice, pairOf({ldv, lRun, kIn, tq, l % std::min(F, PR)}));
  const bool dfOne = !kIn && !tq && !ldv; // a token's flit alone on its slice
  y.df = b.stream("df" + sfx, bf, a.ml, dSlice, dfOne ? Expr::one() : pairOf({kIn, tq, ldv}),
                  l % F);
  y.ds = b.stream("ds" + sfx, bf, a.ml, Expr::pair({blocks, a.ring}),
                  pairOf({kIn, tq, ldv, kOut, lb / dv}), l % F);
  Expr wSlice = Expr::pair({blocks, a.hx / RS});
  y.dwdm = b.dm("dwdm" + sfx, bf, a.mw, wSlice, Expr::pair({a.hx % RS, lb}));
  y.dwload = b.stream("dwload" + sfx, bf, a.mw, wSlice,
                      pairOf({a.hx % LN, a.hx % RS / LN, ldv, lb / dv}), l % F);
  y.dwtrf = b.trf("dwtrf" + sfx, bf, a.mw, wSlice, a.hx % LN,
                  pairOf({a.hx % RS / LN, ldv, lb / dv, l % F}));
  Expr pSlice = Expr::pair({kdBlocks, a.hx / RS});
  y.dacc = b.stream("dacc" + sfx, f, a.ml, pSlice,
                    pairOf({kIn, tq, kOut, a.hx % RS / LN}), a.hx % LN);
  y.dpart = b.dm("dpart" + sfx, f, a.ml, pSlice, Expr::pair({a.kg, a.pu, a.hx % RS}));
  if (downSumsInPlace(p)) // read where committed: downPartials moves nothing
    y.dparts = y.dpart;
  else
    y.dparts = b.dm("dparts" + sfx, f, a.ycl, Expr::pair({a.ykg, a.hx / RS}),
                    p.split ? Expr::pair({a.mc, a.kd, a.pu, a.hx % RS})
                            : Expr::pair({a.kd, a.pu, a.hx % RS}));
}

// down's partial sums added and y (every pass alike).
inline void declareDownSums(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, int64_t T,
                            DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t RS = p.rowsPerSlice, LN = p.lanes;
  Expr xs = Expr::pair({a.ykg, a.hx / RS});
  y.qone = b.dm("qone", f, a.ycl, xs, Expr::pair({a.pu, a.hx % RS}));
  Expr qTime = Expr::pair({a.pu, a.hx % RS / LN});
  y.qones = b.stream("qones", f, a.ycl, xs, qTime, a.hx % LN);
  y.qonesb = b.stream("qonesb", bf, a.ycl, xs, qTime, a.hx % LN);
  y.qonevrf = b.vrf("qonevrf", f, a.ycl, xs, Expr::pair({a.pu, a.hx % RS}));
  y.piece = b.dm("piece", bf, a.ycl, xs, Expr::pair({a.pu, a.hx % RS}));
  y.rpiece = sumsByTokenGroup(p) ? b.dm("rpiece", bf, a.kcl, Expr::pair({a.kg, a.hx / RS}),
                                          Expr::pair({a.pu, a.hx % RS}))
                                   : y.piece;
  // y's pieces, joined: with x in parts [piece, part] pieces re-spelt over H.
  if (p.xParts > 1)
    y.yjoin = b.dm("yjoin", bf, a.kcl, xs, Expr::pair({a.kpx, a.pu, a.hx % RS}));
  y.yq = b.dm("yq", bf, a.ycl, Expr::pair({a.ykg, a.hs}),
              pairOf({a.kp, a.hpo, a.pu, a.h % RS}));
  const ProjectionTokens pt = projectionTokens(T, b.target());
  y.yv =
      b.hbm("yv", bf,
            decoderXLayout(
                {{"KC", p.used}, {"KG", p.groups}, {"KP", p.halves * p.pieces}, {"PU", p.pu}},
                pt, T, RS));
}

// The axes of a shorter last pass (`q`, decoderTailPlan): its values of L, pair slices and K
// blocks.
inline DecoderAxes declareTailAxes(StageBuilder &b, const DecoderPlan &q, const DecoderAxes &a) {
  DecoderAxes t = a;
  t.lp = b.axis("LT", q.lPass);
  t.ls = b.axis("LST", q.pairSlices);
  t.kd = b.axis("KDT", q.dBlocks);
  return t;
}

inline DecoderTypes declareTypes(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p,
                          const DecoderAxes &a, int64_t T) {
  DecoderTypes y;
  Type bf = b.bf16();
  const int64_t F = p.flit, RS = p.rowsPerSlice;
  y.ah = b.hbm("ah", bf, Expr::pair({a.q / F, a.t, a.q % F}));
  // x and y as prefill_projection reads x: blocks of `tile` tokens, each row slice's part of a
  // block contiguous.
  const ProjectionTokens pt = projectionTokens(T, b.target());
  const TokenAxes overT = {{"T", T}};
  y.x = b.hbm("x", bf, decoderXLayout(overT, pt, T, RS));
  y.xLayout = decoderXLayout(overT, pt, T, RS).str();
  y.vec = b.hbm("vec", bf, a.h);
  y.ow = b.hbm("ow", bf, Expr::pair({a.h, a.q}));
  y.lw = b.hbm("lw", bf, Expr::pair({a.l, a.h}));
  y.dw = b.hbm("dw", bf, Expr::pair({a.h, a.l}));
  declareOProj(b, p, a, T, y);
  declareHalves(b, p, a, T, y);
  declareBroadcast(b, p, a, y);
  declareGateUp(b, p, a, y);
  declareDown(b, p, a, y);
  declareDownSums(b, p, a, T, y);
  return y;
}

} // namespace rngd::placement::qwen3::prefill_decoder
