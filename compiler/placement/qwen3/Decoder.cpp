// `decoder`: the rest of a layer after attention: a = x / sum, r = rx + W_o a,
// h = RMSNorm(r), rx = r + W_down(silu(W_gate h) * W_up h). Weights one row per TRF lane (o-proj
// and down) or all lanes full (gate/up); each activation gathered on one slice of each cluster,
// spread over rings of the slices that contract with it and broadcast there by the Switch
// Engine.
#include "compiler/placement/qwen3/DecoderMlp.h"
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

constexpr const char *kStage = "decoder";

std::string num(int64_t n) { return std::to_string(n); }

std::string real(double x) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", x);
  return text;
}

/// The largest ring that divides both the vector's flits and the slices it must reach (a ring
/// is a power of two of slices, at most a cluster).
llvm::Expected<Ring> planRing(const TargetModel &t, llvm::StringRef what, int64_t elems,
                              int64_t used) {
  if (elems * 2 % t.flitBytes != 0)
    return placementError(kStage, "an activation spreads over a ring in whole flits",
                          what + " has " + llvm::Twine(elems) + " bf16, not a multiple of " +
                              llvm::Twine(t.flitBytes / 2));
  const int64_t flits = elems * 2 / t.flitBytes;
  const int64_t common = std::gcd(flits, used);
  Ring r;
  r.size = std::min<int64_t>(common & -common, t.slicesPerCluster);
  r.count = used / r.size;
  r.perSlice = flits / r.size;
  r.used = used;
  if (r.size % 2 != 0 || t.slicesPerCluster % r.size != 0)
    return placementError(kStage, "a ring streams packets of two flits (pack 2)",
                          what + ": " + llvm::Twine(flits) + " flits over " + llvm::Twine(used) +
                              " slices give rings of " + llvm::Twine(r.size));
  return r;
}

/// o-proj and down: the fewest rows per slice a DMA moves (r is gathered and stored by DMA:
/// commitStrideAlignment bytes of bf16), doubled until a cluster's slices hold H; one row per
/// TRF lane (short TRF loads), an even number (down streams its even and odd rows as halves).
llvm::Error planOut(const Qwen3Shape &s, const TargetModel &t, Plan &plan) {
  plan.outRows = t.commitStrideAlignment / 2;
  while (plan.outRows <= t.trfLanes && s.hidden > plan.outRows * t.totalSlices())
    plan.outRows *= 2;
  const int64_t unit = plan.outRows * t.clusters;
  if (plan.outRows > t.trfLanes || plan.outRows % 2 != 0 || s.hidden % unit != 0)
    return placementError(kStage, "o-proj and down hold one row of H per TRF lane",
                          "hidden " + llvm::Twine(s.hidden) + " in " + llvm::Twine(plan.outRows) +
                              " rows per slice on " + llvm::Twine(t.clusters) + " clusters of " +
                              llvm::Twine(t.slicesPerCluster) + " slices, " +
                              llvm::Twine(t.trfLanes) + " TRF lanes");
  plan.outSlices = s.hidden / unit;
  const int64_t laneBytes = t.trfBytesPerSlice / plan.outRows;
  if (s.qDim() * 2 > laneBytes)
    return placementError(kStage, "an o-proj row fits a TRF lane",
                          "hidden " + llvm::Twine(s.hidden) + " in " + llvm::Twine(plan.outRows) +
                              " rows per slice, rows of " + llvm::Twine(s.qDim() * 2) +
                              " bytes; a lane of " + llvm::Twine(plan.outRows) + " holds " +
                              llvm::Twine(laneBytes));
  return llvm::Error::success();
}

