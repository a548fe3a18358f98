// `projection`: x^ = RMSNorm(x); q, k, v = x^ W^T; per-head RMSNorm and RoPE of q and k; q to
// q_out, the new k and v rows scattered into the KV-cache chunk (kernels/qwen3/projection.mlir
// was the hand-placed original; docs/performance.md, "Stage placement").
#include "compiler/placement/qwen3/DecodeAttentionPlan.h"
#include "compiler/placement/qwen3/DecodeProjectionPlan.h"
#include "compiler/placement/qwen3/DecodeProjectionText.h"
#include "compiler/placement/qwen3/Stages.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rngd::placement::qwen3 {

namespace {

using mlir::Type;
using mlir::Value;
using tcp::Context;

using decode_projection::describe;
using decode_projection::kPackFlits;
using decode_projection::num;
using decode_projection::planProjection;
using decode_projection::ProjectionPlan;
using decode_projection::vGatherContext;

// The types, under the hand-placed file's aliases (renamed where those end in a digit).
struct ProjectionTypes {
  Type vec, qw, kvw, kvwv, dvec, off, cache, qout;
  // x's RMSNorm on one slice, x^ over the rings.
  Type xslice, xs, xone, xonedm, xonevrf, xwsub, xwvrf, xfdm, xring, xf, xn;
  // The projections: q's and kv's weights, accumulators and partial rows.
  Type kvwdm, kvwload, kvwtrf, kvacc, kvpart;
  // v's gather, k's gather, their heads and RoPE's tables.
  Type vpf, vpb, vgath, vps, vpart, kpf, kpb;
  Type qrep, qrepf, qrepsub, qreps, qrepvrf;
};

// A q or k head on its slices: the types its RMSNorm and RoPE passes use.
struct HeadTypes {
  Type f32dm, bf16dm, flits, one, onedm, onevrf, vrf, twice, twicevrf;
};

HeadTypes declareHead(StageBuilder &b, const std::string &p, const ProjectionPlan &plan,
                      const Expr &cluster, const Expr &slice, const Expr &d, const Expr &twice) {
  Type bf = b.bf16(), f = b.f32();
  Expr scalar = Expr::one().pad(plan.scalarCells);
  HeadTypes y;
  y.f32dm = b.dm(p + "hf", f, cluster, slice, d);
  y.bf16dm = b.dm(p + "hb", bf, cluster, slice, d);
  y.flits = b.stream(p + "hs", f, cluster, slice, d / plan.flitF32, d % plan.flitF32);
  y.one = b.stream(p + "one", f, cluster, slice, Expr::one(), scalar);
  y.onedm = b.dm(p + "onedm", f, cluster, slice, scalar);
  y.onevrf = b.vrf(p + "onevrf", f, cluster, slice, scalar);
  y.vrf = b.vrf(p + "hvrf", f, cluster, slice, d);
  y.twice = b.stream(p + "twice", f, cluster, slice, Expr::pair({twice, d / plan.subF32}),
                     d % plan.subF32);
  y.twicevrf = b.vrf(p + "twicevrf", f, cluster, slice, Expr::pair({twice, d}));
  return y;
}

struct Axes {
  Expr h, q, p, nh, n, g, d, t, k, rq, ct, tw, cx, rk, rx, xv, xq, xk, xr;
  Expr rr = Expr::one(); // k's and v's copies on a cluster (declared only with several)
  Expr ck = Expr::one(); // a lone kv head's copy per cluster (declared only then)
  Expr qr = Expr::one(); // q's copies on a cluster (declared only with several)
  Expr cq = Expr::one(); // an odd q head count's pass copied onto each cluster (declared only then)
  Expr nl = Expr::one(); // the heads of q's last pass, and their copies (declared only with one)
  Expr ql = Expr::one();
};

// q's heads of a pass on the slices: the full passes' (NH or NP) or the last pass's (NL).
struct QShape {
  Expr heads;
  int64_t perCluster;
  Expr copy;
  int64_t copies;
  Expr clusterCopy;
  int64_t clusterCopies;
};

QShape fullPasses(const ProjectionPlan &p, const Axes &a) {
  return {a.nh, p.qHeadsPerCluster, a.qr, p.qReplicas, a.cq, p.qClusterCopies};
}

QShape lastPass(const ProjectionPlan &p, const Axes &a) {
  return {a.nl, p.qTailHeadsPerCluster, a.ql, p.qTailReplicas, a.cq, p.qTailClusterCopies};
}

// q's types for one shape of pass: its weights, accumulators, gathers and head.
struct QTypes {
  Type wv, outv, wdm, wload, wtrf, acc, part, pf, pb;
  HeadTypes head;
};

// A head's slices: its place among the cluster's `perCluster` heads (only with several: a lone
// head's `N % 1` would cover N twice), its copy (only with several), then `inner`.
Expr headSlices(const Expr &head, int64_t perCluster, const Expr &copy, int64_t copies,
                std::vector<Expr> inner) {
  std::vector<Expr> items;
  if (perCluster > 1)
    items.push_back(head % perCluster);
  if (copies > 1)
    items.push_back(copy);
  items.insert(items.end(), inner.begin(), inner.end());
  return Expr::pair(items);
}

Expr qSlicesOf(const QShape &q, std::vector<Expr> inner) {
  return headSlices(q.heads, q.perCluster, q.copy, q.copies, std::move(inner));
}

Expr kvSlices(const ProjectionPlan &p, const Axes &a, std::vector<Expr> inner) {
  return headSlices(a.n, p.kvHeadsPerCluster, a.rr, p.kvReplicas, std::move(inner));
}

// A q head's cluster: a pass's heads over the clusters, or their copy on each.
Expr qCluster(const QShape &q) {
  return q.clusterCopies > 1 ? q.clusterCopy : q.heads / q.perCluster;
}

// A kv head's cluster: N over the clusters, or a lone head's copy on each.
Expr kvCluster(const ProjectionPlan &p, const Axes &a) {
  return p.kvClusterCopies > 1 ? a.ck : a.n / p.kvHeadsPerCluster;
}

Axes declareAxes(StageBuilder &b, const Qwen3Shape &s, const ProjectionPlan &p) {
  const TargetModel &t = b.target();
  // NH: the q heads of one pass (all of them in one pass; NP, a pass's, in several).
  const bool passes = p.qPasses > 1 || p.qTailHeads;
  Axes a{b.axis("H", s.hidden), b.axis("Q", s.qDim()), b.axis("P", s.kvDim()),
         b.axis(passes ? "NP" : "NH", (s.heads - p.qTailHeads) / p.qPasses), b.axis("N", s.kvHeads), b.axis("G", s.groups()),
         b.axis("D", s.headDim), b.axis("T", p.chunkKeys), b.axis("K", 1),
         // Copies: the tables on every q head's slices of each cluster, x stored twice for
         // RoPE's swap, x^ on each cluster, a k head on each q head of its group, x^'s rings.
         b.axis("RQ", p.qHeadsPerCluster * p.qReplicas), b.axis("CT", t.clusters), b.axis("TW", 2),
         b.axis("CX", t.clusters), b.axis("RK", p.kCopies), b.axis("RX", p.xRings),
         // Fresh axes of the Switch Engine's broadcasts: v's gather, a q head's ring, a k
         // head's ring, x^'s ring.
         b.axis("XV", p.vGather), b.axis("XQ", p.qSlices), b.axis("XK", p.kvSlices),
         b.axis("XR", p.xRing)};
  if (p.kvReplicas > 1)
    a.rr = b.axis("RR", p.kvReplicas);
  if (p.kvClusterCopies > 1)
    a.ck = b.axis("CK", p.kvClusterCopies);
  if (p.qReplicas > 1)
    a.qr = b.axis("QR", p.qReplicas);
  if (p.qClusterCopies > 1 || p.qTailClusterCopies > 1)
    a.cq = b.axis("CQ", t.clusters);
  if (p.qTailHeads)
    a.nl = b.axis("NL", p.qTailHeads);
  if (p.qTailReplicas > 1)
    a.ql = b.axis("QL", p.qTailReplicas);
  return a;
}

ProjectionTypes declareTypes(StageBuilder &b, const ProjectionPlan &p, const Axes &a) {
  const TargetModel &t = b.target();
  Type bf = b.bf16(), f = b.f32();
  const int64_t F = p.flitBf16, F32 = p.flitF32, SUB = p.subF32;
  const Expr one = Expr::one(), scalar = one.pad(p.scalarCells);
  const Expr &h = a.h, &d = a.d;
  ProjectionTypes y;
  y.vec = b.hbm("vec", bf, h);
  y.qw = b.hbm("qw", bf, Expr::pair({a.q, h}));
  y.kvw = b.hbm("kvw", bf, Expr::pair({a.p, h}));
  y.kvwv = b.hbm("kvwv", bf, Expr::pair({a.n, d, h}));
  y.dvec = b.hbm("dvec", bf, d);
  y.off = b.hbm("off", b.i32(), a.k);
  y.cache = b.hbm("cache", bf, Expr::pair({a.t, a.n, d}));
  y.qout = b.hbm("qout", bf, Expr::pair({a.n, a.g, d}));

  const Expr c1 = one.pad(t.clusters), s1 = one.pad(t.slicesPerCluster);
  y.xslice = b.dm("xslice", bf, c1, s1, h);
  y.xs = b.stream("xs", f, c1, s1, h / F32, h % F32);
  y.xone = b.stream("xone", f, c1, s1, one, scalar);
  y.xonedm = b.dm("xonedm", f, c1, s1, scalar);
  y.xonevrf = b.vrf("xonevrf", f, c1, s1, scalar);
  y.xwsub = b.stream("xwsub", f, c1, s1, h / SUB, h % SUB);
  y.xwvrf = b.vrf("xwvrf", f, c1, s1, h);
  y.xfdm = b.dm("xfdm", f, c1, s1, h);
  // Slice r of a ring holds x^'s flits r, r + ring, ...: the broadcast streams a time step's
  // flit from every slice of the ring in turn (time [XF, ring]), H in order.
  const int64_t XF = p.xFlitsPerSlice;
  const Expr ring = Expr::pair({a.rx, XF == 1 ? h / F : h / F % p.xRing});
  const Expr xfTime = XF == 1 ? one : h / (F * p.xRing);
  y.xring = b.dm("xring", bf, a.cx, ring, XF == 1 ? h % F : Expr::pair({xfTime, h % F}));
  y.xf = b.stream("xf", bf, a.cx, ring, xfTime, h % F);
  y.xn = b.stream("xn", bf, a.cx, Expr::pair({a.rx, a.xr}), h / F, h % F);

  const int64_t kvL = p.kvLanes, lanes = t.trfLanes;
  const Expr kc = kvCluster(p, a);
  const Expr ks = kvSlices(p, a, {d / kvL});
  y.kvwdm = b.dm("kvwdm", bf, kc, ks, Expr::pair({d % kvL, h}));
  y.kvwload = b.stream("kvwload", bf, kc, ks, Expr::pair({d % kvL, h / F}), h % F);
  y.kvwtrf = b.trf("kvwtrf", bf, kc, ks, d % kvL, h);
  y.kvacc = b.stream("kvacc", f, kc, ks, one, (d % kvL).pad(lanes));
  y.kvpart = b.dm("kvpart", f, kc, ks, d % kvL);

  const Expr vGroup = kvSlices(p, a, {d / F32, d / kvL % p.vGather});
  const Expr vOne = kvSlices(p, a, {d / F32, one.pad(p.vGather)});
  y.vpf = b.stream("vpf", f, kc, vGroup, one, d % kvL);
  y.vpb = b.stream("vpb", f, kc, kvSlices(p, a, {d / F32, a.xv}), d / kvL % p.vGather,
                   d % kvL);
  y.vgath = b.dm("vgath", f, kc, vOne, d % F32);
  y.vps = b.stream("vps", f, kc, vOne, one, d % F32);
  y.vpart = b.dm("vpart", bf, kc, vOne, d % F32);

  y.kpf = b.stream("kpf", f, kc, ks, one, d % kvL);
  y.kpb = b.stream("kpb", f, kc, kvSlices(p, a, {a.xk}), d / kvL, d % kvL);

  const Expr tables = Expr::pair({a.rq, one.pad(p.qSlices)});
  y.qrep = b.dm("qrep", bf, a.ct, tables, d);
  y.qrepf = b.dm("qrepf", f, a.ct, tables, d);
  y.qrepsub = b.stream("qrepsub", f, a.ct, tables, d / SUB, d % SUB);
  y.qreps = b.stream("qreps", f, a.ct, tables, d / F32, d % F32);
  y.qrepvrf = b.vrf("qrepvrf", f, a.ct, tables, d);
  return y;
}

// q's types for the passes of one shape, under `pre`'s aliases ("q": the hand-placed file's).
QTypes declareQ(StageBuilder &b, const ProjectionPlan &p, const Axes &a, const QShape &shape,
                const std::string &pre) {
  Type bf = b.bf16(), f = b.f32();
  const int64_t F = p.flitBf16, qL = p.qLanes, lanes = b.target().trfLanes;
  const Expr one = Expr::one(), &h = a.h, &d = a.d;
  const Expr qc = qCluster(shape), qs = qSlicesOf(shape, {d / qL});
  QTypes y;
  y.wv = b.hbm(pre + "wv", bf, Expr::pair({shape.heads, d, h}));
  y.outv = b.hbm(pre + "outv", bf, Expr::pair({shape.heads, d}));
  y.wdm = b.dm(pre + "wdm", bf, qc, qs, Expr::pair({d % qL, h}));
  y.wload = b.stream(pre + "wload", bf, qc, qs, Expr::pair({d % qL, h / F}), h % F);
  y.wtrf = b.trf(pre + "wtrf", bf, qc, qs, d % qL, h);
  y.acc = b.stream(pre + "acc", f, qc, qs, one, (d % qL).pad(lanes));
  y.part = b.dm(pre + "part", f, qc, qs, d % qL);
  y.pf = b.stream(pre + "pf", f, qc, qs, one, d % qL);
  y.pb = b.stream(pre + "pb", f, qc, qSlicesOf(shape, {a.xq}), d / qL, d % qL);
  y.head = declareHead(b, pre, p, qc, qSlicesOf(shape, {one.pad(p.qSlices)}), d, a.tw);
  return y;
}

// One RMSNorm: sum of squares to one value, rms = sqrt(sum / n + eps) (a scalar pass), the
// vector times its norm weight, divided by rms, rounded to bf16. `weighted` loads the norm
// weight into the VRF and returns the vector times it in DM (see multiplyByWeight).
struct NormSpec {
  std::string p;         // the SSA names' prefix
  Context scalarContext; // the rms pass's context
  float inverseN, eps;
  std::string quotient;   // the division's result
  std::string normalised; // the bf16 result
};

Value rmsNorm(StageBuilder &b, const NormSpec &n, Value in, Type flits, Type out, Type one,
              Type onedm, Type onevrf, const std::function<Value()> &weighted) {
  const std::string &p = n.p;
  Value f1 = b.fetch(p + "1", Context::main, in, flits);
  Value c1 = b.collect(p + "c1", f1);
  Value sq = b.vector(p + "q", c1,
                      {Step::op("stash"), Step::stash("mul_f"), Step::op("reduce_add_f")}, one);
  Value sum = b.commit(p + "sum", sq, onedm);
  Value f2 = b.fetch(p + "2", n.scalarContext, sum, one);
  Value c2 = b.collect(p + "c2", f2);
  Value r = b.vector(p + "r", c2, {Step::fma(n.inverseN, n.eps), Step::op("sqrt_f")});
  Value rms = b.commit(p + "rms", r, onedm);
  Value f3 = b.fetch(p + "3", Context::sub, rms, one);
  Value c3 = b.collect(p + "c3", f3);
  Value rmsVrf = b.toVrf(p + "rv", c3, onevrf);
  Value prodDm = weighted();
  Value f6 = b.fetch(p + "6", Context::main, prodDm, flits);
  Value c6 = b.collect(p + "c6", f6);
  Value quot = b.vector(n.quotient, c6, {Step::vrfOf("div_f", rmsVrf)});
  return b.commit(n.normalised, quot, out, /*castToBf16=*/true);
}

// A bf16 vector fetched on sub (f32 packets of one sub access) into the VRF.
Value loadVrf(StageBuilder &b, const std::string &fetched, const std::string &collected,
              const std::string &name, Value dm, Type stream, Type vrf) {
  Value f = b.fetch(fetched, Context::sub, dm, stream);
  Value c = b.collect(collected, f);
  return b.toVrf(name, c, vrf);
}

// `in` times the norm weight in the VRF, committed (f32) under `name`. `p` + "5" names the pass.
Value multiplyByWeight(StageBuilder &b, const std::string &p, const std::string &name, Value in,
                       Type flits, Value weightVrf, Type productDm) {
  Value f5 = b.fetch(p + "5", Context::main, in, flits);
  Value c5 = b.collect(p + "c5", f5);
  Value prod = b.vector(p + "p", c5, {Step::vrfOf("mul_f", weightVrf)});
  return b.commit(name, prod, productDm);
}

// x times its norm weight in parts of H that fit the VRF in turn: each part of the weight
// loaded on sub and x's part multiplied on main (views of x and the weight re-spelt as
// [XP, XI]), the products joined into one DM tensor and re-spelt over H.
Value multiplyXInParts(StageBuilder &b, const ProjectionPlan &p, const ProjectionTypes &y,
                       int64_t hidden, Value xd, Value xwd) {
  const TargetModel &t = b.target();
  const int64_t parts = p.xWeightParts, part = hidden / parts;
  const Expr xp = b.axis("XP", parts), xi = b.axis("XI", part);
  const Expr c1 = Expr::one().pad(t.clusters), s1 = Expr::one().pad(t.slicesPerCluster);
  Type bf = b.bf16(), f = b.f32();
  Type split = b.dm("xsplit", bf, c1, s1, Expr::pair({xp, xi}));
  Type piece = b.dm("xpiece", bf, c1, s1, xi);
  Type pieceSub = b.stream("xpiecesub", f, c1, s1, xi / p.subF32, xi % p.subF32);
  Type pieceVrf = b.vrf("xpiecevrf", f, c1, s1, xi);
  Type pieceFlits = b.stream("xpieces", f, c1, s1, xi / p.flitF32, xi % p.flitF32);
  Type pieceProduct = b.dm("xpiecef", f, c1, s1, xi);
  Type joined = b.dm("xjoined", f, c1, s1, Expr::pair({xp, xi}));
  Value xs = b.reinterpret("xsplit", xd, split), ws = b.reinterpret("xwsplit", xwd, split);
  std::vector<Value> products;
  for (int64_t j = 0; j < parts; ++j) {
    const std::string k = num(j);
    Value xj = b.dmView("xd_" + k, xs, j * part, std::nullopt, piece);
    Value wj = b.dmView("xwd_" + k, ws, j * part, std::nullopt, piece);
    Value wv = loadVrf(b, "x4_" + k, "xc4_" + k, "xwv_" + k, wj, pieceSub, pieceVrf);
    products.push_back(
        multiplyByWeight(b, "x_" + k + "_", "xxw_" + k, xj, pieceFlits, wv, pieceProduct));
  }
  Value join = b.dmJoin("xjoin", products, joined);
  return b.reinterpret("xxw", join, y.xfdm);
}

// x^ = RMSNorm(x) on one slice of cluster 0, then spread over the rings by one DMA.
Value normaliseX(StageBuilder &b, const Qwen3Shape &s, const ProjectionPlan &p,
                 const ProjectionTypes &y, Value x, Value weight) {
  Value xd = b.dma("xd", x, y.xslice);
  Value xwd = b.dma("xwd", weight, y.xslice);
  NormSpec n{"x", Context::main, float(1.0 / double(s.hidden)), float(s.rmsNormEps), "xnv", "xh1"};
  Value xh = rmsNorm(b, n, xd, y.xs, y.xslice, y.xone, y.xonedm, y.xonevrf, [&] {
    if (p.xWeightParts > 1)
      return multiplyXInParts(b, p, y, s.hidden, xd, xwd);
    Value xwv = loadVrf(b, "x4", "xc4", "xwv", xwd, y.xwsub, y.xwvrf);
    return multiplyByWeight(b, "x", "xxw", xd, y.xs, xwv, y.xfdm);
  });
  return b.dma("xhat", xh, y.xring);
}

// Rows = x^ W^T, one row per TRF lane: the weights to the TRF on main, x^ broadcast around
// its rings as the contraction streams it. Returns the partial rows (f32, one per lane).
struct ProjectionSpec {
  std::string p;
  const char *part;
  Type view, dm, load, trf, acc, partDm;
  int64_t weightOffset = 0; // the view's first cell of the weight (a q pass's heads)
};

Value project(StageBuilder &b, const ProjectionSpec &s, const ProjectionTypes &y, Value weight,
              Value xhat, int64_t pack) {
  const std::string &p = s.p;
  Value wv = b.view(p + "wv", weight, s.weightOffset, s.view);
  Value wd = b.dma(p + "wd", wv, s.dm);
  Value l = b.fetch(p + "l", Context::main, wd, s.load);
  Value lc = b.collect(p + "lc", l);
  Value wt = b.toTrf(p + "t", lc, s.trf);
  Value xs = b.fetch(p + "s", Context::main, xhat, y.xf);
  Value xb = b.switchOp(p + "xs", tcp::SwitchMode::broadcast1, xs, y.xn);
  Value xc = b.collect(p + "sc", xb);
  Value acc = b.contract(p + "a", xc, wt, pack, s.acc);
  return b.commit(s.part, acc, s.partDm);
}

// Partial rows broadcast around the ring of their slices and committed on some of them.
Value gather(StageBuilder &b, const std::string &p, const char *name, Context context, Value part,
             Type fetched, Type broadcast, Type gathered) {
  Value g = b.fetch(p + "g", context, part, fetched);
  Value gs = b.switchOp(p + "gs", tcp::SwitchMode::broadcast1, g, broadcast);
  Value gc = b.collect(p + "gc", gs);
  return b.commit(name, gc, gathered);
}

// RoPE: out = x cos + swap(x) sin, swap(x) read from x stored twice in the VRF at + D / 2.
// q loads the tables (cos into the VRF, sin into DM); k reuses them.
struct Tables {
  Value cosVrf, sinDm;
};

Value rope(StageBuilder &b, const std::string &p, const HeadTypes &h, const ProjectionTypes &y,
           Value head, int64_t headDim, Tables &tables, Value cos, Value sin) {
  Value f7 = b.fetch(p + "7", Context::sub, head, h.twice);
  Value c7 = b.collect(p + "c7", f7);
  Value xx = b.toVrf(p + "xx", c7, h.twicevrf);
  Value swapped = b.vrfView(p + "sw", xx, headDim / 2, h.vrf);
  if (!tables.cosVrf) {
    Value cd = b.dma(p + "cd", cos, y.qrep);
    tables.cosVrf = loadVrf(b, p + "8", p + "c8", p + "cv", cd, y.qrepsub, y.qrepvrf);
    tables.sinDm = b.dma(p + "sd", sin, y.qrep);
  }
  Value f9 = b.fetch(p + "9", Context::main, tables.sinDm, y.qreps);
  Value c9 = b.collect(p + "c9", f9);
  Value st = b.vector(p + "st", c9, {Step::vrfOf("mul_f", swapped)});
  Value td = b.commit(p + "td", st, y.qrepf);
  Value tv = loadVrf(b, p + "10", p + "c10", p + "tv", td, y.qrepsub, y.qrepvrf);
  Value f11 = b.fetch(p + "11", Context::main, head, h.flits);
  Value c11 = b.collect(p + "c11", f11);
  Value xc = b.vector(p + "xc", c11, {Step::vrfOf("mul_f", tables.cosVrf)});
  Value xcd = b.commit(p + "xcd", xc, h.f32dm);
  Value f12 = b.fetch(p + "12", Context::main, xcd, h.flits);
  Value c12 = b.collect(p + "c12", f12);
  Value o = b.vector(p + "o", c12, {Step::vrfOf("add_f", tv)});
  return b.commit(p + "rope", o, h.bf16dm, /*castToBf16=*/true);
}

// A head's RMSNorm (its norm weight replicated on the tables' slices) and RoPE.
Value normAndRope(StageBuilder &b, const Qwen3Shape &s, const std::string &p, Context scalar,
                  const HeadTypes &h, const ProjectionTypes &y, Value head, Value normWeight,
                  Tables &tables, Value cos, Value sin) {
  NormSpec n{p, scalar, float(1.0 / double(s.headDim)), float(s.rmsNormEps), p + "d", p + "n"};
  Value normed = rmsNorm(b, n, head, h.flits, h.bf16dm, h.one, h.onedm, h.onevrf, [&] {
    Value wd = b.dma(p + "nwd", normWeight, y.qrep);
    Value wv = loadVrf(b, p + "4", p + "c4", p + "nwv", wd, y.qrepsub, y.qrepvrf);
    return multiplyByWeight(b, p, p + "xw", head, h.flits, wv, h.f32dm);
  });
  return rope(b, p, h, y, normed, s.headDim, tables, cos, sin);
}

} // namespace

