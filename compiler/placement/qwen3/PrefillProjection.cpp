// `prefill_projection`: for a block of T tokens, x^ = RMSNorm(x); q, k, v = x^ W^T for every
// head; per-head RMSNorm and RoPE of q and k; q's heads to q_out, k's and v's rows into the
// chunk's caches. docs/prefill.md explains the layouts; the header below gives the numbers.
#include "compiler/placement/qwen3/BatchProjectionRows.h"
#include "compiler/placement/qwen3/PrefillProjectionSplit.h"
#include "compiler/placement/qwen3/PrefillProjectionText.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

using Plan = ProjectionPlan;

std::string str(int64_t v) { return std::to_string(v); }

// The builder with the plan's axes: each helper gives the digit block [lo, hi) of one axis.
struct Ctx {
  StageBuilder &b;
  const Plan &p;
  const HeadPass &hp; // the heads placed now (O: the pass's rows, HS and RH its heads)
  int64_t oRows() const { return hp.count * p.D; }
  Term hs() const { return whole("HS" + hp.suffix, hp.count); }
  Term rh() const { return whole("RH" + hp.suffix, hp.count); }
  // A slice mapping over the pass's heads, its outer term (the heads) padded to a cluster's
  // heads when the pass holds fewer.
  Expr heads(std::vector<Term> terms) const {
    if (hp.count < p.headSlots)
      terms[0] = padded(terms[0], p.headSlots);
    return cat(terms);
  }
  static Term padded(const Term &t, int64_t n) { return t ? t->pad(n) : Expr::one().pad(n); }
  // q's axis in this pass: Q when the pass holds every q head, else its own (Q + suffix).
  std::string qAxis() const { return hp.qCount == p.qHeads ? "Q" : "Q" + hp.suffix; }
  Term t(int64_t lo, int64_t hi) const { return digits("T", p.T, lo, hi); }
  Term h(int64_t lo, int64_t hi) const { return digits("H", p.H, lo, hi); }
  Term hl(int64_t lo, int64_t hi) const { return digits("HL", p.HL, lo, hi); }
  Term o(int64_t lo, int64_t hi) const { return digits("O" + hp.suffix, oRows(), lo, hi); }
  Term f(int64_t lo, int64_t hi) const { return digits("F", p.F, lo, hi); }
  Term q(int64_t lo, int64_t hi) const { return digits(qAxis(), hp.qCount * p.D, lo, hi); }
  Term d(int64_t lo, int64_t hi) const { return digits("D", p.D, lo, hi); }
  Term ax(const char *name, int64_t size) const { return whole(name, size); }
  Term repX() const { return ax("XR", p.repX); }
  // Placements: the tokens' cluster; x's slices; the weights' slices ([head, d % F / lanes]).
  Expr tc() const { return cat({t(p.TC, p.T)}); }
  Expr cl() const { return cat({ax("CL", p.C)}); }
  Expr xSlices() const { return cat({repX(), t(p.tps, p.TC), h(p.vb, p.HL)}); }
  Expr wSlices() const { return heads({o(p.D, oRows()), o(p.lanes, p.F)}); }
  // The GEMM's token order, [T % A, T % TC / A]: A-token blocks (attention's tiles) inner.
  Term ta() const { return t(1, p.A); }
  Term tk() const { return t(p.A, p.TC); }
  Term row() const { return o(p.F, p.D); } // d < F or d >= F: the lane's row
  Term lane() const { return o(1, p.lanes); }
};