/// gate/up: on the slices of the fewest whole rings of h per cluster that hold a pass's L
/// (plan.lPass) in every TRF lane (whole rows per lane, each lane's rows fitting it). A ring starts
/// as h's flits, one per slice (the largest power of two of them, at most a cluster); when no count
/// of such rings holds L, the ring halves (two flits a slice) and the search repeats.
llvm::Error planMlp(const Qwen3Shape &s, const TargetModel &t, Plan &plan) {
  if (s.hidden * 2 % t.flitBytes != 0)
    return placementError(kStage, "h spreads over a ring in whole flits",
                          "hidden " + llvm::Twine(s.hidden) + " bf16 in flits of " +
                              llvm::Twine(t.flitBytes / 2));
  const int64_t flits = s.hidden * 2 / t.flitBytes;
  const int64_t laneBytes = t.trfBytesPerSlice / t.trfLanes;
  const int64_t perSubAccess = t.subFetchAccessBytes / 4; // f32 of u read into the VRF
  if (t.trfLanes % perSubAccess != 0)
    return placementError(kStage, "u goes to the VRF in whole sub accesses",
                          llvm::Twine(t.trfLanes) + " lanes, " + llvm::Twine(perSubAccess) +
                              " f32 per access");
  for (int64_t size = std::min<int64_t>(flits & -flits, t.slicesPerCluster); size >= 2; size /= 2) {
    for (int64_t count = 1; count * size <= t.slicesPerCluster; ++count) {
      const int64_t unit = count * size * t.clusters * t.trfLanes;
      if (plan.lPass % unit != 0 || plan.lPass / unit * s.hidden * 2 > laneBytes)
        continue;
      plan.mlpLanes = t.trfLanes;
      plan.mlpRowsPerLane = plan.lPass / unit;
      plan.mlpSlices = count * size;
      plan.h = Ring{size, count, flits / size, count * size};
      return llvm::Error::success();
    }
  }
  return placementError(
      kStage, "gate/up fill every TRF lane of whole rings of h",
      "a pass of " + llvm::Twine(plan.lPass) + " rows of " + llvm::Twine(s.hidden * 2) +
          " bytes, " + llvm::Twine(t.clusters) + " clusters of " + llvm::Twine(t.slicesPerCluster) +
          " slices, " + llvm::Twine(t.trfLanes) + " lanes of " + llvm::Twine(laneBytes) + " bytes");
}

/// The MLP's passes over L: the fewest that divide L into blocks whose down rows (a block of
/// each row of H per TRF lane) fit a lane, in whole packets of two flits (the contraction's
/// 32-value trees stay whole, so each pass sums its own values in the kernel's order), whose
/// gate/up rows fill whole rings of h (planMlp) and whose p spreads over rings of the down
/// slices. One pass when the whole of L fits.
llvm::Error planPasses(const Qwen3Shape &s, const TargetModel &t, Plan &plan) {
  const int64_t laneBytes = t.trfBytesPerSlice / plan.outRows, packet = 2 * t.flitBytes;
  for (int64_t passes = 1; passes * packet <= s.intermediate * 2; ++passes) {
    if (s.intermediate % passes != 0)
      continue;
    plan.passes = passes;
    plan.lPass = s.intermediate / passes;
    if (plan.lPass * 2 > laneBytes || plan.lPass * 2 % packet != 0)
      continue;
    if (llvm::Error e = planMlp(s, t, plan)) {
      llvm::consumeError(std::move(e));
      continue;
    }
    llvm::Expected<Ring> p = planRing(t, "p", plan.lPass, plan.outSlices);
    if (!p) {
      llvm::consumeError(p.takeError());
      continue;
    }
    plan.p = *p;
    return llvm::Error::success();
  }
  return placementError(
      kStage, "the MLP passes over L in blocks that fit the TRF",
      "intermediate " + llvm::Twine(s.intermediate) + ", hidden " + llvm::Twine(s.hidden) +
          ": no divisor of L gives down rows of at " + "most " + llvm::Twine(laneBytes) +
          " bytes (" + llvm::Twine(plan.outRows) + " lanes) in packets of " + llvm::Twine(packet) +
          " bytes whose gate/up rows fill whole rings of " +
          "h and whose p spreads over rings of " + llvm::Twine(plan.outSlices) + " slices");
}

/// The single-slice passes' checks: a = x / sum streams D in f32 flits with sum (a packet of G
/// f32) in the VRF; RMSNorm streams H in flits and sub accesses (its weight: SliceNorm.h).
llvm::Error checkSingleSlice(const Qwen3Shape &s, const TargetModel &t) {
  const int64_t perFlit = t.flitBytes / 4, perSubAccess = t.subFetchAccessBytes / 2;
  if (s.headDim % perFlit != 0)
    return placementError(kStage, "x streams in whole f32 flits of a head",
                          "head_dim " + llvm::Twine(s.headDim) + ", flits of " +
                              llvm::Twine(perFlit));
  const int64_t sumPacket = s.groups() * 4;
  if (sumPacket % t.fetchPacketAlignment != 0 || sumPacket > t.flitBytes)
    return placementError(kStage, "a kv head's sums (G f32) are one stream packet",
                          llvm::Twine(s.groups()) + " x 4 = " + llvm::Twine(sumPacket) +
                              " bytes; packets are multiples of " +
                              llvm::Twine(t.fetchPacketAlignment) + " up to " +
                              llvm::Twine(t.flitBytes));
  if (s.hidden % perFlit != 0 || s.hidden % perSubAccess != 0)
    return placementError(kStage, "r streams in whole flits and sub accesses",
                          "hidden " + llvm::Twine(s.hidden));
  return llvm::Error::success();
}

