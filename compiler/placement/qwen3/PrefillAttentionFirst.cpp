// `prefill_attention_first`: causal attention of a block of T queries over the keys of the same
// positions (the block's own KV-cache chunk), every q head, folded with the online-softmax
// state of the block's earlier chunks and normalised. The header below gives the numbers.
#include "compiler/placement/qwen3/PrefillAttentionFirstText.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

using Plan = AttentionPlan;

struct Ctx {
  StageBuilder &b;
  const Plan &p;
  Term ax(const char *name, int64_t size) const { return whole(name, size); }
  Term n(int64_t lo, int64_t hi) const { return digits("N", p.N, lo, hi); }
  Term d(int64_t lo, int64_t hi) const { return digits("D", p.D, lo, hi); }
  Term tq(int64_t lo, int64_t hi) const { return digits("TQ", p.TQ, lo, hi); }
  Term si(int64_t lo, int64_t hi) const { return digits("SI", p.SI, lo, hi); }
  Term tb() const { return ax("TB", p.TB); }
  Term tt() const { return ax("TT", p.TT); }
  Term sb() const { return ax("SB", p.SB); }
  Term rows() const { return tq(p.lanes, p.TQ); } // the two time-broadcast rows
  Term lanes() const { return tq(1, p.lanes); }
  // A kv head's cluster: N over the clusters, or the first for a lone head.
  Expr cluster() const { return p.lone ? Expr::one().pad(p.C) : cat({n(p.NC, p.N)}); }
  // The masks' clusters: a copy on each (CL), or the lone head's.
  Expr cl() const { return p.lone ? cluster() : cat({ax("CL", p.C)}); }
  // The queries' slices: [N % NC, TB, RQ, RH, G, TT]; a kv head's ring.
  Expr qSlices() const {
    return cat({n(1, p.NC), gap(), tb(), ax("RQ", p.RQ), copies(), g(), tt()});
  }
  /// A pass's q heads of a kv head (all of them when there is one pass), and their copies.
  Term g() const { return ax(passAxes(p, p.H).first.c_str(), p.H); }
  Term copies() const { return p.RH > 1 ? ax(passAxes(p, p.H).second.c_str(), p.RH) : Term(); }
  /// The unused slices after each kv head's ring when the rings do not fill a cluster.
  Term gap() const {
    const int64_t k = p.S / (p.NC * p.ring);
    return k > 1 ? Term(Expr::one().pad(k)) : Term();
  }
  Term nc() const { return n(1, p.NC); }
  // Two flits of keys a contraction packet when a tile has them (a 16-key tile: one; the
  // tree of its 16 products is the first half of a 32-value packet's, whose other half is 0).
  int64_t keyPack() const { return p.SI / p.vb >= kPackFlits ? kPackFlits : 1; }
};

// The types every phase shares: the queries' per-query rows, the score layouts, o's.
struct Types {
  mlir::Type qrow, qrowdm, qrowvrf;  // a value per query (m, l, alpha)
  mlir::Type sacc, sdm, dacc, ddm;   // scores: main part, diagonal tile
  mlir::Type pdm, ptrf, pddm, pdtrf; // p, in DM and in the TRF
  mlir::Type oacc, odm, oload, ovrf; // o
};