// x's sums of squares per token: each slice's values of each token ([H / HL, H % 16] order)
// in the reducer's slots (tr tokens in the lanes after the transpose), a row's slices added by
// the inter-slice reducer; in passes of tpp tokens when a slice holds more (joined).
mlir::Value squareSums(Ctx &c, mlir::Value xt, mlir::Type ssdm) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  using tcp::Context;
  const std::vector<Step> steps = {Step::op("stash"), Step::stash("mul_f"),
                                   Step::op("reduce_add_f"), Step::op("inter_add_f")};
  Term hh = c.h(p.HL, p.H), h16 = c.h(1, p.vb);
  if (p.xPasses == 1) {
    Expr tc = c.tc(), ss = cat({c.repX(), c.t(p.tps, p.TC), c.ax("XS", p.hSlices)});
    Term tRows = c.t(p.tr, p.tps), tCol = c.t(1, p.tr);
    mlir::Type sqin = b.stream("sqin", f, tc, c.xSlices(), cat({hh, h16, tRows}), cat({tCol}));
    mlir::Type ssc = b.stream("ssc", f, tc, ss, cat({tRows}), cat({tCol}));
    mlir::Value v = b.collect("a2", b.fetch("a1", Context::main, xt, sqin));
    return b.commit("ss", b.vector("a3", v, steps, ssc), ssdm);
  }
  // A pass's part, typed over its own axes: XW x's row of slices, XU its tpp tokens.
  Expr kc = cat({c.ax("KC", p.C)});
  Expr xs = cat({c.repX(), c.ax("XW", p.rowsX), c.h(p.vb, p.HL)});
  Expr ss = cat({c.repX(), c.ax("XW", p.rowsX), c.ax("XS", p.hSlices)});
  Term uRows = digits("XU", p.tpp, p.tr, p.tpp), uCol = digits("XU", p.tpp, 1, p.tr);
  mlir::Type xtc = b.dm("xtc", bf, kc, xs, cat({hh, uRows, h16, uCol}));
  mlir::Type sqin = b.stream("sqin", f, kc, xs, cat({hh, h16, uRows}), cat({uCol}));
  mlir::Type ssc = b.stream("ssc", f, kc, ss, cat({uRows}), cat({uCol}));
  mlir::Type sspart = b.dm("sspart", f, kc, ss, cat({c.ax("XU", p.tpp)}));
  mlir::Type ssj = b.dm("ssj", f, kc, ss, cat({c.ax("XP", p.xPasses), c.ax("XU", p.tpp)}));
  std::vector<mlir::Value> parts;
  for (int64_t k = 0; k < p.xPasses; ++k) {
    std::string n = "a" + str(k);
    mlir::Value part = b.dmView(n + "v", xt, k * p.tpp * p.halves * p.vb, std::nullopt, xtc);
    mlir::Value v = b.collect(n + "2", b.fetch(n + "1", Context::main, part, sqin));
    parts.push_back(b.commit("ss" + str(k), b.vector(n + "3", v, steps, ssc), sspart));
  }
  return b.reinterpret("ss", b.dmJoin("ssj", parts, ssj), ssdm);
}

// 1. x's RMSNorm in the GEMM's layout (x^, bf16, in x's DM layout).
mlir::Value rmsNorm(Ctx &c, mlir::Value x, mlir::Value weight) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr tc = c.tc(), xs = c.xSlices();
  Term hh = c.h(p.HL, p.H), h16 = c.h(1, p.vb), tIn = c.t(1, p.tps), tCol = c.t(1, p.tr);
  Term tPass = c.t(p.tpp, p.tps), tRows = c.t(p.tr, p.tpp);
  mlir::Type xdm = b.dm("xdm", bf, tc, xs, cat({hh, tIn, h16}));
  mlir::Type trin = b.stream("trin", bf, tc, xs, cat({tPass, hh, tRows, tCol, c.h(p.trRow, p.vb)}),
                             cat({c.h(1, p.trRow)}));
  mlir::Type trout =
      b.stream("trout", bf, tc, xs, cat({tPass, hh, tRows, c.h(p.trRow, p.vb), c.h(1, p.trRow)}),
               cat({tCol}));
  mlir::Type xtdm = b.dm("xtdm", bf, tc, xs, cat({tPass, hh, tRows, h16, tCol}));
  Expr ss = cat({c.repX(), c.t(p.tps, p.TC), c.ax("XS", p.hSlices)});
  mlir::Type ssdm = b.dm("ssdm", f, tc, ss, cat({tIn}));
  mlir::Type sss =
      b.stream("sss", f, tc, ss, cat({c.t(p.vf, p.tps)}), cat({c.t(1, std::min(p.vf, p.tps))}));
  mlir::Type rsub = b.stream("rsub", f, tc, ss, cat({c.t(p.sub, p.tps)}), cat({c.t(1, p.sub)}));
  mlir::Type rvrf = b.vrf("rvrf", f, tc, ss, cat({tIn}));
  Expr ws = cat({c.ax("RN", p.rowsMax), c.h(p.vb, p.HL)});
  mlir::Type wn = b.dm("wn", bf, c.cl(), ws, cat({hh, h16}));
  mlir::Type wnsub =
      b.stream("wnsub", f, c.cl(), ws, cat({hh, c.h(p.sub, p.vb)}), cat({c.h(1, p.sub)}));
  mlir::Type wnvrf = b.vrf("wnvrf", f, c.cl(), ws, cat({hh, h16}));
  mlir::Type xsT = b.stream("xs", f, tc, xs, cat({tIn, hh, c.h(p.vf, p.vb)}), cat({c.h(1, p.vf)}));
  mlir::Type xwdm = b.dm("xwdm", f, tc, xs, cat({hh, tIn, h16}));
  mlir::Type xws = b.stream("xws", f, tc, xs, cat({hh, c.h(p.vf, p.vb), tIn}), cat({c.h(1, p.vf)}));

  using tcp::Context;
  mlir::Value xd = b.dma("xd", x, xdm);
  mlir::Value v = b.collect("t2", b.fetch("t1", Context::main, xd, trin));
  mlir::Value xt = b.commit("xt", b.transpose("t3", v, trout), xtdm);
  mlir::Value ssv = squareSums(c, xt, ssdm);
  v = b.collect("r2", b.fetch("r1", Context::main, ssv, sss));
  v = b.vector("r3", v, {Step::fma(float(1.0 / double(p.H)), float(p.eps)), Step::op("sqrt_f")});
  mlir::Value rd = b.commit("rd", v, ssdm);
  mlir::Value rv = b.toVrf("rv", b.collect("v2", b.fetch("v1", Context::sub, rd, rsub)), rvrf);
  mlir::Value wnd = b.dma("wnd", weight, wn);
  mlir::Value wnv = b.toVrf("wnv", b.collect("n2", b.fetch("n1", Context::sub, wnd, wnsub)), wnvrf);
  v = b.collect("m2", b.fetch("m1", Context::main, xd, xsT));
  mlir::Value xw = b.commit("xw", b.vector("m3", v, {Step::vrfOf("mul_f", wnv)}), xwdm);
  v = b.collect("d2", b.fetch("d1", Context::main, xw, xws));
  return b.commit("xh", b.vector("d3", v, {Step::vrfOf("div_f", rv)}), xdm, /*castToBf16=*/true);
}

