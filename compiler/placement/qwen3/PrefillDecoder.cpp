// `prefill_decoder`: the rest of a layer after attention for a block of T tokens: o_proj and the
// residual, RMSNorm, silu(gate) x up, down and the residual. Weight-stationary contractions (each
// weight on one slice of each cluster in use), the activations broadcast around rings
// (kernels/qwen3/prefill_decoder.mlir was the hand-placed original; docs/prefill.md).
#include "compiler/placement/qwen3/PrefillDecoderPlan.h"
#include "compiler/placement/qwen3/Stages.h"

#include <cstdio>
#include <optional>
#include <string>

namespace rngd::placement::qwen3 {

namespace {

using mlir::Type;
using mlir::Value;
using tcp::Context;

constexpr const char *kStage = "prefill_decoder";

std::string num(int64_t n) { return std::to_string(n); }

// The types, under the hand-placed file's aliases.
struct DecoderTypes {
  Type ah, x, vec, ow, lw, dw;
  Type adm, af, as, owdm, owload, owtrf, oacc, part;
  Type xv, xj, half, parth, parts, one, ones, onesb, onevrf;
  Type trin, trout, xtc, sqin, ssc, ssdm, sss, rsub, rvrf, wn, wnsub, wnvrf, xws;
  Type lwp, dwp; // a pass's gate/up and down weights (passes > 1)
  Type xf, xn, guh, gudm, guload, gutrf, guacc, gures, gview, gs, gsb, uvrf, pc, pj, ph;
  Type pq, ddm, df, ds, dwdm, dwload, dwtrf, dacc, dpart, dparts, qone, qones, qonesb, qonevrf,
      quarter, yq, yv;
  std::string xLayout; // x's HBM mapping, for the header
};

// The axes every type uses.
struct DecoderAxes {
  // (Expr has no default; each is set by declareAxes.)
  Expr t = Expr::one(), h = t, q = t, l = t, ring = t, all = t, kc = t, kg = t, u = t, kh = t,
       ks = t, kd = t, rg = t, gu = t, ls = t, uc = t, sc = t, j = t, ln = t, uq = t, kq = t;
  Expr lp = t;  // a pass's values of L (L itself when there is one pass)
  Expr tc = t;  // the cluster of a token-indexed tensor (over T)
  Expr kcl = t; // the cluster of a tensor over x's view axes
  Expr wcl = t; // the cluster of a weight (one copy per cluster in use)
};

DecoderAxes declareAxes(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p, int64_t T) {
  DecoderAxes a;
  a.t = b.axis("T", T);
  a.h = b.axis("H", s.hidden);
  a.q = b.axis("Q", s.qDim());
  a.l = b.axis("L", s.intermediate);
  a.lp = p.passes > 1 ? b.axis("LP", p.lPass) : a.l; // a pass's values of L
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
  a.uq = b.axis("UQ", p.uq);                          // a quarter's tokens of a slice
  a.kq = b.axis("KQ", p.halves * p.quarters);         // the quarters
  const bool all = p.used == p.clusters;
  a.tc = all ? axisDigit(a.t, T, T, p.perCluster) : Expr::one().pad(p.clusters);
  a.kcl = all ? a.kc : Expr::one().pad(p.clusters);
  a.wcl = all ? cw : Expr::one().pad(p.clusters);
  return a;
}

void declareOProj(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, int64_t T,
                  DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t F = p.flit, RS = p.rowsPerSlice, LN = p.lanes, ob = p.oBlock;
  const int64_t aTokens = p.perCluster / p.aSplit, xt = p.perSlice;
  const Expr tIn = axisDigit(a.t, T, aTokens, 1), tOut = axisDigit(a.t, T, p.perCluster, aTokens);
  Expr aSlice = Expr::pair({a.q / ob, tOut, a.q % ob / F});
  y.adm = b.dm("adm", bf, a.tc, aSlice, Expr::pair({tIn, a.q % F}));
  y.af = b.stream("af", bf, a.tc, aSlice, tIn, a.q % F);
  Expr aTime = Expr::pair({tIn, tOut, a.q % ob / F});
  y.as = b.stream("as", bf, a.tc, Expr::pair({a.q / ob, a.ring}), aTime, a.q % F);
  Expr wSlice = Expr::pair({a.q / ob, a.h / RS});
  y.owdm = b.dm("owdm", bf, a.wcl, wSlice, Expr::pair({a.h % RS, a.q % ob}));
  y.owload = b.stream("owload", bf, a.wcl, wSlice,
                      Expr::pair({a.h % LN, a.h % RS / LN, a.q % ob / F}), a.q % F);
  y.owtrf = b.trf("owtrf", bf, a.wcl, wSlice, a.h % LN, Expr::pair({a.h % RS / LN, a.q % ob}));
  Expr pSlice = Expr::pair({a.ks, a.h / RS});
  y.oacc = b.stream("oacc", f, a.tc, pSlice, Expr::pair({tIn, tOut, a.h % RS / LN}), a.h % LN);
  y.part = b.dm("part", f, a.tc, pSlice,
                Expr::pair({axisDigit(a.t, T, p.perCluster, xt), axisDigit(a.t, T, xt, 1),
                            a.h % RS}));
}

void declareHalves(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, int64_t T,
                   DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t RS = p.rowsPerSlice, LN = p.lanes, tr = p.trRows;
  const int64_t tv = b.target().transposeValidElements;
  const int64_t subF32 = b.target().subFetchAccessBytes / 4;
  Expr xs = Expr::pair({a.kg, a.h / RS});
  const ProjectionTokens pt = projectionTokens(T, b.target());
  y.xv =
      b.hbm("xv", bf,
            decoderXLayout({{"KC", p.used}, {"KG", p.groups}, {"KH", p.halves}, {"U", p.u}}, pt,
                           T, RS));
  y.xj = b.dm("xj", bf, a.kcl, xs, Expr::pair({a.kh, a.u, a.h % RS}));
  y.half = b.dm("half", bf, a.kcl, xs, Expr::pair({a.u, a.h % RS}));
  Expr uPadded = p.halves > 1 ? a.u.pad(p.perSlice) : a.u;
  y.parth =
      b.dm("parth", f, a.kcl, Expr::pair({a.ks, a.h / RS}), Expr::pair({a.kg, uPadded, a.h % RS}));
  y.parts = b.dm("parts", f, a.kcl, xs, Expr::pair({a.ks, a.u, a.h % RS}));
  y.one = b.dm("one", f, a.kcl, xs, Expr::pair({a.u, a.h % RS}));
  Expr oTime = Expr::pair({a.u, a.h % RS / LN});
  y.ones = b.stream("ones", f, a.kcl, xs, oTime, a.h % LN);
  y.onesb = b.stream("onesb", bf, a.kcl, xs, oTime, a.h % LN);
  y.onevrf = b.vrf("onevrf", f, a.kcl, xs, Expr::pair({a.u, a.h % RS}));
  // The transposes' token blocks (U / tr, absent when a half is one block).
  Expr uIn = p.u > tr ? a.u % tr : a.u;
  auto uOuter = [&](std::vector<std::optional<Expr>> items) {
    return withOuter(std::move(items), a.u, p.u, tr);
  };
  y.trin = b.stream("trin", bf, a.kcl, xs, uOuter({std::nullopt, uIn, a.h % RS / tv}), a.h % tv);
  y.trout = b.stream("trout", bf, a.kcl, xs, uOuter({std::nullopt, a.h % RS / tv, a.h % tv}), uIn);
  y.xtc = b.dm("xtc", bf, a.kcl, xs, uOuter({std::nullopt, a.h % RS, uIn}));
  y.sqin = b.stream("sqin", f, a.kcl, xs, uOuter({a.h % RS, std::nullopt}), uIn);
  Expr rs = Expr::pair({a.kg, a.ring});
  y.ssc = b.stream("ssc", f, a.kcl, rs, uOuter({std::nullopt}), uIn);
  y.ssdm = b.dm("ssdm", f, a.kcl, rs, a.u);
  auto [sssTime, sssPacket] = timePacket(a.u, p.u, p.flitF32);
  y.sss = b.stream("sss", f, a.kcl, rs, sssTime, sssPacket);
  y.rsub = b.stream("rsub", f, a.kcl, rs, a.u / subF32, a.u % subF32);
  y.rvrf = b.vrf("rvrf", f, a.kcl, rs, a.u);
  Expr ws = Expr::pair({a.rg, a.h / RS});
  y.wn = b.dm("wn", bf, a.wcl, ws, a.h % RS);
  y.wnsub = b.stream("wnsub", f, a.wcl, ws, a.h % RS / subF32, a.h % subF32);
  y.wnvrf = b.vrf("wnvrf", f, a.wcl, ws, a.h % RS);
  y.xws = b.stream("xws", f, a.kcl, xs, Expr::pair({a.h % RS / LN, a.u}), a.h % LN);
}

void declareGateUp(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t RS = p.rowsPerSlice, PR = p.pairRows, LN = p.lanes, F = p.flit;
  const Expr l = a.lp;
  Expr xs = Expr::pair({a.kg, a.h / RS});
  y.xf = b.stream("xf", bf, a.kcl, xs, a.u, a.h % RS);
  y.xn = b.stream("xn", bf, a.kcl, a.all, Expr::pair({a.u, a.kg, a.h / RS}), a.h % RS);
  // A lane's pairs (none when a lane holds one).
  const std::optional<Expr> lj = PR > LN ? std::optional<Expr>(l % PR / LN) : std::nullopt;
  const std::optional<Expr> jj = PR > LN ? std::optional<Expr>(a.j) : std::nullopt;
  const bool padded = p.pairSlices < p.slices;
  Expr ls = padded ? (l / PR).pad(p.slices) : l / PR;
  if (p.passes > 1) {
    y.lwp = b.hbm("lwp", bf, Expr::pair({l, a.h}));
    y.dwp = b.hbm("dwp", bf, Expr::pair({a.h, l.pad(p.lPass * p.passes)}));
  }
  y.guh = b.dm("guh", bf, a.wcl, ls, Expr::pair({l % PR, a.h}));
  y.gudm = b.dm("gudm", bf, a.wcl, ls, Expr::pair({a.gu, l % PR, a.h}));
  y.guload = b.stream("guload", bf, a.wcl, ls, pairOf({l % LN, lj, a.gu, a.h / F}), a.h % F);
  y.gutrf = b.trf("gutrf", bf, a.wcl, ls, l % LN, pairOf({lj, a.gu, a.h}));
  y.guacc = b.stream("guacc", f, a.kcl, ls, pairOf({a.u, a.kg, lj, a.gu}), l % LN);
  y.gures = b.dm("gures", f, a.kcl, ls, pairOf({a.kg, a.u, lj, a.gu, l % LN}));
  Expr lsv = padded ? a.ls.pad(p.slices) : a.ls;
  y.gview = b.dm("gview", f, a.kcl, lsv, pairOf({a.uc, jj, a.ln.pad(2 * LN)}));
  y.gs = b.stream("gs", f, a.kcl, lsv, pairOf({a.uc, jj}), a.ln);
  y.gsb = b.stream("gsb", bf, a.kcl, lsv, pairOf({a.uc, jj}), a.ln);
  y.uvrf = b.vrf("uvrf", f, a.kcl, lsv, pairOf({a.uc, jj, a.ln}));
  y.pc = b.dm("pc", bf, a.kcl, lsv, pairOf({a.uc, jj, a.ln}));
  y.pj = b.dm("pj", bf, a.kcl, lsv, pairOf({a.sc, a.uc, jj, a.ln}));
  y.ph = b.dm("ph", bf, a.kcl, ls, Expr::pair({a.kg, a.u, l % PR}));
}

void declareDown(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &a, int64_t T,
                 DecoderTypes &y) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t RS = p.rowsPerSlice, LN = p.lanes, F = p.flit;
  const int64_t db = p.dBlock, dv = p.dValues, ds = p.dSplit;
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
  const int64_t kInN = p.groups / ds;
  const Expr kOut = kInN > 1 ? a.kg / kInN : a.kg;
  const std::optional<Expr> kIn = kInN > 1 ? std::optional<Expr>(a.kg % kInN) : std::nullopt;
  Expr uq = p.quarters > 1 ? a.uq.pad(p.u) : a.uq;
  y.pq = b.dm("pq", bf, a.kcl, ls, Expr::pair({a.kg, uq, l % p.pairRows}));
  Expr dSlice = Expr::pair({blocks, kOut, lb / dv});
  y.ddm = b.dm("ddm", bf, a.kcl, dSlice, pairOf({l % dv / F, kIn, a.uq, l % F}));
  y.df = b.stream("df", bf, a.kcl, dSlice, pairOf({kIn, a.uq, l % dv / F}), l % F);
  y.ds = b.stream("ds", bf, a.kcl, Expr::pair({blocks, a.ring}),
                  pairOf({kIn, a.uq, l % dv / F, kOut, lb / dv}), l % F);
  Expr wSlice = Expr::pair({blocks, a.h / RS});
  y.dwdm = b.dm("dwdm", bf, a.wcl, wSlice, Expr::pair({a.h % RS, lb}));
  y.dwload = b.stream("dwload", bf, a.wcl, wSlice,
                      Expr::pair({a.h % LN, a.h % RS / LN, l % dv / F, lb / dv}), l % F);
  y.dwtrf = b.trf("dwtrf", bf, a.wcl, wSlice, a.h % LN,
                  Expr::pair({a.h % RS / LN, l % dv / F, lb / dv, l % F}));
  Expr pSlice = Expr::pair({kdBlocks, a.h / RS});
  y.dacc = b.stream("dacc", f, a.kcl, pSlice,
                    pairOf({kIn, a.uq, kOut, a.h % RS / LN}), a.h % LN);
  y.dpart = b.dm("dpart", f, a.kcl, pSlice, Expr::pair({a.kg, a.uq, a.h % RS}));
  Expr xs = Expr::pair({a.kg, a.h / RS});
  y.dparts = b.dm("dparts", f, a.kcl, xs, Expr::pair({a.kd, a.uq, a.h % RS}));
  y.qone = b.dm("qone", f, a.kcl, xs, Expr::pair({a.uq, a.h % RS}));
  Expr qTime = Expr::pair({a.uq, a.h % RS / LN});
  y.qones = b.stream("qones", f, a.kcl, xs, qTime, a.h % LN);
  y.qonesb = b.stream("qonesb", bf, a.kcl, xs, qTime, a.h % LN);
  y.qonevrf = b.vrf("qonevrf", f, a.kcl, xs, Expr::pair({a.uq, a.h % RS}));
  y.quarter = b.dm("quarter", bf, a.kcl, xs, Expr::pair({a.uq, a.h % RS}));
  y.yq = b.dm("yq", bf, a.kcl, xs, Expr::pair({a.kq, a.uq, a.h % RS}));
  const ProjectionTokens pt = projectionTokens(T, b.target());
  y.yv =
      b.hbm("yv", bf,
            decoderXLayout(
                {{"KC", p.used}, {"KG", p.groups}, {"KQ", p.halves * p.quarters}, {"UQ", p.uq}},
                pt, T, RS));
}

DecoderTypes declareTypes(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p,
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
  declareGateUp(b, p, a, y);
  declareDown(b, p, a, T, y);
  return y;
}

struct DecoderArgs {
  Value attn, x, oWeight, normWeight, gateWeight, upWeight, downWeight, y;
};

std::string idx(int64_t a) { return num(a); }
std::string idx(int64_t a, int64_t b) { return num(a) + num(b); }

// o_proj's partial sums per K block for all the tokens, x's view and the norm weight.
struct OProj {
  Value part, x, normWeight;
};

OProj oProj(StageBuilder &b, const DecoderTypes &y, const DecoderArgs &a) {
  Value owd = b.dma("owd", a.oWeight, y.owdm);
  Value ow1 = b.fetch("ow1", Context::main, owd, y.owload);
  Value ow2 = b.collect("ow2", ow1);
  Value owt = b.toTrf("owt", ow2, y.owtrf);
  Value ad = b.dma("ad", a.attn, y.adm);
  Value aa1 = b.fetch("aa1", Context::main, ad, y.af);
  Value aa2 = b.switchOp("aa2", tcp::SwitchMode::broadcast1, aa1, y.as);
  Value aa3 = b.collect("aa3", aa2);
  Value oa = b.contract("oa", aa3, owt, kTimeBroadcastRows, y.oacc);
  OProj o;
  o.part = b.commit("op", oa, y.part);
  Value xv = b.view("xv", a.x, 0, y.xv);
  o.x = b.dma("xd", xv, y.xj);
  Value wnd = b.dma("wnd", a.normWeight, y.wn);
  Value n1 = b.fetch("n1", Context::sub, wnd, y.wnsub);
  Value n2 = b.collect("n2", n1);
  o.normWeight = b.toVrf("wnv", n2, y.wnvrf);
  return o;
}

// `acc` + `addend` through the VRF (the addend fetched first, into the VRF): one f32 add pass
// of the partial sums' chain. Returns the sum's stream, not yet committed.
Value addThroughVrf(StageBuilder &b, const std::string &tag, Value addend, Value acc, Type stream,
                    Type vrf) {
  Value ba = b.fetch("ob" + tag + "a", Context::main, addend, stream);
  Value bb = b.collect("ob" + tag + "b", ba);
  Value bv = b.toVrf("ob" + tag + "v", bb, vrf);
  Value ca = b.fetch("oc" + tag + "a", Context::main, acc, stream);
  Value cb = b.collect("oc" + tag + "b", ca);
  return b.vector("oc" + tag + "c", cb, {Step::vrfOf("add_f", bv)});
}

// r = bf16(((p0 + p1) + p2) + ... + x) for a half: its partial sums gathered onto x's slices.
Value residualHalf(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, const OProj &o,
                   int64_t h) {
  const int64_t cells = p.u * p.rowsPerSlice;
  const std::string H = idx(h);
  Value oph = b.dmView("op" + H, o.part, h * cells, std::nullopt, y.parth);
  Value ops = b.dma("ops" + H, oph, y.parts);
  std::vector<Value> blocks;
  for (int64_t k = 0; k < p.groups; ++k)
    blocks.push_back(b.dmView("o" + idx(h, k), ops, k * cells, std::nullopt, y.one));
  Value sum = blocks[0];
  for (int64_t k = 1; k < p.groups; ++k) {
    Value c = addThroughVrf(b, idx(h, k), blocks[size_t(k)], sum, y.ones, y.onevrf);
    sum = b.commit("os" + idx(h, k), c, y.one);
  }
  Value xh = b.dmView("x" + H, o.x, h * cells, std::nullopt, y.half);
  Value c = addThroughVrf(b, idx(h, p.groups), xh, sum, y.ones, y.onevrf);
  Value cb = b.cast("oc" + idx(h, p.groups) + "d", c, y.onesb);
  return b.commit("r" + H, cb, y.half);
}

// h = bf16(RMSNorm(r) w) for a half, as prefill_projection normalises x: the transpose puts
// tokens in the lanes, the reducer's slots sum the half's tokens, the inter-slice reducer a
// row's slices.
Value normHalf(StageBuilder &b, const Qwen3Shape &s, const DecoderTypes &y, const OProj &o, Value r,
               int64_t h) {
  const std::string H = idx(h);
  Value ta = b.fetch("t" + H + "a", Context::main, r, y.trin);
  Value tb = b.collect("t" + H + "b", ta);
  Value tc = b.transpose("t" + H + "c", tb, y.trout);
  Value xt = b.commit("xt" + H, tc, y.xtc);
  Value qa = b.fetch("sq" + H + "a", Context::main, xt, y.sqin);
  Value qb = b.collect("sq" + H + "b", qa);
  Value qc = b.vector(
      "sq" + H + "c", qb,
      {Step::op("stash"), Step::stash("mul_f"), Step::op("reduce_add_f"), Step::op("inter_add_f")},
      y.ssc);
  Value ss = b.commit("ss" + H, qc, y.ssdm);
  Value ra = b.fetch("rs" + H + "a", Context::main, ss, y.sss);
  Value rb = b.collect("rs" + H + "b", ra);
  Value rc =
      b.vector("rs" + H + "c", rb,
               {Step::fma(float(1.0 / double(s.hidden)), float(s.rmsNormEps)), Step::op("sqrt_f")});
  Value rd = b.commit("rd" + H, rc, y.ssdm);
  Value va = b.fetch("rv" + H + "a", Context::sub, rd, y.rsub);
  Value vb = b.collect("rv" + H + "b", va);
  Value rv = b.toVrf("rv" + H, vb, y.rvrf);
  Value ma = b.fetch("m" + H + "a", Context::main, r, y.ones);
  Value mb = b.collect("m" + H + "b", ma);
  Value mc = b.vector("m" + H + "c", mb, {Step::vrfOf("mul_f", o.normWeight)});
  Value xw = b.commit("xw" + H, mc, y.one);
  Value da = b.fetch("dv" + H + "a", Context::main, xw, y.xws);
  Value db = b.collect("dv" + H + "b", da);
  Value dc = b.vector("dv" + H + "c", db, {Step::vrfOf("div_f", rv)});
  return b.commit("hn" + H, dc, y.half, /*castToBf16=*/true);
}

// The names' tag of MLP pass `c` (none when there is one pass).
std::string passTag(const DecoderPlan &p, int64_t c) { return p.passes > 1 ? "p" + num(c) : ""; }

// Pass c's gate and up rows into the TRF (a view of pass c's rows when there are several).
Value gateUpWeights(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                    const DecoderArgs &a, int64_t c) {
  const std::string P = passTag(p, c);
  Value gw = a.gateWeight, uw = a.upWeight;
  if (p.passes > 1) {
    const int64_t offset = c * p.lPass * int64_t(p.rowSlices * p.rowsPerSlice);
    gw = b.view("gv" + P, gw, offset, y.lwp);
    uw = b.view("uv" + P, uw, offset, y.lwp);
  }
  Value gd = b.dma("gd" + P, gw, y.guh);
  Value ud = b.dma("ud" + P, uw, y.guh);
  Value gud = b.dmJoin("gud" + P, {gd, ud}, y.gudm);
  Value gu1 = b.fetch("gu1" + P, Context::main, gud, y.guload);
  Value gu2 = b.collect("gu2" + P, gu1);
  return b.toTrf("gut" + P, gu2, y.gutrf);
}

// gate/up for a half of pass c (h broadcast around the whole cluster), then p = bf16(silu(g) u)
// per chunk of the half's tokens, g and u through views a lane's width apart.
Value gateUpHalf(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value hn, Value gut,
                 int64_t h, int64_t pass) {
  const std::string H = idx(h) + passTag(p, pass);
  Value ba = b.fetch("hb" + H + "a", Context::main, hn, y.xf);
  Value bb = b.switchOp("hb" + H + "b", tcp::SwitchMode::broadcast1, ba, y.xn);
  Value bc = b.collect("hb" + H + "c", bb);
  Value ga = b.contract("ga" + H, bc, gut, kTimeBroadcastRows, y.guacc);
  Value gr = b.commit("gr" + H, ga, y.gures);
  const int64_t chunkCells = p.groups / p.siluChunks * p.u * p.pairRows * 2;
  std::vector<Value> chunks;
  for (int64_t c = 0; c < p.siluChunks; ++c) {
    const std::string C = idx(h, c) + passTag(p, pass);
    Value gv = b.dmView("g" + C + "a", gr, c * chunkCells, std::nullopt, y.gview);
    Value uv = b.dmView("u" + C + "a", gr, c * chunkCells + p.lanes, std::nullopt, y.gview);
    Value ub = b.fetch("u" + C + "b", Context::main, uv, y.gs);
    Value uc = b.collect("u" + C + "c", ub);
    Value u = b.toVrf("u" + C + "v", uc, y.uvrf);
    Value gb = b.fetch("g" + C + "b", Context::main, gv, y.gs);
    Value gc = b.collect("g" + C + "c", gb);
    Value gdv = b.vector(
        "g" + C + "d", gc,
        {Step::op("stash"), Step::op("sigmoid_f"), Step::stash("mul_f"), Step::vrfOf("mul_f", u)});
    Value ge = b.cast("g" + C + "e", gdv, y.gsb);
    chunks.push_back(b.commit("p" + C, ge, y.pc));
  }
  Value joined = chunks.size() > 1 ? b.dmJoin("pj" + H, chunks, y.pj) : chunks[0];
  return b.reinterpret("p" + H, joined, y.ph);
}

Value downWeights(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                  const DecoderArgs &a, int64_t c) {
  const std::string P = passTag(p, c);
  Value w = p.passes > 1 ? b.view("dv" + P, a.downWeight, c * p.lPass, y.dwp) : a.downWeight;
  Value dwd = b.dma("dwd" + P, w, y.dwdm);
  Value dw1 = b.fetch("dw1" + P, Context::main, dwd, y.dwload);
  Value dw2 = b.collect("dw2" + P, dw1);
  return b.toTrf("dwt" + P, dw2, y.dwtrf);
}

// down for a quarter of pass c: p laid out for the rings, the partial sums per K block
// gathered onto x's slices (appended to `blocks`).
void downPartials(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value ph,
                  Value dwt, int64_t h, int64_t j, int64_t c, std::vector<Value> &blocks) {
  const std::string Q = idx(h, j) + passTag(p, c);
  const int64_t cells = p.uq * p.rowsPerSlice, pCells = p.uq * p.pairRows;
  Value pq = b.dmView("pq" + Q, ph, j * pCells, std::nullopt, y.pq);
  Value pd = b.dma("pd" + Q, pq, y.ddm);
  Value da = b.fetch("dd" + Q + "a", Context::main, pd, y.df);
  Value db = b.switchOp("dd" + Q + "b", tcp::SwitchMode::broadcast1, da, y.ds);
  Value dc = b.collect("dd" + Q + "c", db);
  Value acc = b.contract("da" + Q, dc, dwt, kTimeBroadcastRows, y.dacc);
  Value dp = b.commit("dp" + Q, acc, y.dpart);
  Value dps = b.dma("dps" + Q, dp, y.dparts);
  for (int64_t k = 0; k < p.dBlocks; ++k)
    blocks.push_back(b.dmView("e" + idx(h, j) + num(c * p.dBlocks + k) + passTag(p, c), dps,
                              k * cells, std::nullopt, y.qone));
}

// y = bf16(((d0 + d1) + ...) + r) for a quarter, the blocks in L order.
Value downSum(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
              const std::vector<Value> &blocks, Value r, int64_t h, int64_t j) {
  const std::string Q = idx(h, j);
  const int64_t cells = p.uq * p.rowsPerSlice, n = int64_t(blocks.size());
  Value sum = blocks[0];
  auto add = [&](const std::string &tag, Value addend, Value acc) {
    Value fa = b.fetch("f" + tag + "a", Context::main, addend, y.qones);
    Value fb = b.collect("f" + tag + "b", fa);
    Value fv = b.toVrf("f" + tag + "v", fb, y.qonevrf);
    Value ka = b.fetch("k" + tag + "a", Context::main, acc, y.qones);
    Value kb = b.collect("k" + tag + "b", ka);
    return b.vector("k" + tag + "c", kb, {Step::vrfOf("add_f", fv)});
  };
  for (int64_t k = 1; k < n; ++k)
    sum = b.commit("ks" + Q + num(k), add(Q + num(k), blocks[size_t(k)], sum), y.qone);
  Value rq = b.dmView("rq" + Q, r, j * cells, std::nullopt, y.quarter);
  Value last = add(Q + num(n), rq, sum);
  Value cast = b.cast("k" + Q + num(n) + "d", last, y.qonesb);
  return b.commit("y" + Q, cast, y.quarter);
}

void describeDecoder(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p, int64_t T,
                     const std::string &xLayout) {
  const int64_t H = s.hidden, Q = s.qDim(), L = s.intermediate, RS = p.rowsPerSlice;
  char eps[32];
  std::snprintf(eps, sizeof eps, "%g", s.rmsNormEps);
  b.describe(
      wrapHeader("Signature:\n"
                 "  attn        [T, Q] bf16 (prefill_attention_first's a), layout [Q / " +
                 num(p.flit) + ", T, Q % " + num(p.flit) +
                 "]\n"
                 "  x, y        [T, H] bf16, the layer's input and output (the residual stream), "
                 "layout " +
                 xLayout +
                 " (prefill_projection's x)\n"
                 "  o_weight [H, Q], post_rms_weight [H], gate_weight and up_weight [L, H], "
                 "down_weight [H, L]"));
  b.describe(wrapHeader(
      "Placement: tokens split over " + num(p.used) + " of the " + num(p.clusters) + " clusters (" +
      num(p.perCluster) + " each" +
      (p.used < p.clusters ? "; a block this small is bound by the weights' DMAs, which every "
                             "cluster in use repeats"
                           : "") +
      "); each weight on one slice of each cluster in use, used by all its tokens while it sits "
      "in the TRF. After o_proj, the work runs in " +
      num(p.halves) +
      " part(s) of each "
      "cluster's tokens (" +
      num(p.u) + " of each slice's " + num(p.perSlice) +
      " in x's layout), so that one part's DMAs and short passes run beside the other's "
      "contraction.\n"
      "1. o_proj: " +
      num(H) + " rows x " + num(Q) + " is " + num(RS) + " rows x " + num(p.oBlock) +
      " per slice, so K is split in " + num(p.groups) + " blocks (KS): slice (KS, H / " + num(RS) +
      ") holds its rows (" + num(p.lanes) + " lanes, " + num(kTimeBroadcastRows) +
      " time-broadcast rows) x block KS, and the " + num(p.rowSlices) +
      " slices of a block are a ring that broadcasts a's block (" + num(p.perCluster / p.aSplit) +
      " tokens x " + num(p.flit) +
      " values per slice).\n"
      "2. Per part: a DMA gathers the " +
      num(p.groups) +
      " partial sums (f32) onto x's slices "
      "(the inter-slice reducer adds only innermost slices; the ring needs the blocks "
      "outermost), adds them and x through the VRF, then the RMSNorm of r in x's layout (the "
      "transpose puts " +
      num(p.trRows) +
      " tokens in the lanes, the reducer's slots sum the "
      "part's tokens, the inter-slice reducer a row's " +
      num(p.rowSlices) +
      " slices).\n" +
      (p.passes > 1 ? "3. gate/up and down in " + num(p.passes) + " passes of " + num(p.lPass) +
                          " values of L (each pass's weights in the TRF in turn). gate/up: " +
                          num(p.lPass)
                    : "3. gate/up: " + num(L)) +
      " pairs, " + num(p.pairRows) + " per slice on " + num(p.pairSlices) +
      " slices (each lane holds the gate and up rows of " + num(p.pairRows / p.lanes) +
      " pairs), h broadcast around the " + num(p.slices) + "-slice ring; silu(g) u in " +
      num(p.siluChunks) +
      " chunk(s) a part, u from the VRF.\n"
      "4. down: " +
      num(H) + " rows x " + num(p.lPass) + " is " + num(RS) + " rows x " + num(p.dBlock) +
      " per slice on " + num(p.dBlocks * p.rowSlices) + " slices (K in " + num(p.dBlocks) +
      " blocks); per " + num(p.quarters) +
      " piece(s) of a part, a DMA lays "
      "p out for the ring of each block (" +
      num(p.dValues) +
      " values of a token per slice), "
      "contracted in the order [L % " +
      num(p.dValues) + " / " + num(p.flit) + ", L % " + num(p.dBlock) + " / " + num(p.dValues) +
      ", L % " + num(p.flit) +
      "]; the partials are "
      "gathered and added like o_proj's, plus r.\n"
      "Each token's sums are added in the same order whatever T is, so its bits are the same.\n"
      "Rounding points: r, h, p and y are bf16; the contraction sums, the partial sums' "
      "additions, the norm and silu(g) u are f32."));
}

} // namespace