Types makeTypes(Ctx &c) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr cl = c.cluster(), qs = c.qSlices();
  Term vdIn = c.d(1, p.vd), vdOut = c.d(p.vd, p.D);
  Types t;
  t.sacc = b.stream("sacc", f, cl, qs, cat({c.si(1, p.SI), c.sb(), c.rows()}), cat({c.lanes()}));
  t.sdm = b.dm("sdm", bf, cl, qs, cat({c.si(1, p.SI), c.sb(), c.rows(), c.lanes()}));
  t.dacc = b.stream("dacc", f, cl, qs, cat({c.si(1, p.SI), c.rows()}), cat({c.lanes()}));
  t.ddm = b.dm("ddm", bf, cl, qs, cat({c.si(1, p.SI), c.ax("TQ", p.TQ)}));
  t.qrow = b.stream("qrow", f, cl, qs, cat({c.rows()}), cat({c.lanes()}));
  t.qrowdm = b.dm("qrowdm", f, cl, qs, cat({c.rows(), c.lanes()}));
  t.qrowvrf = b.vrf("qrowvrf", f, cl, qs, cat({c.rows(), c.lanes()}));
  t.pdm = b.dm("pdm", bf, cl, qs, cat({c.lanes(), c.rows(), c.sb(), c.si(1, p.SI)}));
  t.ptrf = b.trf("ptrf", bf, cl, qs, cat({c.lanes()}), cat({c.rows(), c.sb(), c.si(1, p.SI)}));
  t.pddm = b.dm("pddm", bf, cl, qs, cat({c.lanes(), c.rows(), c.si(1, p.SI)}));
  t.pdtrf = b.trf("pdtrf", bf, cl, qs, cat({c.lanes()}), cat({c.rows(), c.si(1, p.SI)}));
  t.oacc = b.stream("oacc", f, cl, qs, cat({vdIn, vdOut, c.rows()}), cat({c.lanes()}));
  t.odm = b.dm("odm", f, cl, qs, cat({vdIn, vdOut, c.rows(), c.lanes()}));
  t.oload = b.stream("oload", f, cl, qs, cat({vdIn, vdOut, c.rows()}), cat({c.lanes()}));
  t.ovrf = b.vrf("ovrf", f, cl, qs, cat({vdIn, vdOut, c.rows(), c.lanes()}));
  return t;
}

using tcp::Context;

// A pass that fetches `in` as `stream`, runs `steps` and commits to `out`.
// `vectorOut`: the vector's result type when it reduces (the input's otherwise).
mlir::Value pass(StageBuilder &b, const std::string &n1, const std::string &n2,
                 const std::string &n3, const std::string &out, Context ctx, mlir::Value in,
                 mlir::Type stream, const std::vector<Step> &steps, mlir::Type result,
                 mlir::Type vectorOut = {}, bool castOut = false) {
  mlir::Value v = b.collect(n2, b.fetch(n1, ctx, in, stream));
  return b.commit(out, b.vector(n3, v, steps, vectorOut), result, castOut);
}

// A fetch on `ctx` into the VRF.
mlir::Value toVrf(StageBuilder &b, const std::string &n1, const std::string &n2,
                  const std::string &out, Context ctx, mlir::Value in, mlir::Type stream,
                  mlir::Type vrf) {
  return b.toVrf(out, b.collect(n2, b.fetch(n1, ctx, in, stream)), vrf);
}

// The queries into the TRF (16 a slice: the lanes x two time-broadcast rows).
mlir::Value loadQueries(Ctx &c, mlir::Value q) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr cl = c.cluster(), qs = c.qSlices();
  // DM follows q_out's HBM order within a slice, so the DMA moves whole runs: q_out keeps a run
  // of queryRun tokens x 8 values of d contiguous, d's flits around it, and tokens beyond the
  // run outside the heads. With a run of one row of lanes (T = 16: 8 tokens a cluster) a slice's
  // two rows are two such blocks, so the rows go outermost (2 KB packets, not 128 B).
  const bool rowsOutside = p.tok.queryRun <= p.lanes;
  mlir::Type qdm =
      b.dm("qdm", bf, cl, qs,
           rowsOutside ? cat({c.rows(), c.d(p.lanes, p.D), c.lanes(), c.d(1, p.lanes)})
                       : cat({c.d(p.lanes, p.D), c.rows(), c.lanes(), c.d(1, p.lanes)}));
  mlir::Type qload =
      b.stream("qload", bf, cl, qs, cat({c.lanes(), c.rows(), c.d(p.vb, p.D), c.d(p.lanes, p.vb)}),
               cat({c.d(1, p.lanes)}));
  mlir::Type qtrf = b.trf("qtrf", bf, cl, qs, cat({c.lanes()}), cat({c.rows(), c.ax("D", p.D)}));
  mlir::Value qd = b.dma("qd", q, qdm);
  return b.toTrf("qt", b.collect("q2", b.fetch("q1", Context::main, qd, qload)), qtrf);
}

