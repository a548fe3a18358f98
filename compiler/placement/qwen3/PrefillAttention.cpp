// `prefill_attention`: a block of T queries against one earlier, full chunk of the KV cache (no
// mask), folded into each query's online-softmax state. The queries stay in the TRF, the keys
// and V are broadcast around each kv head's ring of slices (kernels/qwen3/prefill_attention.mlir
// was the hand-placed original; docs/prefill.md, "Attention and the decoder"). With a key mask
// it builds prefill_attention_partial (PrefillAttentionPartial.h).
#include "compiler/placement/qwen3/PrefillAttentionPlan.h"
#include "compiler/placement/qwen3/Stages.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace rngd::placement::qwen3 {

namespace {

using chunk_fold::AttentionPlan;
using chunk_fold::headCluster;
using chunk_fold::headSlices;
using chunk_fold::passAxis;
using chunk_fold::passPlan;
using chunk_fold::planAttention;
using mlir::Type;
using mlir::Value;
using tcp::Context;

constexpr const char *kStage = "prefill_attention";

std::string num(int64_t n) { return std::to_string(n); }

// The types, under the hand-placed file's aliases.
struct AttentionTypes {
  Type qp, sp, op; // a pass's views of q, the state and out (its heads; several passes)
  Type qh, kv, qdm, qload, qtrf, krow, krf, krt, kdm, kf, ks, sacc, sres, sdm, qrow, qrowdm,
      qrowvrf, ein, einb, eout, pdm, pload, ptrf, pview, onein, onedm, ones, lacc, vdm, vrows,
      vcols, vtdm, vf, vs, oacc, odm, oload, ovrf, sth, oh, ostate;
  std::string qLayout; // q's HBM mapping, for the header
  KeyMaskTypes km;     // prefill_attention_partial's key mask
};

// q as prefill_projection writes it (its token blocks over this stage's TB, TT, TQ), and a
// pass's view of it (its heads gPass of the G).
void declareQueries(StageBuilder &b, AttentionTypes &y, const AttentionPlan &p, int64_t T,
                    const Expr &n, const Expr &gAll, const Expr &gPass, const Expr &d) {
  const int64_t L = p.lanes;
  Type bf = b.bf16();
  const ProjectionTokens pt = projectionTokens(T, b.target());
  const TokenAxes tokens = {{"TB", p.tb}, {"TT", p.tt}, {"TQ", p.tq}};
  std::vector<Expr> qItems = tokenDigits(tokens, pt.perCluster, T);
  qItems.insert(qItems.end(), {n, gAll});
  for (const Expr &e : tokenDigits(tokens, pt.queryBlock, pt.perCluster))
    qItems.push_back(e);
  qItems.push_back(d / L);
  for (const Expr &e : tokenDigits(tokens, 1, pt.queryBlock))
    qItems.push_back(e);
  qItems.push_back(d % L);
  y.qh = b.hbm("qh", bf, Expr::pair(qItems));
  y.qLayout = Expr::pair(qItems).str();
  if (p.passes > 1) {
    std::replace_if(
        qItems.begin(), qItems.end(), [&](const Expr &e) { return e.str() == gAll.str(); },
        gPass);
    y.qp = b.hbm("qp", bf, Expr::pair(qItems));
  }
}

// A pass's types (its heads: p.heads); `declared`: the axes declared so far (each once).
AttentionTypes declareTypes(StageBuilder &b, const Qwen3Shape &s, const AttentionPlan &p,
                            int64_t T, std::vector<std::string> &declared) {
  auto axis = [&](const std::string &name, int64_t size) {
    if (std::find(declared.begin(), declared.end(), name) != declared.end())
      return Expr::axis(name);
    declared.push_back(name);
    return b.axis(name, size);
  };
  const int64_t G = p.heads, D = s.headDim;
  // g: a pass's q heads (GP, GQ, ... of the model's G when there are several passes).
  Expr n = axis("N", s.kvHeads), gAll = axis("G", s.groups()), d = axis("D", D);
  Expr g = p.passes == 1 ? gAll : G > 1 ? axis(passAxis(p, G), G) : Expr::one();
  Expr gPass = g.pad(s.groups()); // a pass's heads among all of them (its views)
  Expr tb = axis("TB", p.tb), tt = axis("TT", p.tt), tq = axis("TQ", p.tq);
  Expr sb = axis("SB", p.sb), si = axis("SI", p.si);
  Expr ringAxis = axis("XR", p.ring); // a ring of the kv head: the broadcast's copies
  const int64_t L = p.lanes, F = p.flitBf16, dv = D / p.vSplit, tr = p.trRows;
  Type bf = b.bf16(), f = b.f32();
  Expr cl = headCluster(p, n, b.target());
  // A kv head's query slices; a block smaller than the ring leaves its last tiles padding.
  const int64_t GS = p.gSlots;
  Expr tbSlices = p.tb * GS * p.tt < p.ring ? tb.pad(p.ring / (GS * p.tt)) : tb;
  Expr qs = headSlices(p, n, {tbSlices, GS > G ? g.pad(GS) : g, tt});
  Expr ringSlices = headSlices(p, n, {ringAxis});
  AttentionTypes y;
  declareQueries(b, y, p, T, n, gAll, gPass, d);
  y.kv = b.hbm("kv", bf, Expr::pair({sb, si, n, d}));
  y.qdm = b.dm("qdm", bf, cl, qs, Expr::pair({d / L, tq / L, tq % L, d % L}));
  y.qload = b.stream("qload", bf, cl, qs, Expr::pair({tq % L, tq / L, d / F, d % F / L}), d % L);
  y.qtrf = b.trf("qtrf", bf, cl, qs, tq % L, Expr::pair({tq / L, d}));
  const int64_t kps = p.keysPerSlice;
  Expr krowSlices = headSlices(p, n, {sb, si / kps});
  Expr kdmSlices = headSlices(p, n, {sb, d / F});
  y.krow = b.dm("krow", bf, cl, krowSlices, Expr::pair({si % kps, d}));
  y.krf = b.stream("krf", bf, cl, krowSlices, Expr::pair({si % kps, d / F}), d % F);
  y.krt = b.stream("krt", bf, cl, kdmSlices, Expr::pair({si % kps, si / kps}), d % F);
  y.kdm = b.dm("kdm", bf, cl, kdmSlices, Expr::pair({si, d % F}));
  y.kf = b.stream("kf", bf, cl, kdmSlices, si, d % F);
  y.ks = b.stream("ks", bf, cl, ringSlices, Expr::pair({si, sb, d / F}), d % F);
  Expr sTime = Expr::pair({si, sb, tq / L});
  y.sacc = b.stream("sacc", f, cl, qs, sTime, tq % L);
  y.sres = b.stream("sres", bf, cl, qs, sTime, tq % L);
  y.sdm = b.dm("sdm", bf, cl, qs, Expr::pair({si, sb, tq / L, tq % L}));
  y.qrow = b.stream("qrow", f, cl, qs, tq / L, tq % L);
  y.qrowdm = b.dm("qrowdm", f, cl, qs, Expr::pair({tq / L, tq % L}));
  y.qrowvrf = b.vrf("qrowvrf", f, cl, qs, Expr::pair({tq / L, tq % L}));
  Expr eTime = Expr::pair({sb, si / tr, si % tr, tq / L});
  y.ein = b.stream("ein", f, cl, qs, eTime, tq % L);
  y.einb = b.stream("einb", bf, cl, qs, eTime, tq % L);
  y.eout = b.stream("eout", bf, cl, qs, Expr::pair({sb, si / tr, tq / L, tq % L}), si % tr);
  y.pdm = b.dm("pdm", bf, cl, qs, Expr::pair({tq % L, tq / L, sb, si}));
  y.pload = b.stream("pload", bf, cl, qs, Expr::pair({tq % L, tq / L, sb, si / F}), si % F);
  y.ptrf = b.trf("ptrf", bf, cl, qs, tq % L, Expr::pair({tq / L, sb, si}));
  y.pview = b.dm("pview", bf, cl, qs, Expr::pair({sb, si}));
  y.onein = b.stream("onein", f, cl, qs, Expr::pair({sb, si / p.flitF32}), si % p.flitF32);
  y.onedm = b.dm("onedm", bf, cl, qs, Expr::pair({sb, si}));
  y.ones = b.stream("ones", bf, cl, qs, Expr::pair({sb, si / F}), si % F);
  y.lacc = b.stream("lacc", f, cl, qs, tq / L, tq % L);
  const int64_t tv = b.target().transposeValidElements;
  Expr vSlices = headSlices(p, n, {sb, d / dv, si / F});
  y.vdm = b.dm("vdm", bf, cl, vSlices, Expr::pair({si % F, d % dv}));
  y.vrows = b.stream("vrows", bf, cl, vSlices,
                     Expr::pair({si % F / tr, d % dv / F, si % tr, d % F / tv}), d % tv);
  y.vcols = b.stream("vcols", bf, cl, vSlices,
                     Expr::pair({si % F / tr, d % dv / F, d % F / tv, d % tv}), si % tr);
  y.vtdm = b.dm("vtdm", bf, cl, vSlices, Expr::pair({d % dv, si % F}));
  y.vf = b.stream("vf", bf, cl, vSlices, d % dv, si % F);
  y.vs = b.stream("vs", bf, cl, ringSlices, Expr::pair({d % dv, sb, d / dv, si / F}), si % F);
  Expr oTime = Expr::pair({d % dv, d / dv, tq / L});
  y.oacc = b.stream("oacc", f, cl, qs, oTime, tq % L);
  y.odm = b.dm("odm", f, cl, qs, Expr::pair({d % dv, d / dv, tq / L, tq % L}));
  y.oload = b.stream("oload", f, cl, qs, oTime, tq % L);
  y.ovrf = b.vrf("ovrf", f, cl, qs, Expr::pair({d % dv, d / dv, tq / L, tq % L}));
  y.sth = b.hbm("sth", f, Expr::pair({n, gAll, tb, tt, tq}));
  y.oh = b.hbm("oh", f, Expr::pair({n, gAll, tb, tt, d % dv, d / dv, tq}));
  if (p.passes > 1) {
    y.sp = b.hbm("sp", f, Expr::pair({n, gPass, tb, tt, tq}));
    y.op = b.hbm("op", f, Expr::pair({n, gPass, tb, tt, d % dv, d / dv, tq}));
  }
  y.ostate = b.dm("ostate", f, cl, qs, Expr::pair({d % dv, d / dv, tq / L, tq % L}));
  if (p.partial)
    y.km = declareKeyMask(b, p.km, cl, qs, sb, si, d, axis("TR", p.tq / L), axis("TL", L), F);
  return y;
}

struct AttentionArgs {
  Value q, k, v, max, sum, out;
  Value kd, vt; // the keys and V in DM: loaded by the first pass, reused by the others
  Value mask, maskd; // prefill_attention_partial's key mask, and its DM copy (null otherwise)
};

// With a key mask the queries from their DM copy on are [TR, TL] (PrefillAttentionPartial.h).
Value loadQueries(StageBuilder &b, const AttentionTypes &y, const AttentionArgs &a) {
  Value qd = b.dma("qd", a.q, y.qdm);
  if (a.mask)
    qd = b.reinterpret("qr", qd, y.km.qdm);
  Value q1 = b.fetch("q1", Context::main, qd, a.mask ? y.km.qload : y.qload);
  Value q2 = b.collect("q2", q1);
  return b.toTrf("qt", q2, a.mask ? y.km.qtrf : y.qtrf);
}

// k's rows laid out by the inter_transpose: slice (SB, D / 16) of the ring holds SI keys.
Value loadKeys(StageBuilder &b, const AttentionTypes &y, const AttentionArgs &a) {
  Value kr = b.dma("kr", a.k, y.krow);
  Value kr1 = b.fetch("kr1", Context::main, kr, y.krf);
  Value kr2 = b.switchOp("kr2", tcp::SwitchMode::inter_transpose, kr1, y.krt);
  Value kr3 = b.collect("kr3", kr2);
  return b.commit("kd", kr3, y.kdm);
}

// s = bf16(q . k / sqrt(D)): the keys broadcast around the ring; with a key mask
// s = bf16((q . k + key_mask) / sqrt(D)).
Value scores(StageBuilder &b, const AttentionTypes &y, AttentionArgs &a, Value qt,
             int64_t headDim) {
  Value kmv = a.mask ? loadKeyMask(b, y.km, a.mask, a.maskd) : Value();
  if (!a.kd)
    a.kd = loadKeys(b, y, a);
  Value k1 = b.fetch("k1", Context::main, a.kd, y.kf);
  Value k2 = b.switchOp("k2", tcp::SwitchMode::broadcast1, k1, y.ks);
  Value k3 = b.collect("k3", k2);
  const bool m = bool(kmv); // the scores over [TR, TL], spelled back to TQ in DM
  Value sa = b.contract("sa", k3, qt, kTimeBroadcastRows, m ? y.km.sacc : y.sacc);
  std::vector<Step> steps = {Step::imm("div_f", float(std::sqrt(double(headDim))))};
  if (m)
    steps.insert(steps.begin(), Step::vrfOf("add_f", kmv));
  Value sv = b.vector("sv", sa, steps);
  Value sbv = b.cast("sb", sv, m ? y.km.sres : y.sres);
  Value sd = b.commit("sd", sbv, m ? y.km.sdm : y.sdm);
  return m ? b.reinterpret("sq", sd, y.sdm) : sd;
}

struct Softmax {
  Value m;   // m' in DM (stored at the end)
  Value mv;  // m' in the VRF
  Value alv; // alpha = exp(m - m') in the VRF
};

// A row vector (one value per query) fetched on the sub context and put in the VRF.
Value rowToVrf(StageBuilder &b, const AttentionTypes &y, const char *fetched, const char *collected,
               const char *name, Value row) {
  Value f = b.fetch(fetched, Context::sub, row, y.qrow);
  Value cl = b.collect(collected, f);
  return b.toVrf(name, cl, y.qrowvrf);
}

// m' = max(m, max_s s); alpha = exp(m - m').
Softmax maxAndAlpha(StageBuilder &b, const AttentionTypes &y, const AttentionArgs &a, Value sd) {
  Value m1 = b.fetch("m1", Context::main, sd, y.sacc);
  Value m2 = b.collect("m2", m1);
  Value m3 = b.vector("m3", m2, {Step::op("reduce_max_f")}, y.qrow);
  Value mc = b.commit("mc", m3, y.qrowdm);
  Value mo = b.dma("mo", a.max, y.qrowdm);
  Value mov = rowToVrf(b, y, "n1", "n2", "mov", mo);
  Value x1 = b.fetch("x1", Context::main, mc, y.qrow);
  Value x2 = b.collect("x2", x1);
  Value x3 = b.vector("x3", x2, {Step::vrfOf("max_f", mov)});
  Softmax sm;
  sm.m = b.commit("m", x3, y.qrowdm);
  sm.mv = rowToVrf(b, y, "x4", "x5", "mv", sm.m);
  Value a1 = b.fetch("a1", Context::main, mo, y.qrow);
  Value a2 = b.collect("a2", a1);
  Value a3 = b.vector("a3", a2, {Step::vrfOf("sub_f", sm.mv), Step::op("exp_f")});
  Value al = b.commit("al", a3, y.qrowdm);
  sm.alv = rowToVrf(b, y, "a4", "a5", "alv", al);
  return sm;
}

// p = bf16(exp(s - m')), transposed (keys into the packets) for the TRF.
Value probabilities(StageBuilder &b, const AttentionTypes &y, Value sd, Value mv) {
  Value e1 = b.fetch("e1", Context::main, sd, y.ein);
  Value e2 = b.collect("e2", e1);
  Value e3 = b.vector("e3", e2, {Step::vrfOf("sub_f", mv), Step::op("exp_f")});
  Value e4 = b.cast("e4", e3, y.einb);
  Value e5 = b.transpose("e5", e4, y.eout);
  return b.commit("pd", e5, y.pdm);
}

Value pdToTrf(StageBuilder &b, const AttentionTypes &y, Value pd) {
  Value p1 = b.fetch("p1", Context::main, pd, y.pload);
  Value p2 = b.collect("p2", p1);
  return b.toTrf("pt", p2, y.ptrf);
}

// l' = l alpha + p . 1 (ones made from a view of p, contracted against p in the TRF).
Value rowSums(StageBuilder &b, const AttentionTypes &y, const AttentionArgs &a, Value pd, Value pt,
              Value alv) {
  Value pv = b.dmView("pv", pd, 0, std::nullopt, y.pview);
  Value o1 = b.fetch("o1", Context::main, pv, y.onein);
  Value o2 = b.collect("o2", o1);
  Value o3 = b.vector("o3", o2, {Step::fma(0.0f, 1.0f)});
  Value one = b.commit("one", o3, y.onedm, /*castToBf16=*/true);
  Value l1 = b.fetch("l1", Context::main, one, y.ones);
  Value l2 = b.collect("l2", l1);
  Value la = b.contract("la", l2, pt, kTimeBroadcastRows, y.lacc);
  Value lc = b.commit("lc", la, y.qrowdm);
  Value lcv = rowToVrf(b, y, "l3", "l4", "lcv", lc);
  Value lo = b.dma("lo", a.sum, y.qrowdm);
  Value l5 = b.fetch("l5", Context::main, lo, y.qrow);
  Value l6 = b.collect("l6", l5);
  Value l7 = b.vector("l7", l6, {Step::vrfOf("mul_f", alv)});
  Value ls = b.commit("ls", l7, y.qrowdm);
  Value l8 = b.fetch("l8", Context::main, ls, y.qrow);
  Value l9 = b.collect("l9", l8);
  Value l10 = b.vector("l10", l9, {Step::vrfOf("add_f", lcv)});
  return b.commit("l", l10, y.qrowdm);
}

// o' = p . V + o alpha: o alpha into the VRF, added in the contraction's chain.
Value output(StageBuilder &b, const AttentionTypes &y, AttentionArgs &a, Value pt, Value alv) {
  Value od = b.dma("od", a.out, y.ostate);
  Value y1 = b.fetch("y1", Context::main, od, y.oload);
  Value y2 = b.collect("y2", y1);
  Value y3 = b.vector("y3", y2, {Step::vrfOf("mul_f", alv)});
  Value oa = b.commit("oa", y3, y.odm);
  Value y4 = b.fetch("y4", Context::main, oa, y.oload);
  Value y5 = b.collect("y5", y4);
  Value oav = b.toVrf("oav", y5, y.ovrf);
  if (!a.vt) {
    Value vd = b.dma("vd", a.v, y.vdm);
    Value v1 = b.fetch("v1", Context::main, vd, y.vrows);
    Value v2 = b.collect("v2", v1);
    Value v3 = b.transpose("v3", v2, y.vcols);
    a.vt = b.commit("vt", v3, y.vtdm);
  }
  Value u1 = b.fetch("u1", Context::main, a.vt, y.vf);
  Value u2 = b.switchOp("u2", tcp::SwitchMode::broadcast1, u1, y.vs);
  Value u3 = b.collect("u3", u2);
  Value ob = b.contract("ob", u3, pt, kTimeBroadcastRows, y.oacc);
  Value os = b.vector("os", ob, {Step::vrfOf("add_f", oav)});
  return b.commit("o", os, y.ostate);
}

// The passes' heads: "2" (all equal), or "2 + 2 + 1".
std::string passesText(const AttentionPlan &p) {
  if (std::all_of(p.split.begin(), p.split.end(), [&](int64_t h) { return h == p.split[0]; }))
    return num(p.split[0]);
  std::string out;
  for (int64_t h : p.split)
    out += (out.empty() ? "" : " + ") + num(h);
  return out;
}

// The slice mapping's factors before a kv head's own: "N % KC, " with several kv heads a
// cluster, then "1 # idle, " when their rings leave the rest of the cluster idle.
std::string headPlaceText(const AttentionPlan &p) {
  return (p.kvPerCluster > 1 ? "N % " + num(p.kvPerCluster) + ", " : std::string()) +
         (p.idle > 1 ? "1 # " + num(p.idle) + ", " : std::string());
}

// Where the kv heads and their rings sit (the placement paragraph's first sentence).
std::string ringsText(const AttentionPlan &p, int64_t clusters) {
  const bool lone = p.kvClusters < clusters;
  const std::string idle =
      p.idle > 1 ? std::string(lone ? " followed by " : ", each ring followed by ") +
                       num((p.idle - 1) * p.ring) +
                       " idle slices (`1 # " + num(p.idle) + "`: the inter_transpose fixes a " +
                       "ring at a chunk's keys / (D / " + num(p.flitBf16) + ") slices)"
                 : std::string();
  if (lone)
    return "the one kv head on cluster 0 (the other clusters idle: `1 # " + num(clusters) +
           "`), its " + num(p.ring) + " slices one ring" + idle;
  return "kv head N on cluster N" +
         (p.kvPerCluster > 1 ? " / " + num(p.kvPerCluster) : std::string()) + ", its " +
         num(p.ring) + " slices one ring" + idle;
}

void describeAttention(StageBuilder &b, const Qwen3Shape &s, const AttentionPlan &p, int64_t T,
                       const std::string &qLayout) {
  const int64_t D = s.headDim, G = p.heads, dv = D / p.vSplit, clusters = b.target().clusters;
  const std::string rootD = "sqrt(" + num(D) + ")";
  if (p.partial)
    b.describe(wrapHeader(partialMathText(p.keys, s.heads, rootD)));
  else
    b.describe(wrapHeader(
      "Multi-token `prefill_attention` stage: a block of T = " + num(T) +
      " queries against one "
      "earlier, full " +
      num(p.keys) +
      "-key chunk of the cache (no mask), folding it into each "
      "query's online-softmax state (read and written), for every one of the " +
      num(s.heads) +
      " q heads:\n"
      "  s[t, s] = bf16((q . k) / " +
      rootD +
      ")\n"
      "  m'      = max(m, max_s s[t, s])\n"
      "  alpha   = exp(m - m')\n"
      "  p[t, s] = bf16(exp(s[t, s] - m'))\n"
      "  l'      = l alpha + sum_s p[t, s]           (the P . 1 contraction)\n"
      "  o'      = p[t] . V + o alpha\n"
      "Before a block's first chunk the host sets m = -2^100, l = 0, o = 0 (alpha is then 0); "
      "prefill_attention_first folds the block's own chunk (causal) into the state and divides."));
  b.describe(wrapHeader(
      "Signature: q [T, Q] bf16 (layout " + qLayout +
      ": prefill_projection's q_out, T = TB x TT x TQ = " + num(p.tb) + " x " + num(p.tt) + " x " +
      num(p.tq) +
      "), k_cache and v_cache [S, N, D] bf16 (a chunk's rows, S = SB x SI "
      "= " +
      num(p.sb) + " x " + num(p.si) +
      "); the state max_hbm, sum_hbm f32 [N, G, T] "
      "(layout [N, G, TB, TT, TQ]) and out_hbm f32 [N, G, T, D] (layout [N, G, TB, TT, D % " +
      num(dv) + ", D / " + num(dv) + ", TQ]), each slice's part contiguous." +
      (p.partial ? " " + partialMaskText(p.sb, p.si, p.tq / p.lanes, p.lanes) : std::string())));
  b.describe(wrapHeader(
      "Placement: " + ringsText(p, clusters) + ". The queries stay in the TRF, " + num(p.tq) +
      " of one q head per "
      "slice (" +
      num(p.lanes) + " lanes x " + num(kTimeBroadcastRows) + " time-broadcast rows) on slice [" +
      headPlaceText(p) + "TB, G, TT]" +
      (p.tb * G * p.tt < p.ring ? " (the block fills " + num(p.tb * G * p.tt) + " of the ring's " +
                                      num(p.ring) + " slices" +
                                      (p.gSlots > G ? ", a tile's " + num(G) + " q heads in " +
                                                          num(p.gSlots) + " slots: G # " +
                                                          num(p.gSlots)
                                                    : std::string()) +
                                      ")"
                                : std::string()) +
      (p.passes > 1 ? " in " + num(p.passes) + " passes of " + passesText(p) + " of the " +
                          num(s.groups()) + " q heads (views of q and the state; the keys and V "
                          "loaded once)"
                    : std::string()) +
      ". The keys arrive as whole rows (" + num(p.keysPerSlice) + " keys x " + num(D) +
      " values on slice (SB, SI / " + num(p.keysPerSlice) +
      ")), the Switch Engine's "
      "inter_transpose swaps SI / " +
      num(p.keysPerSlice) + " with D / " + num(p.flitBf16) + " (a ring of " + num(D / p.flitBf16) +
      "), and a broadcast around the ring streams every "
      "key's " +
      num(D) +
      " values to every query slice. The scores come out with the keys in "
      "time and the queries in the lanes (the max over keys is an intra-slice reduce); p is "
      "transposed into the TRF beside the queries; V, transposed on each slice to [D % " +
      num(dv) + ", S % " + num(p.flitBf16) +
      "], is broadcast around the same ring and "
      "contracted against p; l = p . 1 against ones made from a view of p.\n"
      "Rounding points: s and p are bf16; everything else is f32."));
}

// One pass: its heads' queries against the chunk, their state read and written.
void attendPass(StageBuilder &b, const Qwen3Shape &s, const AttentionTypes &y, AttentionArgs &a) {
  Value qt = loadQueries(b, y, a);
  Value sd = scores(b, y, a, qt, s.headDim);
  Softmax sm = maxAndAlpha(b, y, a, sd);
  Value pd = probabilities(b, y, sd, sm.mv);
  Value pt = pdToTrf(b, y, pd);
  Value l = rowSums(b, y, a, pd, pt, sm.alv);
  Value o = output(b, y, a, pt, sm.alv);
  b.dmaInto(sm.m, a.max);
  b.dmaInto(l, a.sum);
  b.dmaInto(o, a.out);
}

// prefill_attention, or with `partial` prefill_attention_partial (the key mask).
llvm::Error buildAttention(StageBuilder &b, const Qwen3Shape &s, int64_t T, bool partial) {
  llvm::Expected<AttentionPlan> plan =
      planAttention(s, b.target(), T, partial ? kPartialStage : kStage);
  if (!plan)
    return plan.takeError();
  if (partial) {
    llvm::Expected<KeyMaskPlan> km =
        planKeyMask(b.target(), plan->sb, plan->si, plan->tq / plan->lanes);
    if (!km)
      return km.takeError();
    plan->partial = true, plan->km = *km;
  }
  std::vector<std::string> declared;
  AttentionTypes y = declareTypes(b, s, passPlan(*plan, 0), T, declared);
  describeAttention(b, s, *plan, T, y.qLayout);
  AttentionArgs a;
  a.q = b.input("q", y.qh);
  a.k = b.input("k_cache", y.kv);
  a.v = b.input("v_cache", y.kv);
  if (partial)
    a.mask = b.input("key_mask", y.km.hbm);
  a.max = b.inout("max_hbm", y.sth);
  a.sum = b.inout("sum_hbm", y.sth);
  a.out = b.inout("out_hbm", y.oh);
  if (plan->passes == 1) {
    attendPass(b, s, y, a);
    return llvm::Error::success();
  }
  // Pass c's heads: views of q and the state at its heads' offsets (the keys and V stay).
  const int64_t tokensPerCluster = projectionTokens(T, b.target()).perCluster;
  for (int64_t c = 0, heads = 0; c < plan->passes; heads += plan->split[size_t(c++)]) {
    // heads: the heads before pass c, of each kv head; a pass of another count, its types.
    if (c > 0 && plan->split[size_t(c)] != plan->split[size_t(c - 1)]) {
      y = declareTypes(b, s, passPlan(*plan, c), T, declared);
      a.maskd = Value(); // the mask's DM copy on this pass's slices
    }
    const std::string x = std::to_string(c);
    AttentionArgs v = a;
    v.q = b.view("qv" + x + "_", a.q, heads * tokensPerCluster * s.headDim, y.qp);
    v.max = b.view("mv" + x + "_", a.max, heads * T, y.sp);
    v.sum = b.view("sv" + x + "_", a.sum, heads * T, y.sp);
    v.out = b.view("ov" + x + "_", a.out, heads * T * s.headDim, y.op);
    attendPass(b, s, y, v);
    a.kd = v.kd, a.vt = v.vt, a.maskd = v.maskd;
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error buildPrefillAttention(StageBuilder &b, const Qwen3Shape &s, int64_t T) {
  return buildAttention(b, s, T, false);
}

llvm::Error buildPrefillAttentionPartial(StageBuilder &b, const Qwen3Shape &s, int64_t T) {
  return buildAttention(b, s, T, true);
}

} // namespace rngd::placement::qwen3