// 2. The GEMM in halves of h: each half's weights (a tile of qkv_weight) load into the TRF by
// themselves; each half of x^ (an element offset in its layout) is broadcast around the ring
// of the slices that hold one copy of x. Returns the halves' f32 sums.
std::vector<mlir::Value> gemm(Ctx &c, mlir::Value w, mlir::Value xh, mlir::Type qraw) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr tc = c.tc(), ws = c.wSlices();
  Term hlv = c.hl(1, p.vb), hlf = c.hl(p.vb, p.HL), tIn = c.t(1, p.tps), tRow = c.t(p.tps, p.TC);
  mlir::Type wh = b.hbm("wh", bf, cat({c.o(1, c.oRows()), c.ax("HL", p.HL)}));
  Expr xhs = cat({c.repX(), tRow, hlf});
  mlir::Type xhh = b.dm("xhh", bf, tc, xhs, cat({tIn, hlv}));
  mlir::Type xf = b.stream("xf", bf, tc, xhs, cat({tIn}), cat({hlv}));
  mlir::Type xn = b.stream("xn", bf, tc, cat({c.repX(), c.ax("XN", p.rowsX * p.hSlices)}),
                           cat({tIn, tRow, hlf}), cat({hlv}));
  mlir::Type wdm = b.dm("wdm", bf, c.cl(), ws, cat({c.lane(), c.row(), c.ax("HL", p.HL)}));
  mlir::Type wload = b.stream("wload", bf, c.cl(), ws, cat({c.lane(), c.row(), hlf}), cat({hlv}));
  mlir::Type wtrf =
      b.trf("wtrf", bf, c.cl(), ws, cat({c.lane()}), cat({c.row(), c.ax("HL", p.HL)}));
  mlir::Type acc = b.stream("acc", f, tc, ws, cat({tIn, tRow, c.row()}), cat({c.lane()}));

  using tcp::Context;
  const std::string half = "abcdefghijklmnopqrstuvwxyz";
  std::vector<mlir::Value> tiles, dms, sums;
  for (int64_t i = 0; i < p.halves; ++i)
    tiles.push_back(b.view(std::string("w") + half[i], w, (i * p.O + c.hp.first * p.D) * p.HL, wh));
  for (int64_t i = 0; i < p.halves; ++i)
    dms.push_back(b.dma(std::string("wd") + half[i], tiles[i], wdm));
  for (int64_t i = 0; i < p.halves; ++i) {
    std::string n(1, half[i]);
    mlir::Value v = b.collect("wc" + n, b.fetch("ws" + n, Context::main, dms[i], wload));
    mlir::Value wt = b.toTrf("wt" + n, v, wtrf);
    mlir::Value xv = b.dmView("x" + n, xh, i * p.tps * p.vb, std::nullopt, xhh);
    v = b.fetch("x" + n + "1", Context::main, xv, xf);
    v = b.collect("x" + n + "3", b.switchOp("x" + n + "2", tcp::SwitchMode::broadcast1, v, xn));
    v = b.contract(i == 0 ? "ga" : "g" + n + "h", v, wt, kPackFlits, acc);
    sums.push_back(b.commit("p" + n, v, qraw));
  }
  return sums;
}