// A mask from HBM into the VRF of every slice that uses it (fresh replica axes for the query
// factors it does not depend on), on the sub context. `d`: its DM copy (made when null; later
// passes fetch it again, the VRF being too small to keep it beside o).
mlir::Value loadMask(Ctx &c, const std::string &n, mlir::Value mask, const Expr &slices,
                     const Term &outer, mlir::Value &d) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type f = b.f32();
  Expr elem = cat({outer, c.ax("TQ", p.TQ)});
  mlir::Type dm = b.dm(n + "dm", f, c.cl(), slices, elem);
  mlir::Type load = b.stream(n + "load", f, c.cl(), slices,
                             cat({outer, c.rows(), c.tq(p.sub, p.lanes)}), cat({c.tq(1, p.sub)}));
  mlir::Type vrf = b.vrf(n + "vrf", f, c.cl(), slices, elem);
  if (!d)
    d = b.dma(n + "d", mask, dm);
  return toVrf(b, n + "1", n + "2", n + "v", Context::sub, d, load, vrf);
}

// The keys: whole rows from HBM (rowKeys keys a slice), laid out by the Switch Engine's
// inter_transpose so that slice (SB, D / 16) of a ring holds a tile's keys x 16 values.
mlir::Value loadKeys(Ctx &c, mlir::Value k) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr cl = c.cluster();
  Term nc = c.nc(), dv = c.d(p.vb, p.D), dp = c.d(1, p.vb);
  Term rowIn = c.si(1, p.rowKeys), rowSlice = c.si(p.rowKeys, p.SI);
  Expr rs = cat({nc, c.gap(), c.sb(), rowSlice}), ks = cat({nc, c.gap(), c.sb(), dv});
  mlir::Type krow = b.dm("krow", bf, cl, rs, cat({rowIn, c.ax("D", p.D)}));
  mlir::Type krf = b.stream("krf", bf, cl, rs, cat({rowIn, dv}), cat({dp}));
  mlir::Type krt = b.stream("krt", bf, cl, ks, cat({rowIn, rowSlice}), cat({dp}));
  mlir::Type kdm = b.dm("kdm", bf, cl, ks, cat({c.si(1, p.SI), dp}));
  mlir::Value kr = b.dma("kr", k, krow);
  mlir::Value v = b.fetch("kr1", Context::main, kr, krf);
  v = b.collect("kr3", b.switchOp("kr2", tcp::SwitchMode::inter_transpose, v, krt));
  return b.commit("kd", v, kdm);
}

// Scores = bf16((q . k + mask) / sqrt(D)): keys in time, queries in the lanes. The main part
// streams every key around the kv head's ring against the tile mask; returns its DM.
mlir::Value mainScores(Ctx &c, const Types &t, mlir::Value kd, mlir::Value qt, mlir::Value tmv) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr cl = c.cluster(), ks = cat({c.nc(), c.gap(), c.sb(), c.d(p.vb, p.D)});
  Term dp = c.d(1, p.vb);
  mlir::Type kf = b.stream("kf", bf, cl, ks, cat({c.si(1, p.SI)}), cat({dp}));
  mlir::Type ksT = b.stream("ks", bf, cl, cat({c.nc(), c.gap(), c.ax("XK", p.ring)}),
                            cat({c.si(1, p.SI), c.sb(), c.d(p.vb, p.D)}), cat({dp}));
  mlir::Type sres = b.stream("sres", bf, cl, c.qSlices(), cat({c.si(1, p.SI), c.sb(), c.rows()}),
                             cat({c.lanes()}));
  mlir::Value v = b.fetch("k1", Context::main, kd, kf);
  v = b.collect("k3", b.switchOp("k2", tcp::SwitchMode::broadcast1, v, ksT));
  v = b.contract("sa", v, qt, kPackFlits, t.sacc);
  v = b.vector("sv", v, {Step::vrfOf("add_f", tmv), Step::imm("div_f", float(p.scale))});
  return b.commit("sd", b.cast("sb", v, sres), t.sdm);
}

