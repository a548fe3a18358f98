// `decoder`: the rest of a layer after attention: a = x / sum, r = rx + W_o a,
// h = RMSNorm(r), rx = r + W_down(silu(W_gate h) * W_up h). Weights one row per TRF lane (o-proj
// and down; several rows per lane when the slices hold more rows of H than lanes) or all lanes
// full (gate/up); o-proj in passes over Q and the MLP in passes over L when their rows exceed a
// lane or the TRF (DecoderPlan.h); each activation gathered on one slice of each cluster, spread
// over rings of the slices that contract with it and broadcast there by the Switch Engine.
#include "compiler/placement/qwen3/DecoderPlan.h"
#include "compiler/placement/qwen3/SliceNorm.h"
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/Stages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <array>
#include <numeric>
#include <string>
#include <vector>

namespace rngd::placement::qwen3 {

namespace {

using namespace decoder_mlp;

std::string num(int64_t n) { return std::to_string(n); }

std::string real(double x) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", x);
  return text;
}

Expr axisOnce(StageBuilder &b, Axes &ax, const std::string &name, int64_t size) {
  if (!llvm::is_contained(ax.declared, name)) {
    ax.declared.push_back(name);
    b.axis(name, size);
  }
  return Expr::axis(name);
}

/// A copy on every cluster: a replica axis, or `1` on a one-cluster target.
Expr everyCluster(StageBuilder &b, const std::string &name) {
  const TargetModel &t = b.target();
  return t.clusters > 1 ? b.axis(name + std::to_string(t.clusters), t.clusters) : Expr::one();
}

RingTypes ringTypes(StageBuilder &b, Axes &ax, const Expr &v, const Ring &r,
                    const std::string &dmAlias, const std::string &fetchAlias,
                    const std::string &broadcastAlias) {
  const TargetModel &t = b.target();
  const int64_t pf = ax.perFlit;
  std::vector<Expr> outer;
  if (t.slicesPerCluster % r.used == 0) {
    if (r.used < t.slicesPerCluster)
      outer.push_back(Expr::one().pad(t.slicesPerCluster / r.used));
    if (r.count > 1)
      outer.push_back(axisOnce(b, ax, "R" + num(r.count), r.count));
  } else {
    outer.push_back(axisOnce(b, ax, "R" + num(r.count), r.count).pad(t.slicesPerCluster / r.size));
  }
  std::vector<Expr> slice = outer, broadcast = outer;
  slice.push_back(r.perSlice > 1 ? v / pf % r.size : v / pf);
  broadcast.push_back(axisOnce(b, ax, "X" + num(r.size), r.size));
  Expr major = v / (pf * r.size), flit = v % pf;
  RingTypes rt;
  rt.dm = b.dm(dmAlias, b.bf16(), ax.k, Expr::pair(slice),
               r.perSlice > 1 ? Expr::pair({major, flit}) : flit);
  rt.fetched = b.stream(fetchAlias, b.bf16(), ax.k, Expr::pair(slice),
                        r.perSlice > 1 ? major : Expr::one(), flit);
  rt.broadcast = b.stream(broadcastAlias, b.bf16(), ax.k, Expr::pair(broadcast),
                          r.perSlice > 1 ? Expr::pair({major, v / pf % r.size}) : v / pf, flit);
  return rt;
}

/// The o-proj/down slices' types: row h on slice h / outRows, in lane h % outLanes and (several
/// rows per lane) time slot h / outLanes % outPerLane; the running sum's when there are passes.
OutTypes outTypes(StageBuilder &b, const Axes &ax, const Plan &plan, const Qwen3Shape &s) {
  const TargetModel &t = b.target();
  OutTypes o;
  o.cluster = byCluster(t, ax.h, s.hidden);
  o.slice = padSlices(t, ax.h / plan.outRows % plan.outSlices, plan.outSlices);
  o.lane = ax.h % plan.outLanes;
  o.row = plan.outPerLane > 1 ? ax.h / plan.outLanes % plan.outPerLane : Expr::one();
  Expr packet = plan.outLanes < t.trfLanes ? o.lane.pad(t.trfLanes) : o.lane;
  o.acc = b.stream("oacc", b.f32(), o.cluster, o.slice, o.row, packet);
  o.res = b.stream("ores", b.bf16(), o.cluster, o.slice, o.row, packet);
  o.r = b.dm("rpart", b.bf16(), o.cluster, o.slice, ax.h % plan.outRows);
  o.rStream = b.stream("r4s", b.f32(), o.cluster, o.slice, o.row, o.lane);
  o.rVrf = b.vrf("r4v", b.f32(), o.cluster, o.slice, ax.h % plan.outRows);
  if (plan.passes > 1 || plan.oPasses > 1) {
    o.part = b.dm("dpart", b.f32(), o.cluster, o.slice, ax.h % plan.outRows);
    o.partRes = b.stream("dres", b.bf16(), o.cluster, o.slice, o.row, o.lane);
  }
  return o;
}

/// W_o's rows (their columns `q`: Q, or a pass's block QP of it) from HBM into the TRF of the
/// o-proj slices (names tagged `P`).
mlir::Value outWeights(StageBuilder &b, const Axes &ax, const Plan &plan, const OutTypes &o,
                       const std::string &P, mlir::Value weights, const Expr &q) {
  const bool slots = plan.outPerLane > 1;
  Expr load =
      slots ? Expr::pair({o.lane, o.row, q / ax.perFlit}) : Expr::pair({o.lane, q / ax.perFlit});
  mlir::Type owdm =
      b.dm("owdm", b.bf16(), o.cluster, o.slice, Expr::pair({ax.h % plan.outRows, q}));
  mlir::Type owload = b.stream("owload", b.bf16(), o.cluster, o.slice, load, q % ax.perFlit);
  mlir::Type owtrf =
      b.trf("owtrf", b.bf16(), o.cluster, o.slice, o.lane, slots ? Expr::pair({o.row, q}) : q);
  mlir::Value owd = b.dma("owd" + P, weights, owdm);
  mlir::Value oc = b.collect("oc" + P, b.fetch("ol" + P, tcp::Context::main, owd, owload));
  return b.toTrf("ot" + P, oc, owtrf);
}

/// o-proj in plan.oPasses passes over Q: pass c loads W_o's columns [c QP, (c + 1) QP) and
/// contracts them with that block of a (spread over its own rings); the passes' f32 sums are
/// added in pass order and rx last: r = bf16(((o0 + o1) + ... + o_last) + rx).
mlir::Value outProjectionPasses(StageBuilder &b, Axes &ax, const Plan &plan, const OutTypes &o,
                                mlir::Value a, mlir::Value weights, mlir::Value rxHbm) {
  mlir::Type owp = b.hbm("owp", b.bf16(), Expr::pair({ax.h, ax.qp.pad(plan.qPass * plan.oPasses)}));
  mlir::Type apart = b.dm("apart", b.bf16(), ax.k, ax.one, ax.qp);
  RingTypes ring = ringTypes(b, ax, ax.qp, plan.a, "aring", "af", "as");
  mlir::Value sum;
  for (int64_t c = 0; c < plan.oPasses; ++c) {
    const std::string P = "q" + num(c);
    mlir::Value w = b.view("ow" + P, weights, c * plan.qPass, owp);
    mlir::Value ot = outWeights(b, ax, plan, o, P, w, ax.qp);
    mlir::Value av = b.dmView("av" + P, a, c * plan.qPass, std::nullopt, apart);
    mlir::Value ar = b.dma("ar" + P, av, ring.dm);
    const std::string fe = "af" + P, sw = "asw" + P, sc = "ac" + P;
    mlir::Value ac = broadcastRing(b, {fe.c_str(), sw.c_str(), sc.c_str()}, ar, ring);
    sum = addPass(b, "o", P, o, b.contract("o" + P, ac, ot, /*pack=*/2, o.acc), sum);
  }
  mlir::Value rxv = residualVrf(b, "rx", b.dma("rxd", rxHbm, o.r), o);
  return finishPasses(b, {"osf", "osfc", "r"}, o, sum, rxv);
}

/// a = x / sum on one slice of each cluster (x and sum from HBM once per cluster), committed
/// back over x's bytes, read as Q and spread over the rings of the o-proj slices.
mlir::Value normaliseAttention(StageBuilder &b, Axes &ax, const Qwen3Shape &s,
                               const RingTypes &aRing, mlir::Value x, mlir::Value sumHbm) {
  using tcp::Context;
  const int64_t perFlit = b.target().flitBytes / 4; // f32
  Expr heads = Expr::pair({ax.n, ax.g});
  // Time [D / 8, N, G]: every flit of a head meets that head's sum, the VRF's inner factors.
  Expr time = Expr::pair({ax.d / perFlit, ax.n, ax.g});
  mlir::Type xcopy = b.dm("xcopy", b.bf16(), ax.k, ax.one, Expr::pair({ax.n, ax.g, ax.d}));
  mlir::Type xs = b.stream("xs", b.f32(), ax.k, ax.one, time, ax.d % perFlit);
  mlir::Type xb = b.stream("xb", b.bf16(), ax.k, ax.one, time, ax.d % perFlit);
  mlir::Type sdm = b.dm("sdm", b.f32(), ax.k, ax.one, heads);
  const bool packets = sumsArePackets(s, b.target());
  mlir::Type ss = packets ? b.stream("ss", b.f32(), ax.k, ax.one, ax.n, ax.g) : mlir::Type();
  mlir::Type svrf = b.vrf("svrf", b.f32(), ax.k, ax.one, heads);
  mlir::Type aone = b.dm("aone", b.bf16(), ax.k, ax.one, ax.q);

  mlir::Value xc = b.dma("xc", x, xcopy);
  mlir::Value sd = b.dma("sd", sumHbm, sdm);
  mlir::Value sv;
  if (packets) {
    sv = b.toVrf("sv", b.collect("c0", b.fetch("s0", Context::sub, sd, ss)), svrf);
  } else { // G f32 are no packet: N x G as one vector, then viewed as [N, G] in the VRF
    const int64_t per = sumsPerPacket(s, b.target()), count = s.kvHeads * s.groups();
    Expr ng = axisOnce(b, ax, "NG", count);
    mlir::Type sflat = b.dm("sflat", b.f32(), ax.k, ax.one, ng);
    mlir::Type sfs = per == count ? b.stream("sfs", b.f32(), ax.k, ax.one, Expr::one(), ng)
                                  : b.stream("sfs", b.f32(), ax.k, ax.one, ng / per, ng % per);
    mlir::Type sfvrf = b.vrf("sfvrf", b.f32(), ax.k, ax.one, ng);
    mlir::Value sf = b.reinterpret("sumf", sd, sflat);
    mlir::Value svf =
        b.toVrf("sumv", b.collect("c0", b.fetch("s0", Context::sub, sf, sfs)), sfvrf);
    sv = b.vrfView("sv", svf, 0, svrf);
  }
  mlir::Value c1 = b.collect("c1", b.fetch("s1", Context::main, xc, xs));
  mlir::Value q1 = b.vector("q1", c1, {Step::vrfOf("div_f", sv)});
  mlir::Value ad = b.commit("ad", b.cast("b1", q1, xb), xcopy);
  mlir::Value aq = b.reinterpret("aq", ad, aone);
  return aRing.dm ? b.dma("ar", aq, aRing.dm) : aq;
}

/// r = rx + W_o a on the o-proj slices, one row of H per TRF lane (or outPerLane per lane).
mlir::Value outProjection(StageBuilder &b, Axes &ax, const Plan &plan, const OutTypes &o,
                          const RingTypes &aRing, mlir::Value a, mlir::Value weights,
                          mlir::Value rxHbm) {
  if (plan.oPasses > 1)
    return outProjectionPasses(b, ax, plan, o, a, weights, rxHbm);
  mlir::Value ot = outWeights(b, ax, plan, o, "", weights, ax.q);
  mlir::Value rxv = residualVrf(b, "rx", b.dma("rxd", rxHbm, o.r), o);
  mlir::Value ac = broadcastRing(b, {"af", "asw", "ac"}, a, aRing);
  mlir::Value acc = b.contract("o", ac, ot, /*pack=*/2, o.acc);
  return addResidual(b, "r", acc, rxv, o);
}

/// h = RMSNorm(r) on one slice of each cluster (r gathered DM to DM; six passes, r * w in `parts`
/// passes: SliceNorm.h), then spread over the rings of the gate/up slices.
mlir::Value rmsNorm(StageBuilder &b, const Axes &ax, const Qwen3Shape &s, const RingTypes &hRing,
                    mlir::Value r, mlir::Value weight, int64_t parts) {
  using tcp::Context;
  const TargetModel &t = b.target();
  const int64_t perFlit = t.flitBytes / 4, perSub = t.subFetchAccessBytes / 2;
  Expr scalar = Expr::one().pad(t.commitStrideAlignment / 4); // one f32, a committable packet
  mlir::Type rone = b.dm("rone", b.bf16(), ax.k, ax.one, ax.h);
  mlir::Type hs = b.stream("hs", b.f32(), ax.k, ax.one, ax.h / perFlit, ax.h % perFlit);
  mlir::Type qs = b.stream("qs", b.f32(), ax.k, ax.one, Expr::one(), scalar);
  mlir::Type qdm = b.dm("qdm", b.f32(), ax.k, ax.one, scalar);
  mlir::Type qvrf = b.vrf("qvrf", b.f32(), ax.k, ax.one, scalar);
  mlir::Type hw4 = b.stream("hwsub", b.f32(), ax.k, ax.one, ax.h / perSub, ax.h % perSub);
  mlir::Type hwvrf = b.vrf("hwvrf", b.f32(), ax.k, ax.one, ax.h);
  mlir::Type hfdm = b.dm("hfdm", b.f32(), ax.k, ax.one, ax.h);

  mlir::Value hd = b.dma("hd", r, rone);
  mlir::Value hwd = b.dma("hwd", weight, rone);
  mlir::Value hc1 = b.collect("hc1", b.fetch("h1", Context::main, hd, hs));
  mlir::Value hq =
      b.vector("hq", hc1, {Step::op("stash"), Step::stash("mul_f"), Step::op("reduce_add_f")}, qs);
  mlir::Value hsum = b.commit("hsum", hq, qdm);
  mlir::Value hc2 = b.collect("hc2", b.fetch("h2", Context::main, hsum, qs));
  mlir::Value hr =
      b.vector("hr", hc2,
               {Step::fma(float(1.0 / double(s.hidden)), float(s.rmsNormEps)), Step::op("sqrt_f")});
  mlir::Value hrms = b.commit("hrms", hr, qdm);
  auto loadRms = [&] {
    return b.toVrf("hrv", b.collect("hc3", b.fetch("h3", Context::sub, hrms, qs)), qvrf);
  };
  // rms goes to the VRF before the weight when both fit; otherwise after r * w, into the
  // weight's bytes (a VRF tensor lives until the last pass that reads it ends).
  const bool rmsAfterWeight = slicenorm::rmsAfterWeight(s, t);
  mlir::Value hrv = rmsAfterWeight ? mlir::Value() : loadRms();
  const slicenorm::PartNames n{"hd", "hwd", "h4",    "hc4", "hwv", "h5", "hc5",
                               "hp", "hxw", "hjoin", "hxw", "h",   "HP", "HI"};
  mlir::Value hxw = slicenorm::multiplyByWeight(b, n, s.hidden, parts, ax.k, ax.one, hd, hwd, hs,
                                                hw4, hwvrf, hfdm);
  if (rmsAfterWeight)
    hrv = loadRms();
  mlir::Value hc6 = b.collect("hc6", b.fetch("h6", Context::main, hxw, hs));
  mlir::Value hn = b.vector("hn", hc6, {Step::vrfOf("div_f", hrv)});
  mlir::Value hnd = b.commit("hnd", hn, rone, /*castToBf16=*/true);
  return b.dma("hr1", hnd, hRing.dm);
}

std::string ringText(const Ring &r) {
  return (r.count == 1 ? "one ring" : num(r.count) + " rings") + " of " + num(r.size);
}

/// Cycles of a TRF load of `bytes` per slice on the main context: one access per cycle plus
/// the pipeline's fill.
int64_t trfLoadCycles(const TargetModel &t, int64_t bytes) {
  return bytes / t.maxFetchAccessBytes + t.pipelineFillCycles;
}

/// The MLP's passes over L, when there are several.
void describePasses(StageBuilder &b, const Qwen3Shape &s, const Plan &plan) {
  if (plan.passes == 1)
    return;
  std::string text = "\nThe MLP runs in " + num(plan.passes) + " passes over L (axis LP: ";
  text += num(plan.lPass) + " values each; gate, up and down together exceed the TRF): pass c ";
  text += "loads gate/up rows [c LP, (c + 1) LP) and those columns of down's rows into the TRF, ";
  text += "computes its p and contracts it (each contraction summed from 0 in its own order). ";
  text += "The passes' f32 partial sums are added in pass order and r last: rx = bf16(((d0 + d1)";
  text += " + ... + d" + num(plan.passes - 1) + ") + r), the running sum committed in f32 ";
  text += "between passes and read back through the VRF.";
  b.describe(wrapLines(text));
}

/// o-proj's passes over Q, when there are several.
void describeOutPasses(StageBuilder &b, const Qwen3Shape &s, const Plan &plan) {
  if (plan.oPasses == 1)
    return;
  std::string text = "\no-proj runs in " + num(plan.oPasses) + " passes over Q (axis QP: ";
  text += num(plan.qPass) + " values each; a row of Q (" + num(s.qDim() * 2) + " bytes, ";
  text += num(plan.outPerLane) + " per lane) exceeds a lane): pass c loads the columns ";
  text += "[c QP, (c + 1) QP) of W_o's rows into the TRF and contracts them with that block of a, ";
  text += "spread over its own rings (each contraction summed from 0 in its own order). The ";
  text += "passes' f32 sums are added in pass order and rx last: r = bf16(((o0 + o1) + ... + o";
  text += num(plan.oPasses - 1) + ") + rx), the running sum committed in f32 between passes.";
  b.describe(wrapLines(text));
}

/// The placement paragraph: slices, lanes, rings and rounding points.
void describePlacement(StageBuilder &b, const Qwen3Shape &s, const Plan &plan) {
  const TargetModel &t = b.target();
  const std::string perFlit = num(t.flitBytes / 2), rows = num(plan.outRows);
  std::string place = "\nPlacement: o-proj and down on the same " + num(plan.outSlices);
  if (plan.outPerLane == 1)
    place += " slices of each cluster (" + rows + " rows each, one per TRF lane: short TRF loads, ";
  else
    place += " slices of each cluster (" + rows + " rows each, " + num(plan.outPerLane) +
             " in each of " + num(plan.outLanes) + " TRF lanes, ";
  place += "and r is where down's residual add reads it), gate/up on " + num(plan.mlpSlices);
  place += " slices of each cluster (" + num(plan.mlpRows()) + " rows: " + num(plan.mlpLanes);
  place += " lanes x " + num(plan.mlpRowsPerLane) + "); the rows split evenly over the ";
  place += "clusters in order, so the weights stream into every cluster's DM. a = x / sum and ";
  place += "h = RMSNorm(r) are computed on one slice of each cluster (x, sum and the norm weight ";
  place += "come from HBM once per cluster, replica axis K" + num(t.clusters) + "; r is ";
  place += "gathered there from every cluster), and p is gathered onto one slice of each cluster; ";
  place += "each is then spread over rings of the slices that contract with it (a: ";
  place += ringText(plan.a) + " per cluster, h: " + ringText(plan.h) + ", p: ";
  place += ringText(plan.p) + "; slice V / " + perFlit + " % ring of a ring holds flit V / ";
  place += perFlit + " and every ring-th flit after it) and broadcast within the ring by the ";
  place += "Switch Engine as the contraction streams it, in the order of the contracted axis. ";
  place += "Rounding points: a, r, h, p and the result are bf16; accumulations and the ";
  place += "element-wise math are f32.";
  if (!sumsArePackets(s, t))
    place += " A kv head's sums (" + num(s.groups() * 4) + " bytes) are no stream packet: the " +
             num(s.kvHeads * s.groups()) + " sums are read as one vector (axis NG, packets of " +
             num(sumsPerPacket(s, t)) + ") and viewed as [N, G] in the VRF.";
  if (slicenorm::rmsAfterWeight(s, t))
    place += " RMSNorm loads rms into the VRF after r * w: the weight in f32 (" +
             num(s.hidden * 4) + " bytes) leaves no room for it before.";
  if (plan.normParts > 1)
    place += " RMSNorm's weight in f32 (" + num(s.hidden * 4) + " bytes) goes to the VRF in " +
             num(plan.normParts) + " parts of H, r times each in turn, joined by tcp.dm_join.";
  b.describe(wrapLines(place));
}

void describe(StageBuilder &b, const Qwen3Shape &s, const Plan &plan) {
  const TargetModel &t = b.target();
  const std::string lanes = num(plan.outLanes);
  const int64_t rowBytes = plan.lPass * 2;
  std::string math = "`decoder` stage: the rest of a layer after attention.\n";
  math += "  a  = x / sum (per head; x is the unnormalised attention output)\n";
  math += "  r  = rx + W_o a                          (written to rx_hbm)\n";
  math += "  h  = RMSNorm(r) (post_rms_weight, eps " + real(s.rmsNormEps) + ")\n";
  math += "  rx = r + W_down(silu(W_gate h) * W_up h) (written to rx_hbm)";
  b.describe(math);
  describePlacement(b, s, plan);
  std::string halves = "\ndown's weights stream in two halves, the even rows (H = 2 E) and ";
  halves += "then the odd ones, each loaded into " + num(plan.outLanes / 2) + " of the " + lanes;
  halves += " lanes, so only the odd half's TRF load (";
  halves += num(trfLoadCycles(t, plan.outRows / 2 * rowBytes)) + " cycles, not ";
  halves += num(trfLoadCycles(t, plan.outRows * rowBytes)) + ") follows the last byte; ";
  halves += "tcp.trf_join reads the two as the " + lanes + "-lane tensor the contraction takes.";
  b.describe(wrapLines(halves));
  describeOutPasses(b, s, plan);
  describePasses(b, s, plan);
}

} // namespace