// The halves' f32 sums added in order (each next one through the VRF), CT tokens at a time,
// then bf16.
mlir::Value addHalves(Ctx &c, const std::vector<mlir::Value> &sums, mlir::Type qraw,
                      mlir::Type qrawb) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  using tcp::Context;
  auto addTwo = [&](const std::string &n, mlir::Value first, mlir::Value second, mlir::Type sf,
                    mlir::Type sb, mlir::Type vrf, mlir::Type out, mlir::Type mid) {
    mlir::Value v = b.collect("pv" + n + "2", b.fetch("pv" + n + "1", Context::main, second, sf));
    mlir::Value pv = b.toVrf("pv" + n, v, vrf);
    v = b.collect("ps" + n + "2", b.fetch("ps" + n + "1", Context::main, first, sf));
    v = b.vector("ps" + n + "3", v, {Step::vrfOf("add_f", pv)});
    if (mid)
      return b.commit("qm" + n, v, mid);
    v = b.cast("ps" + n + "4", v, sb);
    return b.commit("qs" + n, v, out);
  };
  // ((s0 + s1) + s2) + ...: the f32 running sum, rounded to bf16 after the last.
  auto addChunk = [&](const std::string &n, const std::vector<mlir::Value> &in, mlir::Type sf,
                      mlir::Type sb, mlir::Type vrf, mlir::Type out, mlir::Type mid) {
    mlir::Value acc = in[0];
    for (size_t i = 1; i < in.size(); ++i)
      acc = addTwo(i + 1 < in.size() ? n + "s" + str(i) : n, acc, in[i], sf, sb, vrf, out,
                   i + 1 < in.size() ? mid : mlir::Type());
    return acc;
  };
  Expr ws = c.wSlices();
  if (p.chunks == 1) {
    Expr time = cat({c.ta(), c.tk(), c.row()}), elem = cat({c.ta(), c.tk(), c.row(), c.lane()});
    mlir::Type sf = b.stream("qs", f, c.tc(), ws, time, cat({c.lane()}));
    mlir::Type sb = b.stream("qsb", bf, c.tc(), ws, time, cat({c.lane()}));
    mlir::Type vrf = b.vrf("qvrf", f, c.tc(), ws, elem);
    return addChunk("0", sums, sf, sb, vrf, qrawb, qraw);
  }
  // A chunk is typed over its own axes (KC: the cluster, U: tokens of each A-block, KA: the
  // blocks), so that no tensor holds part of T.
  Expr kc = cat({c.ax("KC", p.C)});
  Expr time = cat({c.ax("U", p.U), c.ax("KA", p.K), c.row()});
  Expr elem = cat({c.ax("U", p.U), c.ax("KA", p.K), c.row(), c.lane()});
  mlir::Type qc = b.dm("qc", f, kc, ws, elem);
  mlir::Type qcs = b.stream("qcs", f, kc, ws, time, cat({c.lane()}));
  mlir::Type qcsb = b.stream("qcsb", bf, kc, ws, time, cat({c.lane()}));
  mlir::Type qcv = b.vrf("qcv", f, kc, ws, elem);
  mlir::Type qcb = b.dm("qcb", bf, kc, ws, elem);
  mlir::Type qcj =
      b.dm("qcj", bf, kc, ws,
           cat({c.ax("P", p.chunks), c.ax("U", p.U), c.ax("KA", p.K), c.row(), c.lane()}));
  std::vector<mlir::Value> parts;
  const int64_t chunkCells = p.CT * p.rowsPerSlice;
  for (int64_t k = 0; k < p.chunks; ++k) {
    std::string n = str(k);
    std::vector<mlir::Value> in;
    for (size_t i = 0; i < sums.size(); ++i)
      in.push_back(b.dmView(std::string("p") + char('a' + i) + n, sums[i], k * chunkCells,
                            std::nullopt, qc));
    parts.push_back(addChunk(n, in, qcs, qcsb, qcv, qcb, qc));
  }
  return b.reinterpret("qr", b.dmJoin("qj", parts, qcj), qrawb);
}

// 3. v's heads into the cache: each head's slices gathered onto one by the Switch Engine on
// the sub context (packets of one sub access), then copied through a view on those slices.
void vToCache(Ctx &c, mlir::Value qr, mlir::Value cache, mlir::Type rows, mlir::Type kvrows) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  const int64_t pk = 2 * p.sub; // bf16 values in one sub access
  Expr tc = c.tc(), ws = c.wSlices();
  Expr gs = c.heads({c.o(p.D, c.oRows()), c.ax("XH", p.slicesPerHead)});
  mlir::Type vin = b.stream("vin", bf, tc, ws, cat({c.row(), c.ta(), c.tk(), c.o(pk, p.lanes)}),
                            cat({c.o(1, pk)}));
  mlir::Type vout = b.stream("vout", bf, tc, gs,
                             cat({c.row(), c.ta(), c.tk(), c.o(pk, p.lanes), c.o(p.lanes, p.F)}),
                             cat({c.o(1, pk)}));
  mlir::Value v = b.fetch("w1", tcp::Context::sub, qr, vin);
  v = b.collect("w3", b.switchOp("w2", tcp::SwitchMode::broadcast1, v, vout));
  mlir::Value vrows = b.commit("vrows", v, rows);
  b.dmaInto(b.dmView("vview", vrows, 0, c.hp.vAt, kvrows), cache);
}