llvm::Error buildPrefillDecoder(StageBuilder &b, const Qwen3Shape &s, int64_t T) {
  llvm::Expected<DecoderPlan> plan = planPrefillDecoder(s, b.target(), T);
  if (!plan)
    return plan.takeError();
  const DecoderPlan &p = *plan;
  DecoderAxes ax = declareAxes(b, s, p, T);
  DecoderTypes y = declareTypes(b, s, p, ax, T);
  describeDecoder(b, s, p, T, y.xLayout);
  DecoderArgs a;
  a.attn = b.input("attn", y.ah);
  a.x = b.input("x", y.x);
  a.oWeight = b.input("o_weight", y.ow);
  a.normWeight = b.input("post_rms_weight", y.vec);
  a.gateWeight = b.input("gate_weight", y.lw);
  a.upWeight = b.input("up_weight", y.lw);
  a.downWeight = b.input("down_weight", y.dw);
  a.y = b.output("y", y.x);
  OProj o = oProj(b, y, a);
  std::vector<Value> r, hn, ph, out;
  for (int64_t h = 0; h < p.halves; ++h) {
    r.push_back(residualHalf(b, p, y, o, h));
    hn.push_back(normHalf(b, s, y, o, r.back(), h));
  }
  std::vector<std::vector<Value>> blocks(size_t(p.halves * p.quarters));
  for (int64_t c = 0; c < p.passes; ++c) {
    ph.clear();
    Value gut = gateUpWeights(b, p, y, a, c);
    for (int64_t h = 0; h < p.halves; ++h)
      ph.push_back(gateUpHalf(b, p, y, hn[size_t(h)], gut, h, c));
    Value dwt = downWeights(b, p, y, a, c);
    for (int64_t h = 0; h < p.halves; ++h)
      for (int64_t j = 0; j < p.quarters; ++j) {
        std::vector<Value> &bl = blocks[size_t(h * p.quarters + j)];
        downPartials(b, p, y, ph[size_t(h)], dwt, h, j, c, bl);
        if (c + 1 == p.passes)
          out.push_back(downSum(b, p, y, bl, r[size_t(h)], h, j));
      }
  }
  Value yq = out.size() > 1 ? b.dmJoin("yq", out, y.yq) : out[0];
  Value yv = b.view("yv", a.y, 0, y.yv);
  b.dmaInto(yq, yv);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