llvm::Error buildProjection(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  ProjectionPlan p;
  if (llvm::Error e = planProjection(p, s, b.target()))
    return e;
  describe(b, s, p);
  const Axes a = declareAxes(b, s, p);
  const ProjectionTypes y = declareTypes(b, p, a);
  // q's passes: the full ones (one: the names of the hand-placed file), then a last if any.
  const QTypes full = declareQ(b, p, a, fullPasses(p, a), "q");
  std::optional<QTypes> last;
  if (p.qTailHeads)
    last = declareQ(b, p, a, lastPass(p, a), "ql");
  struct QPass {
    std::string pre;
    int64_t firstHead;
    const QTypes *types;
  };
  std::vector<QPass> passes;
  const int64_t passHeads = (s.heads - p.qTailHeads) / p.qPasses;
  for (int64_t j = 0; j < p.qPasses; ++j)
    passes.push_back({p.qPasses == 1 && !last ? std::string("q") : "q" + num(j) + "_",
                      j * passHeads, &full});
  if (last)
    passes.push_back({"q" + num(p.qPasses) + "_", s.heads - p.qTailHeads, &*last});
  const HeadTypes kh = declareHead(
      b, "k", p, kvCluster(p, a),
      kvSlices(p, a, {a.rk, Expr::one().pad(p.qSlices)}), a.d, a.tw);

  Value x = b.input("x", y.vec);
  Value qWeight = b.input("q_weight", y.qw);
  Value kWeight = b.input("k_weight", y.kvw);
  Value vWeight = b.input("v_weight", y.kvw);
  Value inputRmsWeight = b.input("input_rms_weight", y.vec);
  Value qRmsWeight = b.input("q_rms_weight", y.dvec);
  Value kRmsWeight = b.input("k_rms_weight", y.dvec);
  Value kvOffset = b.input("kv_offset", y.off);
  Value cos = b.input("cos", y.dvec);
  Value sin = b.input("sin", y.dvec);
  Value kCache = b.inout("k_cache", y.cache);
  Value vCache = b.inout("v_cache", y.cache);
  Value qOut = b.output("q_out", y.qout);

  Value xhat = normaliseX(b, s, p, y, x, inputRmsWeight);
  std::vector<Value> qHeads;
  for (const QPass &q : passes) {
    const QTypes &t = *q.types;
    ProjectionSpec spec{q.pre, nullptr, t.wv, t.wdm, t.wload, t.wtrf, t.acc, t.part,
                        q.firstHead * s.headDim * s.hidden};
    const std::string part = q.pre + "pd";
    spec.part = part.c_str();
    Value qpd = project(b, spec, y, qWeight, xhat, kPackFlits);
    qHeads.push_back(gather(b, q.pre, (q.pre + "h").c_str(), Context::main, qpd, t.pf, t.pb,
                            t.head.f32dm));
  }
  ProjectionSpec k{"k", "kpd", y.kvwv, y.kvwdm, y.kvwload, y.kvwtrf, y.kvacc, y.kvpart};
  Value kpd = project(b, k, y, kWeight, xhat, kPackFlits);
  Value kHead = gather(b, "k", "kh", Context::main, kpd, y.kpf, y.kpb, kh.f32dm);

  Tables tables;
  std::vector<Value> qRopes;
  for (size_t j = 0; j < passes.size(); ++j)
    qRopes.push_back(normAndRope(b, s, passes[j].pre, Context::main, passes[j].types->head, y,
                                 qHeads[j], qRmsWeight, tables, cos, sin));
  Value kRope = normAndRope(b, s, "k", Context::sub, kh, y, kHead, kRmsWeight, tables, cos, sin);
  for (size_t j = 0; j < passes.size(); ++j) {
    const QPass &q = passes[j];
    Value qov = b.view(q.pre + "ov", qOut, q.firstHead * s.headDim, q.types->outv);
    b.dmaInto(qRopes[j], qov);
  }
  b.dmaScatter(kRope, kCache, kvOffset);

  // v: each group of slices gathered onto its first (on sub), cast to bf16 there.
  ProjectionSpec v{"v", "vpp", y.kvwv, y.kvwdm, y.kvwload, y.kvwtrf, y.kvacc, y.kvpart};
  Value vpp = project(b, v, y, vWeight, xhat, kPackFlits);
  Value vp2 = gather(b, "v", "vp2", vGatherContext(p, b.target()), vpp, y.vpf, y.vpb, y.vgath);
  Value vc = b.fetch("vc", Context::main, vp2, y.vps);
  Value vcc = b.collect("vcc", vc);
  Value vpd = b.commit("vpd", vcc, y.vpart, /*castToBf16=*/true);
  b.dmaScatter(vpd, vCache, kvOffset);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