// The sums of squares of each token's head: q transposed (tr tokens in the lanes), passes of
// V slots of tr tokens (joined), a head's slices added by the inter-slice reducer. Returns
// them in `hsst`'s layout.
mlir::Value headSums(Ctx &c, mlir::Value qr, mlir::Type hsst) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  using tcp::Context;
  Expr tc = c.tc(), ws = c.wSlices();
  Term tCol = c.t(1, p.tr), tRows = c.t(p.tr, p.A);
  mlir::Type qtinb =
      b.stream("qtinb", bf, tc, ws, cat({tRows, c.tk(), tCol, c.row()}), cat({c.lane()}));
  mlir::Type qtout =
      b.stream("qtout", bf, tc, ws, cat({tRows, c.tk(), c.row(), c.lane()}), cat({tCol}));
  mlir::Type qt = b.dm("qt", bf, tc, ws, cat({tRows, c.tk(), c.row(), c.lane(), tCol}));
  // A pass's part, typed over its own axes: HS heads x J slices, V slots, JJ rows, L lanes,
  // TL tokens in the lanes.
  Expr kc = cat({c.ax("KC", p.C)}), hs = c.heads({c.hs(), c.ax("J", p.slicesPerHead)});
  Expr hx = c.heads({c.hs(), c.ax("XJ", p.slicesPerHead)});
  Term v = c.ax("V", p.V), tl = c.ax("TL", p.tr);
  mlir::Type qtc =
      b.dm("qtc", bf, kc, hs, cat({v, c.ax("JJ", p.rowsPerLane), c.ax("L", p.lanes), tl}));
  mlir::Type hsq = b.stream("hsq", f, kc, hs,
                            cat({c.ax("JJ", p.rowsPerLane), c.ax("L", p.lanes), v}), cat({tl}));
  mlir::Type hss = b.stream("hss", f, kc, hx, cat({v}), cat({tl}));
  mlir::Type hssdm = b.dm("hssdm", f, kc, hx, cat({v, tl}));
  mlir::Type hssj = b.dm("hssj", f, kc, hx, cat({c.ax("PS", p.sumPasses), v, tl}));

  mlir::Value q = b.collect("q2", b.fetch("q1", Context::main, qr, qtinb));
  mlir::Value qtd = b.commit("qtd", b.transpose("q4", q, qtout), qt);
  std::vector<mlir::Value> parts;
  const int64_t passCells = p.V * p.rowsPerSlice * p.tr;
  for (int64_t i = 0; i < p.sumPasses; ++i) {
    std::string n = "c" + str(i);
    mlir::Value part = p.sumPasses == 1 ? b.reinterpret(n + "v", qtd, qtc)
                                        : b.dmView(n + "v", qtd, i * passCells, std::nullopt, qtc);
    mlir::Value s = b.collect(n + "c", b.fetch(n + "f", Context::main, part, hsq));
    s = b.vector(n + "r", s,
                 {Step::op("stash"), Step::stash("mul_f"), Step::op("reduce_add_f"),
                  Step::op("inter_add_f")},
                 hss);
    parts.push_back(b.commit(n, s, hssdm));
  }
  mlir::Value joined = p.sumPasses == 1 ? parts[0] : b.dmJoin("hj", parts, hssj);
  return b.reinterpret("hs", joined, hsst);
}

// 4. Head norms: q x weight, then / rms (both from the VRF), rounded to bf16.
mlir::Value headNorm(Ctx &c, mlir::Value qr, mlir::Value weight, mlir::Type qraw, mlir::Type qn) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  using tcp::Context;
  Expr tc = c.tc(), ws = c.wSlices();
  Expr hx = c.heads({c.hs(), c.ax("XJ", p.slicesPerHead)});
  // The sums' token order: the passes' V slots are [T % A / tr, T % TC / A] in blocks of V.
  const int64_t inner = p.tr * (p.V / p.K);
  std::vector<Term> order = {c.t(inner, p.A), c.t(p.tr, inner), c.tk()};
  std::vector<Term> withCol = order;
  withCol.push_back(c.t(1, p.tr));
  mlir::Type hsst = b.dm("hsst", f, tc, hx, cat(withCol));
  mlir::Type hsts = b.stream("hsts", f, tc, hx, cat(order), cat({c.t(1, p.tr)}));
  mlir::Type hrvrf = b.vrf("hrvrf", f, tc, hx, cat(withCol));
  mlir::Type hw = b.dm("hw", bf, c.cl(), ws, cat({c.row(), c.lane()}));
  mlir::Type hws = b.stream("hws", f, c.cl(), ws, cat({c.row()}), cat({c.lane()}));
  mlir::Type hwvrf = b.vrf("hwvrf", f, c.cl(), ws, cat({c.row(), c.lane()}));
  mlir::Type qs = b.stream("qs", f, tc, ws, cat({c.ta(), c.tk(), c.row()}), cat({c.lane()}));
  std::vector<Term> qwsTime = {c.row()};
  qwsTime.insert(qwsTime.end(), withCol.begin(), withCol.end());
  mlir::Type qws = b.stream("qws", f, tc, ws, cat(qwsTime), cat({c.lane()}));

  mlir::Value hs = headSums(c, qr, hsst);
  mlir::Value v = b.collect("h2", b.fetch("h1", Context::main, hs, hsts));
  v = b.vector("h3", v, {Step::fma(float(1.0 / double(p.D)), float(p.eps)), Step::op("sqrt_f")});
  mlir::Value hr = b.commit("hr", v, hsst);
  mlir::Value hrv = b.toVrf("hrv", b.collect("h5", b.fetch("h4", Context::main, hr, hsts)), hrvrf);
  mlir::Value hwd = b.dma("hwd", weight, hw);
  mlir::Value hwv = b.toVrf("hwv", b.collect("h7", b.fetch("h6", Context::sub, hwd, hws)), hwvrf);
  v = b.collect("e2", b.fetch("e1", Context::main, qr, qs));
  mlir::Value qw = b.commit("qw", b.vector("e3", v, {Step::vrfOf("mul_f", hwv)}), qraw);
  v = b.collect("e5", b.fetch("e4", Context::main, qw, qws));
  return b.commit("qnd", b.vector("e6", v, {Step::vrfOf("div_f", hrv)}), qn, true);
}