namespace {

/// What the three decoder stages share: the plan, the axes and the types of its sections.
struct DecoderSetup {
  Plan plan;
  Axes ax;
  RingTypes aRing, hRing, pRing;
  OutTypes o;
  MlpTypes m;
  mlir::Type heads, sums, vec, ow, lw, dw;
};

llvm::Expected<DecoderSetup> setUp(StageBuilder &b, const Qwen3Shape &s) {
  const TargetModel &t = b.target();
  llvm::Expected<Plan> plan = planDecoder(s, t);
  if (!plan)
    return plan.takeError();
  describe(b, s, *plan);

  DecoderSetup d;
  d.plan = *plan;
  Axes &ax = d.ax;
  ax.perFlit = t.flitBytes / 2;
  ax.n = axisOnce(b, ax, "N", s.kvHeads);
  ax.g = axisOnce(b, ax, "G", s.groups());
  ax.d = axisOnce(b, ax, "D", s.headDim);
  ax.q = axisOnce(b, ax, "Q", s.qDim());
  ax.h = axisOnce(b, ax, "H", s.hidden);
  ax.l = axisOnce(b, ax, "L", s.intermediate);
  const Expr lFull = ax.l; // the weights' L; ax.l is a pass's block of it
  if (plan->passes > 1)
    ax.l = axisOnce(b, ax, "LP", plan->lPass);
  ax.k = everyCluster(b, "K");
  ax.e = axisOnce(b, ax, "E", s.hidden / 2);
  ax.one = Expr::one().pad(t.slicesPerCluster);

  d.heads = b.hbm("nghbm", b.bf16(), Expr::pair({ax.n, ax.g, ax.d}));
  d.sums = b.hbm("sumhbm", b.f32(), Expr::pair({ax.n, ax.g}));
  d.vec = b.hbm("vec", b.bf16(), ax.h);
  d.ow = b.hbm("ow", b.bf16(), Expr::pair({ax.h, ax.q}));
  d.lw = b.hbm("lw", b.bf16(), Expr::pair({lFull, ax.h}));
  d.dw = b.hbm("dw", b.bf16(), Expr::pair({ax.h, lFull}));
  if (plan->oPasses > 1)
    ax.qp = axisOnce(b, ax, "QP", plan->qPass);
  if (plan->oPasses == 1) // one pass: a spreads over its rings once; several: per pass
    d.aRing = ringTypes(b, ax, ax.q, plan->a, "aring", "af", "as");
  d.hRing = ringTypes(b, ax, ax.h, plan->h, "hring", "hf", "hn");
  d.pRing = ringTypes(b, ax, ax.l, plan->p, "pring", "pf", "ps");
  d.o = outTypes(b, ax, *plan, s);
  d.m = mlpTypes(b, ax, *plan);
  return d;
}

/// The MLP's weights, in mlp()'s order.
std::array<mlir::Value, 3> mlpWeights(StageBuilder &b, const DecoderSetup &d) {
  mlir::Value upWeight = b.input("up_weight", d.lw);
  mlir::Value gateWeight = b.input("gate_weight", d.lw);
  mlir::Value downWeight = b.input("down_weight", d.dw);
  return {gateWeight, upWeight, downWeight};
}

} // namespace