// The diagonal tile again, from the same key DM: the slices of a query tile hold exactly its
// keys, so a broadcast over that ring streams them, against diag_mask.
mlir::Value diagScores(Ctx &c, const Types &t, mlir::Value kd, mlir::Value qt, mlir::Value dmv) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr cl = c.cluster(), ks = cat({c.nc(), c.gap(), c.tb(), c.d(p.vb, p.D)});
  Term dp = c.d(1, p.vb);
  mlir::Type kddm = b.dm("kddm", bf, cl, ks, cat({c.si(1, p.SI), dp}));
  mlir::Type kdf = b.stream("kdf", bf, cl, ks, cat({c.si(1, p.SI)}), cat({dp}));
  mlir::Type kds = b.stream("kds", bf, cl, cat({c.nc(), c.gap(), c.tb(), c.ax("XT", p.keySlices)}),
                            cat({c.si(1, p.SI), c.d(p.vb, p.D)}), cat({dp}));
  mlir::Type dres =
      b.stream("dres", bf, cl, c.qSlices(), cat({c.si(1, p.SI), c.rows()}), cat({c.lanes()}));
  mlir::Value v = b.fetch("d1", Context::main, b.reinterpret("kdd", kd, kddm), kdf);
  v = b.collect("d3", b.switchOp("d2", tcp::SwitchMode::broadcast1, v, kds));
  v = b.contract("da", v, qt, kPackFlits, t.dacc);
  v = b.vector("dv", v, {Step::vrfOf("add_f", dmv), Step::imm("div_f", float(p.scale))});
  return b.commit("dd", b.cast("db", v, dres), t.ddm);
}

// m = max(the main part's max, the diagonal's, m_in); alpha = exp(m_in - m). Returns m and
// alpha in the VRF.
std::pair<mlir::Value, mlir::Value> maxAndAlpha(Ctx &c, const Types &t, mlir::Value sd,
                                                mlir::Value dd, mlir::Value maxIn) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  const Step reduceMax = Step::op("reduce_max_f");
  mlir::Value mm;
  if (p.hasMain)
    mm = pass(b, "m1", "m2", "m3", "mm", Context::main, sd, t.sacc, {reduceMax}, t.qrowdm, t.qrow);
  mlir::Value md =
      pass(b, "n1", "n2", "n3", "md", Context::main, dd, t.dacc, {reduceMax}, t.qrowdm, t.qrow);
  mlir::Value best = md; // the larger of the parts
  if (p.hasMain) {
    mlir::Value mdv = toVrf(b, "n4", "n5", "mdv", Context::sub, md, t.qrow, t.qrowvrf);
    best = pass(b, "x1", "x2", "x3", "mb", Context::main, mm, t.qrow, {Step::vrfOf("max_f", mdv)},
                t.qrowdm);
  }
  mlir::Value mi = b.dma("mi", maxIn, t.qrowdm);
  mlir::Value miv = toVrf(b, "mi1", "mi2", "miv", Context::sub, mi, t.qrow, t.qrowvrf);
  mlir::Value m = pass(b, "x6", "x7", "x8", "m", Context::main, best, t.qrow,
                       {Step::vrfOf("max_f", miv)}, t.qrowdm);
  mlir::Value mv = toVrf(b, "x4", "x5", "mv", Context::sub, m, t.qrow, t.qrowvrf);
  mlir::Value al = pass(b, "c1", "c2", "c3", "al", Context::main, mi, t.qrow,
                        {Step::vrfOf("sub_f", mv), Step::op("exp_f")}, t.qrowdm);
  mlir::Value alv = toVrf(b, "c4", "c5", "alv", Context::sub, al, t.qrow, t.qrowvrf);
  return {mv, alv};
}

// p = bf16(exp(s - m)), transposed on the way (tr keys a packet, the lanes into time), then
// into the TRF beside the queries: the main part (every tile's keys) or the diagonal tile's.
// Returns p's DM and TRF tensors.
std::pair<mlir::Value, mlir::Value> probabilities(Ctx &c, bool main, mlir::Value scores,
                                                  mlir::Type pdm, mlir::Type ptrf, mlir::Value mv) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr cl = c.cluster(), qs = c.qSlices();
  Term sb = main ? c.sb() : Term(), keyRows = c.si(p.tr, p.SI), keyCol = c.si(1, p.tr);
  const std::string x = main ? "" : "d";
  Expr inTime = cat({sb, keyRows, keyCol, c.rows()});
  mlir::Type ein = b.stream(x + "ein", f, cl, qs, inTime, cat({c.lanes()}));
  mlir::Type einb = b.stream(x + "einb", bf, cl, qs, inTime, cat({c.lanes()}));
  mlir::Type eout =
      b.stream(x + "eout", bf, cl, qs, cat({sb, keyRows, c.rows(), c.lanes()}), cat({keyCol}));
  mlir::Type load =
      b.stream(main ? "pload" : "pdload", bf, cl, qs,
               cat({c.lanes(), c.rows(), sb, c.si(p.vb, p.SI)}), cat({c.si(1, p.vb)}));
  const std::string e = main ? "e" : "f", g = main ? "p" : "g";
  mlir::Value v = b.collect(e + "2", b.fetch(e + "1", Context::main, scores, ein));
  v = b.vector(e + "3", v, {Step::vrfOf("sub_f", mv), Step::op("exp_f")});
  v = b.transpose(e + "5", b.cast(e + "4", v, einb), eout);
  mlir::Value pd = b.commit(main ? "pd" : "pdd", v, pdm);
  v = b.collect(g + "2", b.fetch(g + "1", Context::main, pd, load));
  return {pd, b.toTrf(main ? "pt" : "pdt", v, ptrf)};
}