// 5. RoPE: out = x cos + swap(x) sin, swap(x) = [-x1, x0] for the rows d < F (x0) and d + F
// (x1), which share a slice and lane; the halves and the tables are read over F.
mlir::Value rope(Ctx &c, mlir::Value qnd, mlir::Value cosH, mlir::Value sinH, mlir::Type rope) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  using tcp::Context;
  Expr tc = c.tc(), hf = c.heads({c.hs(), c.f(p.lanes, p.F)});
  Expr rf = c.heads({c.rh(), c.f(p.lanes, p.F)});
  Expr time = cat({c.ta(), c.tk()});
  Term fl = c.f(1, p.lanes);
  mlir::Type tab1 =
      b.dm("tabh", bf, tc, cat({Expr::one().pad(p.headSlots), c.f(p.lanes, p.F)}),
           cat({c.ta(), c.tk(), fl}));
  mlir::Type tab = b.dm("tab", bf, tc, rf, cat({c.ta(), c.tk(), fl}));
  mlir::Type tabs = b.stream("tabs", f, tc, rf, time, cat({fl}));
  mlir::Type tabv = b.vrf("tabv", f, tc, rf, cat({c.ta(), c.tk(), fl}));
  mlir::Type half =
      b.dm("half", bf, tc, hf, cat({c.ta(), c.tk(), c.f(1, p.lanes)->pad(p.rowsPerSlice)}));
  mlir::Type halfs = b.stream("halfs", f, tc, hf, time, cat({fl}));
  mlir::Type part = b.dm("part", f, tc, hf, cat({c.ta(), c.tk(), fl}));
  mlir::Type partv = b.vrf("partv", f, tc, hf, cat({c.ta(), c.tk(), fl}));
  mlir::Type outb = b.dm("outb", bf, tc, hf, cat({c.tk(), c.ta(), fl}));
  mlir::Type outj = b.dm("outj", bf, tc, hf, cat({c.ax("PH", p.rowsPerLane), c.tk(), c.ta(), fl}));

  mlir::Value sind = b.dma("sind", b.dma("sin1", sinH, tab1), tab);
  mlir::Value cosd = b.dma("cosd", b.dma("cos1", cosH, tab1), tab);
  mlir::Value x0 = b.dmView("x0", qnd, 0, std::nullopt, half);
  mlir::Value x1 = b.dmView("x1", qnd, p.lanes, std::nullopt, half);
  auto pass = [&](const std::string &n, mlir::Value in, std::vector<Step> steps, mlir::Type out,
                  bool castOut) {
    mlir::Value v = b.collect(n + "2", b.fetch(n + "1", Context::main, in, halfs));
    return b.commit(n, b.vector(n + "3", v, steps), out, castOut);
  };
  // A DM tensor into the VRF: `n`1 the fetch, `n`2 the collect.
  auto table = [&](const std::string &n, const std::string &out, mlir::Value dm, mlir::Type stream,
                   mlir::Type vrf) {
    mlir::Value v = b.collect(n + "2", b.fetch(n + "1", Context::main, dm, stream));
    return b.toVrf(out, v, vrf);
  };
  mlir::Value sinv = table("sv", "sinv", sind, tabs, tabv);
  mlir::Value ra0 =
      pass("a0", x1, {Step::fma(-1.0f, 0.0f), Step::vrfOf("mul_f", sinv)}, part, false);
  mlir::Value ra1 = pass("a1", x0, {Step::vrfOf("mul_f", sinv)}, part, false);
  mlir::Value cosv = table("cv", "cosv", cosd, tabs, tabv);
  mlir::Value rb0 = pass("b0", x0, {Step::vrfOf("mul_f", cosv)}, part, false);
  mlir::Value rb1 = pass("b1", x1, {Step::vrfOf("mul_f", cosv)}, part, false);
  mlir::Value a0v = table("av", "a0v", ra0, halfs, partv);
  mlir::Value ro0 = pass("o0", rb0, {Step::vrfOf("add_f", a0v)}, outb, true);
  mlir::Value a1v = table("aw", "a1v", ra1, halfs, partv);
  mlir::Value ro1 = pass("o1", rb1, {Step::vrfOf("add_f", a1v)}, outb, true);
  return b.reinterpret("ro", b.dmJoin("oj", {ro0, ro1}, outj), rope);
}