llvm::Error buildDecoder(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  llvm::Expected<DecoderSetup> setup = setUp(b, s);
  if (!setup)
    return setup.takeError();
  DecoderSetup &d = *setup;
  mlir::Value x = b.input("x", d.heads);
  mlir::Value sumHbm = b.input("sum_hbm", d.sums);
  mlir::Value rxHbm = b.inout("rx_hbm", d.vec);
  mlir::Value oWeight = b.input("o_weight", d.ow);
  mlir::Value normWeight = b.input("post_rms_weight", d.vec);
  std::array<mlir::Value, 3> gateUpDown = mlpWeights(b, d);

  mlir::Value a = normaliseAttention(b, d.ax, s, d.aRing, x, sumHbm);
  mlir::Value r = outProjection(b, d.ax, d.plan, d.o, d.aRing, a, oWeight, rxHbm);
  mlir::Value h = rmsNorm(b, d.ax, s, d.hRing, r, normWeight, d.plan.normParts);
  mlp(b, d.ax, d.plan, s, d.o, d.m, d.hRing, d.pRing, h, r, gateUpDown, rxHbm);
  return llvm::Error::success();
}

llvm::Error buildDecoderOut(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  llvm::Expected<DecoderSetup> setup = setUp(b, s);
  if (!setup)
    return setup.takeError();
  DecoderSetup &d = *setup;
  b.describe(wrapLines("\n`decoder_out` is the decoder's first part on one chip of a tensor-"
                       "parallel group: a = x / sum and rx_hbm = bf16(rx + W_o a) for this "
                       "chip's heads (W_o's columns of them); the chips' rx_hbm are then summed "
                       "(the all-reduce), the residual given to one chip only."));
  mlir::Value x = b.input("x", d.heads);
  mlir::Value sumHbm = b.input("sum_hbm", d.sums);
  mlir::Value rxHbm = b.inout("rx_hbm", d.vec);
  mlir::Value oWeight = b.input("o_weight", d.ow);
  mlir::Value a = normaliseAttention(b, d.ax, s, d.aRing, x, sumHbm);
  mlir::Value r = outProjection(b, d.ax, d.plan, d.o, d.aRing, a, oWeight, rxHbm);
  b.dmaInto(r, rxHbm);
  return llvm::Error::success();
}

llvm::Error buildDecoderMlp(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  llvm::Expected<DecoderSetup> setup = setUp(b, s);
  if (!setup)
    return setup.takeError();
  DecoderSetup &d = *setup;
  b.describe(wrapLines("\n`decoder_mlp` is the decoder's second part on one chip of a tensor-"
                       "parallel group: h = RMSNorm(r) of the summed r (r_hbm), then rx_hbm = "
                       "bf16(rx + W_down(silu(W_gate h) * W_up h)) for this chip's block of L; "
                       "the chips' rx_hbm are then summed, the residual given to one chip only."));
  mlir::Value rHbm = b.input("r_hbm", d.vec);
  mlir::Value rxHbm = b.inout("rx_hbm", d.vec);
  mlir::Value normWeight = b.input("post_rms_weight", d.vec);
  std::array<mlir::Value, 3> gateUpDown = mlpWeights(b, d);
  mlir::Value residual = b.dma("rxd", rxHbm, d.o.r);
  mlir::Value h = rmsNorm(b, d.ax, s, d.hRing, rHbm, normWeight, d.plan.normParts);
  mlp(b, d.ax, d.plan, s, d.o, d.m, d.hRing, d.pRing, h, residual, gateUpDown, rxHbm);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