// l = p . 1 over both parts (a contraction against ones made from a view of p: p x 0 + 1, p
// finite), plus l_in alpha.
mlir::Value sums(Ctx &c, const Types &t, mlir::Value pd, mlir::Value pt, mlir::Value pdd,
                 mlir::Value pdt, mlir::Value alv, mlir::Value sumIn) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr cl = c.cluster(), qs = c.qSlices();
  Term sb = p.hasMain ? c.sb() : Term(), keys = c.si(1, p.SI);
  Term flit = c.si(p.vb, p.SI), packet = c.si(1, p.vb);
  const int64_t pack = c.keyPack();
  mlir::Type pview = b.dm("pview", bf, cl, qs, cat({sb, keys}));
  const int64_t vf = p.vb / 2; // f32 a flit
  mlir::Type onein = b.stream("onein", f, cl, qs, cat({sb, c.si(vf, p.SI)}), cat({c.si(1, vf)}));
  mlir::Type onedm = b.dm("onedm", bf, cl, qs, cat({sb, keys}));
  mlir::Type ones = b.stream("ones", bf, cl, qs, cat({sb, flit}), cat({packet}));
  mlir::Type onesd = b.stream("onesd", bf, cl, qs, cat({flit}), cat({packet}));

  mlir::Value pv = b.dmView("pv", p.hasMain ? pd : pdd, 0, std::nullopt, pview);
  mlir::Value one = pass(b, "o1", "o2", "o3", "one", Context::main, pv, onein,
                         {Step::fma(0.0f, 1.0f)}, onedm, {}, true);
  mlir::Value lm;
  if (p.hasMain) {
    mlir::Value v = b.collect("l2", b.fetch("l1", Context::main, one, ones));
    lm = b.commit("lm", b.contract("la", v, pt, pack, t.qrow), t.qrowdm);
  }
  mlir::Value v = b.collect("l4", b.fetch("l3", Context::main, one, onesd));
  mlir::Value lp = b.commit("ld", b.contract("lb", v, pdt, pack, t.qrow), t.qrowdm);
  if (p.hasMain) {
    mlir::Value ldv = toVrf(b, "l5", "l6", "ldv", Context::sub, lp, t.qrow, t.qrowvrf);
    lp = pass(b, "l7", "l8", "l9", "lp", Context::main, lm, t.qrow, {Step::vrfOf("add_f", ldv)},
              t.qrowdm);
  }
  mlir::Value li = b.dma("li", sumIn, t.qrowdm);
  mlir::Value lia = pass(b, "li1", "li2", "li3", "lia", Context::main, li, t.qrow,
                         {Step::vrfOf("mul_f", alv)}, t.qrowdm);
  mlir::Value liv = toVrf(b, "li4", "li5", "liv", Context::sub, lia, t.qrow, t.qrowvrf);
  return pass(b, "li6", "li7", "li8", "l", Context::main, lp, t.qrow, {Step::vrfOf("add_f", liv)},
              t.qrowdm);
}