// 6. q's heads out through a view on their slices; k's heads gathered onto one slice of each
// head by the Switch Engine and copied into the cache through a view.
void outputs(Ctx &c, mlir::Value ro, mlir::Value qOut, mlir::Value kCache, mlir::Type rows,
             mlir::Type kvrows) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr tc = c.tc(), ws = c.wSlices();
  Expr gs = c.heads({c.o(p.D, c.oRows()), c.ax("XH", p.slicesPerHead)});
  mlir::Type gin = b.stream("gin", bf, tc, ws, cat({c.row(), c.ta(), c.tk()}), cat({c.lane()}));
  mlir::Type gout = b.stream("gout", bf, tc, gs, cat({c.row(), c.ta(), c.tk(), c.o(p.lanes, p.F)}),
                             cat({c.lane()}));
  const bool qRows = p.opt.rowMajorQ && c.hp.qCount > 0; // batch_projection: q from the rows
  if (c.hp.qCount > 0 && !p.opt.rowMajorQ) {
    mlir::Type qv =
        b.dm("qv", bf, tc, cat({Ctx::padded(c.q(p.D, p.Q), p.headSlots), c.q(p.lanes, p.F)}),
             cat({c.q(p.F, p.D), c.tk(), c.ta(), c.q(1, p.lanes)}));
    mlir::Value dest = qOut;
    // Some of q's heads: a view of q_out on them (its heads' term padded to all q heads).
    if (c.hp.qCount < p.qHeads)
      dest = b.view("qop", qOut, c.hp.qFirst * p.D * p.TC,
                    b.hbm("qop", bf, qPassLayout(p, c.qAxis(), c.hp.qCount)));
    b.dmaInto(b.dmView("qview", ro, 0, 0, qv), dest);
  }
  if (c.hp.kAt < 0 && !qRows)
    return;
  mlir::Value k = b.fetch("k1", tcp::Context::main, ro, gin);
  k = b.collect("k3", b.switchOp("k2", tcp::SwitchMode::broadcast1, k, gout));
  mlir::Value krows = b.commit("krows", k, rows);
  if (qRows)
    qRowsOut(c, krows, qOut);
  if (c.hp.kAt >= 0)
    b.dmaInto(b.dmView("kview", krows, 0, c.hp.kAt, kvrows), kCache);
}

// 2-6 for one pass of the heads: the GEMM, the halves' sums, v to the cache, the head norms,
// RoPE, q and k out.
void projectPass(Ctx &c, mlir::Value xh, mlir::Value wArg, mlir::Value headW, mlir::Value cosArg,
                 mlir::Value sinArg, mlir::Value qOut, mlir::Value kCache, mlir::Value vCache) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr tc = c.tc(), ws = c.wSlices();
  Expr qrawElem = cat({c.ta(), c.tk(), c.row(), c.lane()});
  mlir::Type qraw = b.dm("qraw", f, tc, ws, qrawElem);
  mlir::Type qrawb = b.dm("qrawb", bf, tc, ws, qrawElem);
  mlir::Type qn = b.dm("qn", bf, tc, ws, qrawElem);
  mlir::Type ropeT = b.dm("rope", bf, tc, ws, cat({c.row(), c.tk(), c.ta(), c.lane()}));
  mlir::Type rows = b.dm(
      "rows", bf, tc, c.heads({c.o(p.D, c.oRows()), Expr::one().pad(p.slicesPerHead)}),
      cat({c.ta(), c.tk(), c.row(), c.o(p.lanes, p.F), c.lane()}));
  mlir::Type kvrows =
      b.dm("kvrows", bf, tc,
           cat({Expr::one().pad(p.headSlots / p.N), c.ax("N", p.N),
                Expr::one().pad(p.slicesPerHead)}),
           cat({c.ta(), c.tk(), c.d(p.F, p.D), c.d(p.lanes, p.F), c.d(1, p.lanes)}));
  mlir::Value qr = p.split ? splitGemm(c, wArg, xh, qrawb)
                           : addHalves(c, gemm(c, wArg, xh, qraw), qraw, qrawb);
  if (c.hp.vAt >= 0)
    vToCache(c, qr, vCache, rows, kvrows);
  mlir::Value qnd = headNorm(c, qr, headW, qraw, qn);
  mlir::Value ro = rope(c, qnd, cosArg, sinArg, ropeT);
  outputs(c, ro, qOut, kCache, rows, kvrows);
}

