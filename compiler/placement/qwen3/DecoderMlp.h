// `decoder`'s MLP (gate/up, silu(g) u, down) and the types it shares with Decoder.cpp. When
// gate, up and down exceed the TRF, the MLP runs in passes over L, each pass loading its own
// gate/up and down rows; down's partial sums are kept in f32 and added in pass order, then r.
#pragma once

#include "compiler/placement/StageBuilder.h"
#include "compiler/placement/qwen3/Stages.h"

#include <array>
#include <string>
#include <vector>

namespace rngd::placement::qwen3::decoder_mlp {

/// Switch Engine rings covering the first `used` slices of each cluster, each ring holding a
/// whole activation vector spread over its slices (`perSlice` flits each) and broadcasting it.
struct Ring {
  int64_t size = 0;     // slices of a ring: a power of two
  int64_t count = 0;    // rings per cluster
  int64_t perSlice = 0; // flits of the vector each slice of a ring holds
  int64_t used = 0;     // size x count
};

/// How the stage is placed (numbers for 0.6B in the comments).
struct Plan {
  int64_t outRows = 0;        // o-proj/down rows per slice: outLanes x outPerLane (4)
  int64_t outLanes = 0;       // their TRF lanes, one row each up to trfLanes rows (4)
  int64_t outPerLane = 1;     // rows of H in each of those lanes (1)
  int64_t outSlices = 0;      // their slices per cluster (128)
  int64_t oPasses = 1;        // o-proj passes over Q, each loading its own columns (1)
  int64_t qPass = 0;          // values of Q per o-proj pass (2048)
  int64_t mlpLanes = 0;       // gate/up TRF lanes (8)
  int64_t mlpRowsPerLane = 0; // (3)
  int64_t mlpSlices = 0;      // gate/up slices per cluster (64)
  Ring a, h, p;               // rings of a (128), h (64) and p (2 of 64)
  int64_t normParts = 1;      // parts of H whose norm weight the VRF holds in turn (1)
  int64_t passes = 1;         // MLP passes over L, each loading its own weights (1)
  int64_t lPass = 0;          // values of L per pass (3072)
  int64_t mlpRows() const { return mlpLanes * mlpRowsPerLane; }
};

/// The module's axes and the expressions every section uses.
struct Axes {
  // e: H / 2 (down's halves), k: the cluster replica, one: one slice of each cluster.
  // qp: a block of Q (o-proj's passes).
  Expr n = Expr::one(), g = n, d = n, q = n, qp = n, h = n, l = n, e = n, k = n, one = n;
  std::vector<std::string> declared;
  int64_t perFlit = 0; // bf16 per flit
};

/// The cluster mapping of `rows` rows split evenly over the clusters in order (cluster 0 the
/// first), or `1` on a one-cluster target (`H / H` would cover H twice).
inline Expr byCluster(const TargetModel &t, const Expr &axis, int64_t rows) {
  return t.clusters > 1 ? axis / (rows / t.clusters) : Expr::one();
}

inline Expr padSlices(const TargetModel &t, const Expr &slice, int64_t used) {
  return used < t.slicesPerCluster ? slice.pad(t.slicesPerCluster) : slice;
}

/// A ring's DM tensor (what each slice holds), the stream fetching it and the stream after the
/// broadcast (every slice of a ring sees the whole vector, in its order).
struct RingTypes {
  mlir::Type dm, fetched, broadcast;
};

/// Fetches a ring's tensor, broadcasts it within each ring and collects it: the stream a
/// contraction takes.
inline mlir::Value broadcastRing(StageBuilder &b, const std::array<const char *, 3> &names,
                                 mlir::Value ring, const RingTypes &rt) {
  mlir::Value f = b.fetch(names[0], tcp::Context::main, ring, rt.fetched);
  mlir::Value sw = b.switchOp(names[1], tcp::SwitchMode::broadcast1, f, rt.broadcast);
  return b.collect(names[2], sw);
}

/// The o-proj/down slices' tensors: H / outRows rows of H per slice, one per lane.
struct OutTypes {
  Expr cluster = Expr::one(), slice = Expr::one();
  Expr lane = Expr::one(), row = Expr::one(); // a row's TRF lane and time slot in it
  mlir::Type acc, res, r, rStream, rVrf;
  mlir::Type part, partRes; // a pass's running f32 sum and its bf16 result (several passes)
};

/// r's slices' residual, in the VRF (sub context).
inline mlir::Value residualVrf(StageBuilder &b, const std::string &stem, mlir::Value r,
                               const OutTypes &o) {
  mlir::Value l = b.fetch(stem + "l", tcp::Context::sub, r, o.rStream);
  return b.toVrf(stem + "v", b.collect(stem + "c", l), o.rVrf);
}

/// x + the residual in the VRF, cast to bf16 and committed on the o-proj/down slices.
inline mlir::Value addResidual(StageBuilder &b, const std::string &stem, mlir::Value acc,
                               mlir::Value residual, const OutTypes &o) {
  mlir::Value sum = b.vector(stem, acc, {Step::vrfOf("add_f", residual)});
  return b.commit(stem + "d", b.cast(stem + "b", sum, o.res), o.r);
}

/// Pass `P`'s f32 sums `acc` plus the previous passes' `sum` (none for the first pass, read
/// through the VRF on sub), committed in f32 on the o-proj/down slices: the running sum.
inline mlir::Value addPass(StageBuilder &b, const std::string &stem, const std::string &P,
                           const OutTypes &o, mlir::Value acc, mlir::Value sum) {
  if (sum) {
    mlir::Value l = b.fetch(stem + "sl" + P, tcp::Context::sub, sum, o.rStream);
    mlir::Value v = b.toVrf(stem + "sv" + P, b.collect(stem + "sc" + P, l), o.rVrf);
    acc = b.vector(stem + "sa" + P, acc, {Step::vrfOf("add_f", v)});
  }
  return b.commit(stem + "sd" + P, acc, o.part);
}

/// bf16(sum + residual) for the running sum of the passes, committed on the o-proj/down slices
/// (`names`: the sum's fetch and collect, then the result's stem).
inline mlir::Value finishPasses(StageBuilder &b, const std::array<std::string, 3> &names,
                                const OutTypes &o, mlir::Value sum, mlir::Value residual) {
  mlir::Value last = b.collect(names[1], b.fetch(names[0], tcp::Context::main, sum, o.rStream));
  mlir::Value v = b.vector(names[2], last, {Step::vrfOf("add_f", residual)});
  return b.commit(names[2] + "d", b.cast(names[2] + "b", v, o.partRes), o.r);
}

/// The gate/up slices' tensors: mlpRows rows of a pass's L per slice, rowsPerLane in each lane.
struct MlpTypes {
  mlir::Type weights, load, trf, acc, res, f32Dm, bf16Dm, upStream, upVrf;
};

inline MlpTypes mlpTypes(StageBuilder &b, const Axes &ax, const Plan &plan) {
  const TargetModel &t = b.target();
  const int64_t rows = plan.mlpRows(), lanes = plan.mlpLanes, perLane = plan.mlpRowsPerLane;
  const int64_t perSubAccess = t.subFetchAccessBytes / 4; // f32
  Expr cluster = byCluster(t, ax.l, plan.lPass);
  Expr slice = padSlices(t, ax.l / rows % plan.mlpSlices, plan.mlpSlices);
  Expr lane = ax.l % lanes, row = ax.l / lanes % perLane, h = ax.h;
  const bool slots = perLane > 1;
  Expr time = slots ? row : Expr::one();
  MlpTypes m;
  m.weights = b.dm("lwdm", b.bf16(), cluster, slice, Expr::pair({ax.l % rows, h}));
  m.load =
      b.stream("lwload", b.bf16(), cluster, slice,
               slots ? Expr::pair({lane, row, h / ax.perFlit}) : Expr::pair({lane, h / ax.perFlit}),
               h % ax.perFlit);
  m.trf = b.trf("lwtrf", b.bf16(), cluster, slice, lane, slots ? Expr::pair({row, h}) : h);
  Expr packet = lanes < t.trfLanes ? lane.pad(t.trfLanes) : lane;
  m.acc = b.stream("lacc", b.f32(), cluster, slice, time, packet);
  m.res = b.stream("lres", b.bf16(), cluster, slice, time, packet);
  m.f32Dm = b.dm("lfdm", b.f32(), cluster, slice, ax.l % rows);
  m.bf16Dm = b.dm("ldm", b.bf16(), cluster, slice, ax.l % rows);
  m.upStream = b.stream("uload", b.f32(), cluster, slice,
                        ax.l / perSubAccess % (rows / perSubAccess), ax.l % perSubAccess);
  m.upVrf = b.vrf("uvrf", b.f32(), cluster, slice, ax.l % rows);
  return m;
}

/// W h for gate or up (`p` = "g" or "u", `P` the pass's tag): weights to the TRF, h broadcast in
/// its rings, f32 result committed on the gate/up slices.
inline mlir::Value gateOrUp(StageBuilder &b, const std::string &p, const std::string &P,
                            const MlpTypes &m, const RingTypes &hRing, mlir::Value weights,
                            mlir::Value h) {
  mlir::Value wd = b.dma(p + "wd" + P, weights, m.weights);
  mlir::Value wc = b.collect(p + "c" + P, b.fetch(p + "l" + P, tcp::Context::main, wd, m.load));
  mlir::Value wt = b.toTrf(p + "t" + P, wc, m.trf);
  const std::string s = p + "s" + P, sw = p + "sw" + P, sc = p + "sc" + P;
  mlir::Value hc = broadcastRing(b, {s.c_str(), sw.c_str(), sc.c_str()}, h, hRing);
  return b.commit(p + "d" + P, b.contract(p + P, hc, wt, /*pack=*/2, m.acc), m.f32Dm);
}

/// p = silu(g) * u = g * sigmoid(g) * u to bf16, gathered on one slice of each cluster and
/// spread over the rings of the down slices.
inline mlir::Value swiGlu(StageBuilder &b, const Axes &ax, const std::string &P, const MlpTypes &m,
                          const RingTypes &pRing, mlir::Value g, mlir::Value u) {
  mlir::Type pone = b.dm("pone", b.bf16(), ax.k, ax.one, ax.l);
  mlir::Value uvc = b.collect("uvc" + P, b.fetch("uvl" + P, tcp::Context::sub, u, m.upStream));
  mlir::Value uv = b.toVrf("uv" + P, uvc, m.upVrf);
  mlir::Value sgc = b.collect("sgc" + P, b.fetch("sg" + P, tcp::Context::main, g, m.acc));
  mlir::Value sp = b.vector(
      "sp" + P, sgc,
      {Step::op("stash"), Step::op("sigmoid_f"), Step::stash("mul_f"), Step::vrfOf("mul_f", uv)});
  mlir::Value pd = b.commit("pd" + P, b.cast("spb" + P, sp, m.res), m.bf16Dm);
  mlir::Value p1 = b.dma("p1" + P, pd, pone);
  return b.dma("pr" + P, p1, pRing.dm);
}

/// Pass c's down weights (its L block of every row) into the TRF. They stream in two halves,
/// the even rows (H = 2 E) and then the odd ones through a view one row in, each into half the
/// lanes, so only the odd half's TRF load follows the last byte; tcp.trf_join reads them as the
/// contraction's tensor.
inline mlir::Value downWeights(StageBuilder &b, const Axes &ax, const Plan &plan,
                               const Qwen3Shape &s, const OutTypes &o, const std::string &P,
                               mlir::Value weights, int64_t c) {
  const TargetModel &t = b.target();
  const int64_t half = plan.outRows / 2, halfLanes = plan.outLanes / 2;
  const bool slots = plan.outPerLane > 1; // rows in each lane's time slots
  Expr cluster = byCluster(t, ax.e, s.hidden / 2);
  Expr slice = padSlices(t, ax.e / half % plan.outSlices, plan.outSlices);
  Expr lane = ax.e % halfLanes, slot = ax.e / halfLanes % plan.outPerLane;
  Expr row = plan.passes > 1 ? ax.l.pad(s.intermediate) : ax.l; // a row's pass block
  mlir::Type dwh = b.hbm("dwh", b.bf16(), Expr::pair({ax.e, Expr::one().pad(2), row}));
  mlir::Type dwdm = b.dm("dwdm", b.bf16(), cluster, slice, Expr::pair({ax.e % half, ax.l}));
  mlir::Type dwload = b.stream(
      "dwload", b.bf16(), cluster, slice,
      slots ? Expr::pair({lane, slot, ax.l / ax.perFlit}) : Expr::pair({lane, ax.l / ax.perFlit}),
      ax.l % ax.perFlit);
  mlir::Type dwhtrf =
      b.trf("dwhtrf", b.bf16(), cluster, slice, lane, slots ? Expr::pair({slot, ax.l}) : ax.l);
  mlir::Type dwtrf = b.trf("dwtrf", b.bf16(), o.cluster, o.slice, o.lane,
                           slots ? Expr::pair({o.row, ax.l}) : ax.l);
  auto loadHalf = [&](const std::string &x, int64_t offset) {
    mlir::Value w = b.view("dw" + x + P, weights, offset + c * plan.lPass, dwh);
    mlir::Value d = b.dma("dd" + x + P, w, dwdm);
    mlir::Value l = b.collect("dc" + x + P, b.fetch("dl" + x + P, tcp::Context::main, d, dwload));
    return b.toTrf("dt" + x + P, l, dwhtrf);
  };
  mlir::Value even = loadHalf("e", 0);
  mlir::Value odd = loadHalf("o", s.intermediate);
  return b.trfJoin("dt" + P, even, odd, dwtrf);
}

/// The tag of MLP pass c in the names (none when there is one pass).
inline std::string passTag(const Plan &plan, int64_t c) {
  return plan.passes > 1 ? "p" + std::to_string(c) : "";
}

/// The MLP in plan.passes passes over L, then rx = bf16(((d0 + d1) + ... + d_last) + r): each
/// pass loads its gate/up rows and down's L block, contracts h and then p (each contraction
/// summed from 0 in its own order), and adds its f32 partial to the previous passes' sum (one
/// pass: rx = bf16(d0 + r), the sum never leaves the contraction).
inline void mlp(StageBuilder &b, const Axes &ax, const Plan &plan, const Qwen3Shape &s,
                const OutTypes &o, const MlpTypes &m, const RingTypes &hRing,
                const RingTypes &pRing, mlir::Value h, mlir::Value r,
                const std::array<mlir::Value, 3> &gateUpDown, mlir::Value rxHbm) {
  mlir::Type lwp;
  if (plan.passes > 1)
    lwp = b.hbm("lwp", b.bf16(), Expr::pair({ax.l, ax.h}));
  mlir::Value r4v, sum;
  for (int64_t c = 0; c < plan.passes; ++c) {
    const std::string P = passTag(plan, c);
    mlir::Value gw = gateUpDown[0], uw = gateUpDown[1];
    if (plan.passes > 1) {
      gw = b.view("gv" + P, gw, c * plan.lPass * s.hidden, lwp);
      uw = b.view("uv" + P, uw, c * plan.lPass * s.hidden, lwp);
    }
    mlir::Value g = gateOrUp(b, "g", P, m, hRing, gw, h);
    mlir::Value u = gateOrUp(b, "u", P, m, hRing, uw, h);
    mlir::Value p = swiGlu(b, ax, P, m, pRing, g, u);
    mlir::Value dt = downWeights(b, ax, plan, s, o, P, gateUpDown[2], c);
    if (c == 0)
      r4v = residualVrf(b, "r4", r, o);
    const std::string fe = "pfe" + P, sw = "psw" + P, sc = "psc" + P;
    mlir::Value psc = broadcastRing(b, {fe.c_str(), sw.c_str(), sc.c_str()}, p, pRing);
    mlir::Value dn = b.contract("dn" + P, psc, dt, /*pack=*/2, o.acc);
    if (plan.passes == 1) {
      b.dmaInto(addResidual(b, "r2", dn, r4v, o), rxHbm);
      return;
    }
    sum = addPass(b, "", P, o, dn, sum); // the previous passes' sum added to this pass's
  }
  b.dmaInto(finishPasses(b, {"sf", "sfc", "r2"}, o, sum, r4v), rxHbm);
}

} // namespace rngd::placement::qwen3::decoder_mlp