// V, transposed on each slice to [D % vd, SI % 16] (vd = SI: a tile's V fills its slices).
mlir::Value loadValues(Ctx &c, mlir::Value v) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr vsl = cat({c.nc(), c.gap(), c.sb(), c.d(p.vd, p.D), c.si(p.vb, p.SI)});
  Term vdIn = c.d(1, p.vd), kIn = c.si(1, p.vb), keyRows = c.si(p.tr, p.vb);
  mlir::Type vdm = b.dm("vdm", bf, c.cluster(), vsl, cat({kIn, vdIn}));
  mlir::Type vrows = b.stream("vrows", bf, c.cluster(), vsl,
                              cat({keyRows, c.d(p.vb, p.vd), c.si(1, p.tr), c.d(p.lanes, p.vb)}),
                              cat({c.d(1, p.lanes)}));
  mlir::Type vcols = b.stream("vcols", bf, c.cluster(), vsl,
                              cat({keyRows, c.d(p.vb, p.vd), c.d(p.lanes, p.vb), c.d(1, p.lanes)}),
                              cat({c.si(1, p.tr)}));
  mlir::Type vtdm = b.dm("vtdm", bf, c.cluster(), vsl, cat({vdIn, kIn}));
  mlir::Value vd = b.dma("vd", v, vdm);
  mlir::Value x = b.collect("v2", b.fetch("v1", Context::main, vd, vrows));
  return b.commit("vt", b.transpose("v3", x, vcols), vtdm);
}

// o = p . V: V broadcast around the rings (the diagonal's: the query tile's slices; the main
// one's: the kv head's) and contracted against p; the diagonal part (plus o_in alpha, from
// the VRF) through the VRF into the main part's chain.
mlir::Value values(Ctx &c, const Types &t, mlir::Value v, mlir::Value &vt, mlir::Value pt,
                   mlir::Value pdt, mlir::Value alv, mlir::Value outIn) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16();
  Expr cl = c.cluster();
  Term nc = c.nc(), vdIn = c.d(1, p.vd), vdOut = c.d(p.vd, p.D);
  Term kIn = c.si(1, p.vb), kOut = c.si(p.vb, p.SI);
  const int64_t pack = c.keyPack();
  Expr vdsl = cat({nc, c.gap(), c.tb(), vdOut, kOut});
  mlir::Type vtddm = b.dm("vtddm", bf, cl, vdsl, cat({vdIn, kIn}));
  mlir::Type vdf = b.stream("vdf", bf, cl, vdsl, cat({vdIn}), cat({kIn}));
  mlir::Type vds = b.stream("vds", bf, cl, cat({nc, c.gap(), c.tb(), c.ax("XT", p.keySlices)}),
                            cat({vdIn, vdOut, kOut}), cat({kIn}));
  // o_in keeps HBM's order of d (halves) in DM, one contiguous run a slice; the fetch reads
  // it in the contraction's order.
  const int64_t half = p.D / 2;
  mlir::Type ostate = b.dm("ostate", b.f32(), cl, c.qSlices(),
                           cat({c.d(1, half), c.d(half, p.D), c.rows(), c.lanes()}));

  if (!vt) // the first pass loads V; the others reuse it
    vt = loadValues(c, v);
  mlir::Value x = b.fetch("w1", Context::main, b.reinterpret("vtd", vt, vtddm), vdf);
  mlir::Value w3 = b.collect("w3", b.switchOp("w2", tcp::SwitchMode::broadcast1, x, vds));
  mlir::Value oi = b.dma("oi", outIn, ostate);
  mlir::Value oia = pass(b, "oi1", "oi2", "oi3", "oia", Context::main, oi, t.oload,
                         {Step::vrfOf("mul_f", alv)}, t.odm);
  mlir::Value oiv = toVrf(b, "oi4", "oi5", "oiv", Context::main, oia, t.oload, t.ovrf);
  x = b.vector("oa2", b.contract("oa", w3, pdt, pack, t.oacc), {Step::vrfOf("add_f", oiv)});
  mlir::Value od = b.commit(p.hasMain ? "od" : "o", x, t.odm);
  if (!p.hasMain)
    return od;
  Expr vsl = cat({nc, c.gap(), c.sb(), vdOut, kOut});
  mlir::Type vf = b.stream("vf", bf, cl, vsl, cat({vdIn}), cat({kIn}));
  mlir::Type vs = b.stream("vs", bf, cl, cat({nc, c.gap(), c.ax("XK", p.ring)}),
                           cat({vdIn, c.sb(), vdOut, kOut}), cat({kIn}));
  mlir::Value odv = toVrf(b, "y1", "y2", "odv", Context::main, od, t.oload, t.ovrf);
  x = b.fetch("u1", Context::main, vt, vf);
  x = b.collect("u3", b.switchOp("u2", tcp::SwitchMode::broadcast1, x, vs));
  x = b.vector("os", b.contract("ob", x, pt, pack, t.oacc), {Step::vrfOf("add_f", odv)});
  return b.commit("o", x, t.odm);
}