void declareAxes(Ctx &c, const std::vector<HeadPass> &passes) {
  const Plan &p = c.p;
  StageBuilder &b = c.b;
  const std::vector<std::pair<const char *, int64_t>> axes = {{"T", p.T},
                                                              {"H", p.H},
                                                              {"O", p.O},
                                                              {"HL", p.HL},
                                                              {"F", p.F},
                                                              {"Q", p.Q},
                                                              {"N", p.N},
                                                              {"D", p.D},
                                                              {"CL", p.C},
                                                              {"RN", p.rowsMax},
                                                              {"XS", p.hSlices},
                                                              {"XN", p.rowsX * p.hSlices},
                                                              {"XR", p.repX},
                                                              {"KC", p.C},
                                                              {"XW", p.rowsX},
                                                              {"XU", p.tpp},
                                                              {"XP", p.xPasses},
                                                              {"U", p.U},
                                                              {"KA", p.K},
                                                              {"P", p.chunks},
                                                              {"HS", p.heads},
                                                              {"J", p.slicesPerHead},
                                                              {"XJ", p.slicesPerHead},
                                                              {"V", p.V},
                                                              {"JJ", p.rowsPerLane},
                                                              {"L", p.lanes},
                                                              {"TL", p.tr},
                                                              {"PS", p.sumPasses},
                                                              {"RH", p.heads},
                                                              {"PH", p.rowsPerLane},
                                                              {"XH", p.slicesPerHead}};
  for (const auto &[name, size] : axes)
    if (size > 1)
      b.axis(name, size);
  if (passes.size() > 1)
    for (const HeadPass &hp : passes)
      for (const auto &[name, size] : {std::pair<std::string, int64_t>{"O", hp.count * p.D},
                                       {"HS", hp.count},
                                       {"RH", hp.count},
                                       {"Q", hp.qCount * p.D}})
        if (name != "Q" || (hp.qCount > 0 && hp.qCount < p.qHeads))
          b.axis(name + hp.suffix, size);
}

} // namespace

llvm::Error buildPrefillProjection(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  return buildProjectionStage(b, shape, tokens, ProjectionOptions());
}

llvm::Error buildProjectionStage(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                 const ProjectionOptions &opt) {
  llvm::Expected<ProjectionPlan> plan = planProjection(shape, b.target(), tokens, opt);
  if (!plan)
    return plan.takeError();
  const Plan &p = *plan;
  const std::vector<HeadPass> passes = headPasses(p);
  Ctx c{b, p, passes[0]};
  if (!p.opt.rowMajorQ) // batch_projection describes itself (BatchProjection.cpp)
    describeProjection(b, p);
  declareAxes(c, passes);
  describeSplit(b, p);
  mlir::Type bf = b.bf16();
  const ProjectionLayouts l = projectionLayouts(p);
  mlir::Type x = b.hbm("x", bf, l.x), vec = b.hbm("vec", bf, cat({c.ax("H", p.H)}));
  mlir::Type w = b.hbm("w", bf, l.w), hwh = b.hbm("hwh", bf, cat({c.ax("O", p.O)}));
  mlir::Type ropeh = b.hbm("ropeh", bf, l.tables), qo = b.hbm("qo", bf, l.q);
  mlir::Type cache = b.hbm("cache", bf, l.cache);
  mlir::Value xArg = b.input("x", x), rmsW = b.input("input_rms_weight", vec);
  mlir::Value wArg = b.input("qkv_weight", w), headW = b.input("head_rms_weight", hwh);
  mlir::Value cosArg = b.input("cos", ropeh), sinArg = b.input("sin", ropeh);
  mlir::Value qOut = b.output("q_out", qo), kCache, vCache;
  if (p.opt.rowMajorQ) // the staging rows, every one written
    kCache = b.output("k_rows", cache), vCache = b.output("v_rows", cache);
  else
    kCache = b.inout("k_cache", cache), vCache = b.inout("v_cache", cache);
  mlir::Value xh = rmsNorm(c, xArg, rmsW);
  for (const HeadPass &hp : passes) {
    Ctx cp{b, p, hp};
    mlir::Value hw = headW;
    if (passes.size() > 1)
      hw = b.view("hwp", headW, hp.first * p.D, b.hbm("hwp", bf, cat({cp.o(1, cp.oRows())})));
    projectPass(cp, xh, wArg, hw, cosArg, sinArg, qOut, kCache, vCache);
  }
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