llvm::Expected<Plan> planDecoder(const Qwen3Shape &s, const TargetModel &t) {
  Plan plan;
  if (llvm::Error e = checkSingleSlice(s, t))
    return e;
  llvm::Expected<int64_t> parts = slicenorm::weightParts(kStage, s, t);
  if (!parts)
    return parts.takeError();
  plan.normParts = *parts;
  if (llvm::Error e = planOut(s, t, plan))
    return e;
  if (llvm::Error e = planPasses(s, t, plan))
    return e;
  llvm::Expected<Ring> a = planRing(t, "a", s.qDim(), plan.outSlices);
  if (!a)
    return a.takeError();
  plan.a = *a;
  return plan;
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

OutTypes outTypes(StageBuilder &b, const Axes &ax, const Plan &plan, const Qwen3Shape &s) {
  const TargetModel &t = b.target();
  OutTypes o;
  o.cluster = byCluster(t, ax.h, s.hidden);
  o.slice = padSlices(t, ax.h / plan.outRows % plan.outSlices, plan.outSlices);
  Expr lane = ax.h % plan.outRows;
  Expr packet = plan.outRows < t.trfLanes ? lane.pad(t.trfLanes) : lane;
  o.acc = b.stream("oacc", b.f32(), o.cluster, o.slice, Expr::one(), packet);
  o.res = b.stream("ores", b.bf16(), o.cluster, o.slice, Expr::one(), packet);
  o.r = b.dm("rpart", b.bf16(), o.cluster, o.slice, lane);
  o.rStream = b.stream("r4s", b.f32(), o.cluster, o.slice, Expr::one(), lane);
  o.rVrf = b.vrf("r4v", b.f32(), o.cluster, o.slice, lane);
  return o;
}

/// a = x / sum on one slice of each cluster (x and sum from HBM once per cluster), committed
/// back over x's bytes, read as Q and spread over the rings of the o-proj slices.
mlir::Value normaliseAttention(StageBuilder &b, const Axes &ax, const RingTypes &aRing,
                               mlir::Value x, mlir::Value sumHbm) {
  using tcp::Context;
  const int64_t perFlit = b.target().flitBytes / 4; // f32
  Expr heads = Expr::pair({ax.n, ax.g});
  // Time [D / 8, N, G]: every flit of a head meets that head's sum, the VRF's inner factors.
  Expr time = Expr::pair({ax.d / perFlit, ax.n, ax.g});
  mlir::Type xcopy = b.dm("xcopy", b.bf16(), ax.k, ax.one, Expr::pair({ax.n, ax.g, ax.d}));
  mlir::Type xs = b.stream("xs", b.f32(), ax.k, ax.one, time, ax.d % perFlit);
  mlir::Type xb = b.stream("xb", b.bf16(), ax.k, ax.one, time, ax.d % perFlit);
  mlir::Type sdm = b.dm("sdm", b.f32(), ax.k, ax.one, heads);
  mlir::Type ss = b.stream("ss", b.f32(), ax.k, ax.one, ax.n, ax.g);
  mlir::Type svrf = b.vrf("svrf", b.f32(), ax.k, ax.one, heads);
  mlir::Type aone = b.dm("aone", b.bf16(), ax.k, ax.one, ax.q);

  mlir::Value xc = b.dma("xc", x, xcopy);
  mlir::Value sd = b.dma("sd", sumHbm, sdm);
  mlir::Value sv = b.toVrf("sv", b.collect("c0", b.fetch("s0", Context::sub, sd, ss)), svrf);
  mlir::Value c1 = b.collect("c1", b.fetch("s1", Context::main, xc, xs));
  mlir::Value q1 = b.vector("q1", c1, {Step::vrfOf("div_f", sv)});
  mlir::Value ad = b.commit("ad", b.cast("b1", q1, xb), xcopy);
  mlir::Value aq = b.reinterpret("aq", ad, aone);
  return b.dma("ar", aq, aRing.dm);
}

/// r = rx + W_o a on the o-proj slices, one row of H per TRF lane.
mlir::Value outProjection(StageBuilder &b, const Axes &ax, const Plan &plan, const OutTypes &o,
                          const RingTypes &aRing, mlir::Value a, mlir::Value weights,
                          mlir::Value rxHbm) {
  Expr lane = ax.h % plan.outRows;
  mlir::Type owdm = b.dm("owdm", b.bf16(), o.cluster, o.slice, Expr::pair({lane, ax.q}));
  mlir::Type owload = b.stream("owload", b.bf16(), o.cluster, o.slice,
                               Expr::pair({lane, ax.q / ax.perFlit}), ax.q % ax.perFlit);
  mlir::Type owtrf = b.trf("owtrf", b.bf16(), o.cluster, o.slice, lane, ax.q);
  mlir::Value owd = b.dma("owd", weights, owdm);
  mlir::Value oc = b.collect("oc", b.fetch("ol", tcp::Context::main, owd, owload));
  mlir::Value ot = b.toTrf("ot", oc, owtrf);
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

void describe(StageBuilder &b, const Qwen3Shape &s, const Plan &plan) {
  const TargetModel &t = b.target();
  const std::string perFlit = num(t.flitBytes / 2), lanes = num(plan.outRows);
  const int64_t rowBytes = plan.lPass * 2;
  std::string math = "`decoder` stage: the rest of a layer after attention.\n";
  math += "  a  = x / sum (per head; x is the unnormalised attention output)\n";
  math += "  r  = rx + W_o a                          (written to rx_hbm)\n";
  math += "  h  = RMSNorm(r) (post_rms_weight, eps " + real(s.rmsNormEps) + ")\n";
  math += "  rx = r + W_down(silu(W_gate h) * W_up h) (written to rx_hbm)";
  b.describe(math);
  std::string place = "\nPlacement: o-proj and down on the same " + num(plan.outSlices);
  place += " slices of each cluster (" + lanes + " rows each, one per TRF lane: short TRF loads, ";
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
  if (slicenorm::rmsAfterWeight(s, t))
    place += " RMSNorm loads rms into the VRF after r * w: the weight in f32 (" +
             num(s.hidden * 4) + " bytes) leaves no room for it before.";
  if (plan.normParts > 1)
    place += " RMSNorm's weight in f32 (" + num(s.hidden * 4) + " bytes) goes to the VRF in " +
             num(plan.normParts) + " parts of H, r times each in turn, joined by tcp.dm_join.";
  b.describe(wrapLines(place));
  std::string halves = "\ndown's weights stream in two halves, the even rows (H = 2 E) and ";
  halves += "then the odd ones, each loaded into " + num(plan.outRows / 2) + " of the " + lanes;
  halves += " lanes, so only the odd half's TRF load (";
  halves += num(trfLoadCycles(t, plan.outRows / 2 * rowBytes)) + " cycles, not ";
  halves += num(trfLoadCycles(t, plan.outRows * rowBytes)) + ") follows the last byte; ";
  halves += "tcp.trf_join reads the two as the " + lanes + "-lane tensor the contraction takes.";
  b.describe(wrapLines(halves));
  describePasses(b, s, plan);
}

} // namespace

llvm::Error buildDecoder(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  const TargetModel &t = b.target();
  llvm::Expected<Plan> plan = planDecoder(s, t);
  if (!plan)
    return plan.takeError();
  describe(b, s, *plan);

  Axes ax;
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

  mlir::Type heads = b.hbm("nghbm", b.bf16(), Expr::pair({ax.n, ax.g, ax.d}));
  mlir::Type sums = b.hbm("sumhbm", b.f32(), Expr::pair({ax.n, ax.g}));
  mlir::Type vec = b.hbm("vec", b.bf16(), ax.h);
  mlir::Type ow = b.hbm("ow", b.bf16(), Expr::pair({ax.h, ax.q}));
  mlir::Type lw = b.hbm("lw", b.bf16(), Expr::pair({lFull, ax.h}));
  mlir::Type dw = b.hbm("dw", b.bf16(), Expr::pair({ax.h, lFull}));
  mlir::Value x = b.input("x", heads);
  mlir::Value sumHbm = b.input("sum_hbm", sums);
  mlir::Value rxHbm = b.inout("rx_hbm", vec);
  mlir::Value oWeight = b.input("o_weight", ow);
  mlir::Value normWeight = b.input("post_rms_weight", vec);
  mlir::Value upWeight = b.input("up_weight", lw);
  mlir::Value gateWeight = b.input("gate_weight", lw);
  mlir::Value downWeight = b.input("down_weight", dw);

  RingTypes aRing = ringTypes(b, ax, ax.q, plan->a, "aring", "af", "as");
  RingTypes hRing = ringTypes(b, ax, ax.h, plan->h, "hring", "hf", "hn");
  RingTypes pRing = ringTypes(b, ax, ax.l, plan->p, "pring", "pf", "ps");
  OutTypes o = outTypes(b, ax, *plan, s);
  MlpTypes m = mlpTypes(b, ax, *plan);

  mlir::Value a = normaliseAttention(b, ax, aRing, x, sumHbm);
  mlir::Value r = outProjection(b, ax, *plan, o, aRing, a, oWeight, rxHbm);
  mlir::Value h = rmsNorm(b, ax, s, hRing, r, normWeight, plan->normParts);
  mlp(b, ax, *plan, s, o, m, hRing, pRing, h, r, {gateWeight, upWeight, downWeight}, rxHbm);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