// a = bf16(o / l), transposed on the way (tr values of d a packet) so that each query's 16
// values of d are contiguous.
mlir::Value normalise(Ctx &c, const Types &t, mlir::Value o, mlir::Value l) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  Expr cl = c.cluster(), qs = c.qSlices();
  Term dOut = c.d(p.vd, p.D), dRows = c.d(p.tr, p.vd), dCol = c.d(1, p.tr);
  Expr inTime = cat({dOut, dRows, dCol, c.rows()});
  mlir::Type ain = b.stream("ain", f, cl, qs, inTime, cat({c.lanes()}));
  mlir::Type ainb = b.stream("ainb", bf, cl, qs, inTime, cat({c.lanes()}));
  mlir::Type aout =
      b.stream("aout", bf, cl, qs, cat({dOut, dRows, c.rows(), c.lanes()}), cat({dCol}));
  mlir::Type adm =
      b.dm("adm", bf, cl, qs, cat({c.d(p.vb, p.D), c.rows(), c.lanes(), c.d(1, p.vb)}));
  mlir::Value lv = toVrf(b, "z1", "z2", "lv", Context::sub, l, t.qrow, t.qrowvrf);
  mlir::Value v = b.collect("a2", b.fetch("a1", Context::main, o, ain));
  v = b.vector("a3", v, {Step::vrfOf("div_f", lv)});
  v = b.transpose("a5", b.cast("a4", v, ainb), aout);
  return b.commit("a", v, adm);
}

void declareAxes(Ctx &c) {
  const Plan &p = c.p;
  const std::vector<std::pair<const char *, int64_t>> axes = {
      {"N", p.N},   {"G", p.GA},  {"D", p.D},     {"TB", p.TB},        {"TT", p.TT},
      {"TQ", p.TQ}, {"SB", p.SB}, {"SI", p.SI},   {"XK", p.ring},      {"XT", p.keySlices},
      {"CL", p.lone ? 1 : p.C}, // the masks' copies (a lone head's: none)
      {"RQ", p.RQ}, {"RN", p.NC}, {"RG", p.G},    {"RT", p.TT},        {"RB", p.TB}};
  for (const auto &[name, size] : axes)
    if (size > 1)
      c.b.axis(name, size);
  // Each pass's heads and copies (one declaration a name).
  std::vector<std::string> named;
  for (int64_t h : p.heads) {
    const auto [g, r] = passAxes(p, h);
    if (std::find(named.begin(), named.end(), g) != named.end())
      continue;
    named.push_back(g);
    if (p.passes > 1 && h > 1) // one pass: G, above
      c.b.axis(g, h);
    if (p.G / h > 1)
      c.b.axis(r, p.G / h);
  }
}

// The stage's HBM arguments, or a pass's views of them (its heads).
struct Args {
  mlir::Value q, k, v, tileMask, diagMask, maxIn, sumIn, outIn, attn;
};

// What the first pass loads and the others reuse: the masks, the keys and V in DM.
struct Shared {
  mlir::Value tmd, dmd, kd, vt;
};

// Pass `pass`'s heads of q, the state and attn: views at its heads' offsets.
Args passArgs(Ctx &c, const Args &a, int64_t pass) {
  StageBuilder &b = c.b;
  const AttentionLayouts l = attentionLayouts(c.p, true);
  const PassOffsets at = passOffsets(c.p, pass);
  mlir::Type bf = b.bf16(), f = b.f32();
  mlir::Type qp = b.hbm("qp", bf, l.q), stp = b.hbm("stp", f, l.state);
  mlir::Type osp = b.hbm("osp", f, l.outState), ap = b.hbm("ap", bf, l.attn);
  const std::string x = num(pass);
  Args v = a;
  v.q = b.view("qv" + x + "_", a.q, at.q, qp);
  v.maxIn = b.view("miv" + x + "_", a.maxIn, at.state, stp);
  v.sumIn = b.view("siv" + x + "_", a.sumIn, at.state, stp);
  v.outIn = b.view("oiv" + x + "_", a.outIn, at.out, osp);
  v.attn = b.view("av" + x + "_", a.attn, at.out, ap);
  return v;
}

// One pass: its heads' queries against every key (the masks, keys and V loaded by the first);
// returns its a in DM.
mlir::Value attendPass(Ctx &c, const Types &t, const Args &a, Shared &s) {
  StageBuilder &b = c.b;
  const Plan &p = c.p;
  mlir::Value qt = loadQueries(c, a.q), tmv;
  if (p.hasMain)
    tmv = loadMask(c, "tm", a.tileMask,
                   cat({c.ax("RN", p.NC), c.gap(), c.tb(), c.ax("RG", p.G), c.ax("RT", p.TT)}),
                   c.sb(), s.tmd);
  mlir::Value dmv = loadMask(c, "dm", a.diagMask,
                             cat({c.ax("RN", p.NC), c.gap(), c.ax("RB", p.TB), c.ax("RQ", p.RQ),
                                  c.ax("RG", p.G), c.tt()}),
                             c.ax("SI", p.SI), s.dmd);
  if (!s.kd)
    s.kd = loadKeys(c, a.k);
  mlir::Value sd = p.hasMain ? mainScores(c, t, s.kd, qt, tmv) : mlir::Value();
  mlir::Value dd = diagScores(c, t, s.kd, qt, dmv);
  auto [mv, alv] = maxAndAlpha(c, t, sd, dd, a.maxIn);
  mlir::Value pd, pt;
  if (p.hasMain)
    std::tie(pd, pt) = probabilities(c, true, sd, t.pdm, t.ptrf, mv);
  auto [pdd, pdt] = probabilities(c, false, dd, t.pddm, t.pdtrf, mv);
  mlir::Value l = sums(c, t, pd, pt, pdd, pdt, alv, a.sumIn);
  mlir::Value o = values(c, t, a.v, s.vt, pt, pdt, alv, a.outIn);
  return normalise(c, t, o, l);
}

} // namespace

llvm::Error buildPrefillAttentionFirst(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  return buildPrefillAttentionFirstInto(b, shape, tokens, mlir::Value(), nullptr);
}

llvm::Error buildPrefillAttentionFirstInto(StageBuilder &b, const Qwen3Shape &shape,
                                           int64_t tokens, mlir::Value attn, mlir::Value *aInDm) {
  llvm::Expected<AttentionPlan> plan = planAttention(shape, b.target(), tokens);
  if (!plan)
    return plan.takeError();
  const Plan &p = *plan;
  Ctx c{b, p};
  describeAttentionSignature(b, p);
  describeAttentionPlacement(b, p);
  declareAxes(c);
  mlir::Type bf = b.bf16(), f = b.f32();
  const AttentionLayouts hbm = attentionLayouts(p);
  mlir::Type qhT = b.hbm("qh", bf, hbm.q), kv = b.hbm("kv", bf, hbm.kv);
  mlir::Type tmh = b.hbm("tmh", f, hbm.tileMask), dmh = b.hbm("dmh", f, hbm.diagMask);
  mlir::Type sth = b.hbm("sth", f, hbm.state), osh = b.hbm("osh", f, hbm.outState);
  mlir::Type ah = b.hbm("ah", bf, hbm.attn);

  Args a;
  a.q = b.input("q", qhT), a.k = b.input("k_cache", kv), a.v = b.input("v_cache", kv);
  a.tileMask = b.input("tile_mask", tmh), a.diagMask = b.input("diag_mask", dmh);
  a.maxIn = b.input("max_in", sth), a.sumIn = b.input("sum_in", sth);
  a.outIn = b.input("out_in", osh);
  a.attn = attn ? b.view("attnv", attn, 0, ah) : b.output("attn", ah);

  Shared s;
  for (int64_t pass = 0; pass < p.passes; ++pass) {
    const Plan pp = passPlan(p, pass);
    Ctx cp{b, pp};
    Types t = makeTypes(cp);
    const Args pa = p.passes > 1 ? passArgs(cp, a, pass) : a;
    mlir::Value out = attendPass(cp, t, pa, s);
    b.dmaInto(out, pa.attn);
    if (aInDm && p.passes == 1) // the whole of a in one DM tensor
      *aInDm = out;
  }
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
