// `prefill_decoder`: the rest of a layer after attention for a block of T tokens: o_proj and the
// residual, RMSNorm, silu(gate) x up, down and the residual. Weight-stationary contractions (each
// weight on one slice of each cluster in use), the activations broadcast around rings
// (kernels/qwen3/prefill_decoder.mlir was the hand-placed original; docs/prefill.md).
#include "compiler/placement/qwen3/PrefillDecoderSteps.h"
#include "compiler/placement/qwen3/PrefillDecoderText.h"
#include "compiler/placement/qwen3/Stages.h"

#include <optional>
#include <string>

namespace rngd::placement::qwen3 {

namespace prefill_decoder {

using mlir::Type;
using mlir::Value;
using tcp::Context;

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

// Partial-sum blocks appended op by op, in K (or L) order. With the weights split over the
// clusters an op holds every cluster's pass, so they are reordered cluster by cluster: cluster
// c's run of passes (the c-th run of Q or L) after c - 1's. `perPass`: each op's blocks a
// cluster.
std::vector<Value> byCluster(const DecoderPlan &p, const std::vector<int64_t> &perPass,
                             const std::vector<Value> &blocks) {
  if (!p.split)
    return blocks;
  std::vector<Value> ordered;
  for (int64_t cl = 0; cl < p.clusters; ++cl) {
    int64_t first = 0; // op c's first block
    for (int64_t n : perPass) {
      for (int64_t k = 0; k < n; ++k)
        ordered.push_back(blocks[size_t(first + cl * n + k)]);
      first += p.clusters * n;
    }
  }
  return ordered;
}

} // namespace prefill_decoder

namespace {

using namespace prefill_decoder;
using mlir::Type;
using mlir::Value;
using tcp::Context;

constexpr const char *kStage = "prefill_decoder";

// o_proj's partial sums per K block for all the tokens (one tensor a pass over Q, the passes
// of x's part k after part k - 1's), x's view and the norm weight.
struct OProj {
  std::vector<Value> part;
  Value x, normWeight;
};

// The passes run one after the other (with the weights split over the clusters, a cluster's
// run at once: one op a step, each cluster its pass).
int64_t oPassRuns(const DecoderPlan &p) { return p.split ? p.oPasses / p.clusters : p.oPasses; }

// The names' tag of o_proj's c-th op (none when there is one).
std::string oPassTag(const DecoderPlan &p, int64_t c) {
  return oPassRuns(p) > 1 ? "q" + num(c) : "";
}

// o_proj's passes over Q for x's part k (a's blocks copied once, for part 0, into `ads`),
// appended to o.part.
void oProj(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, const DecoderArgs &a,
           int64_t k, std::vector<Value> &ads, OProj &o) {
  for (int64_t c = 0; c < oPassRuns(p); ++c) {
    const std::string P = oPassTag(p, c) + xTag(p, k);
    Value ow = a.oWeight, attn = a.attn;
    if (p.oPasses > 1 || p.xParts > 1) // (split: every cluster's c-th pass of its run)
      ow = b.view("owv" + P, ow, k * p.hx * p.qPass * p.oPasses + c * p.qPass, y.owp);
    if (p.oPasses > 1 && k == 0)
      attn = b.view("av" + P, attn, c * p.qPass * (p.perCluster * p.used), y.ahp);
    Value owd = b.dma("owd" + P, ow, y.owdm);
    Value ow1 = b.fetch("ow1" + P, Context::main, owd, y.owload);
    Value ow2 = b.collect("ow2" + P, ow1);
    Value owt = b.toTrf("owt" + P, ow2, y.owtrf);
    if (k == 0)
      ads.push_back(a.attnDm ? b.reinterpret("ad" + P, b.dma("adc" + P, a.attnDm, y.adec), y.adm)
                             : b.dma("ad" + P, attn, y.adm));
    if (p.oProjByHalf) { // (one pass over Q, x in one part)
      for (int64_t h = 0; h < p.halves; ++h) {
        const std::string H = idx(h);
        Value av = b.dmView("av" + H, ads[0], h * p.u * p.flit, std::nullopt, y.ahalf);
        Value aa1 = b.fetch("aa1" + H, Context::main, av, y.afh);
        Value aa2 = b.switchOp("aa2" + H, tcp::SwitchMode::broadcast1, aa1, y.ash);
        Value aa3 = b.collect("aa3" + H, aa2);
        Value oa = b.contract("oa" + H, aa3, owt, kTimeBroadcastRows, y.oacch);
        o.part.push_back(b.commit("op" + H, oa, y.parth));
      }
      continue;
    }
    Value aa1 = b.fetch("aa1" + P, Context::main, ads[size_t(c)], y.af);
    Value aa2 = b.switchOp("aa2" + P, tcp::SwitchMode::broadcast1, aa1, y.as);
    Value aa3 = b.collect("aa3" + P, aa2);
    Value oa = b.contract("oa" + P, aa3, owt, kTimeBroadcastRows, y.oacc);
    o.part.push_back(b.commit("op" + P, oa, y.part));
  }
}

// x's copy on its slices and the norm weight in the VRF.
Value normWeightVrf(StageBuilder &b, const DecoderTypes &y, const DecoderArgs &a) {
  Value wnd = b.dma("wnd", a.normWeight, y.wn);
  Value n1 = b.fetch("n1", Context::sub, wnd, y.wnsub);
  Value n2 = b.collect("n2", n1);
  return b.toVrf("wnv", n2, y.wnvrf);
}

void decoderInputs(StageBuilder &b, const DecoderTypes &y, const DecoderArgs &a, OProj &o) {
  Value xv = b.view("xv", a.x, 0, y.xv);
  o.x = b.dma("xd", xv, y.xj);
  o.normWeight = normWeightVrf(b, y, a);
}

// r = bf16(((p0 + p1) + p2) + ... + x) for a half of x's part k: its partial sums gathered
// onto x's slices.
Value residualHalf(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, const OProj &o,
                   int64_t h, int64_t k) {
  const int64_t cells = p.u * p.rowsPerSlice;
  const std::string H = idx(h) + xTag(p, k);
  const int64_t runs = oPassRuns(p), perPart = p.groups * (p.split ? p.clusters : 1);
  std::vector<Value> ops; // op by op: pass c's groups blocks after pass c - 1's
  for (int64_t c = 0; c < runs; ++c) {
    const std::string P = oPassTag(p, c);
    Value oph = p.oProjByHalf ? o.part[size_t(h)]
                              : b.dmView("op" + H + P, o.part[size_t(k * runs + c)], h * cells,
                                         std::nullopt, y.parth);
    Value gathered = b.dma("ops" + H + P, oph, y.parts);
    for (int64_t j = 0; j < perPart; ++j)
      ops.push_back(b.dmView("o" + idx(h, c * perPart + j) + xTag(p, k), gathered, j * cells,
                             std::nullopt, y.one));
  }
  const std::vector<Value> blocks =
      byCluster(p, std::vector<int64_t>(size_t(runs), p.groups), ops);
  const int64_t n = int64_t(blocks.size());
  Value sum = blocks[0];
  for (int64_t j = 1; j < n; ++j) {
    const std::string J = idx(h, j) + xTag(p, k);
    Value c = addThroughVrf(b, J, blocks[size_t(j)], sum, y.ones, y.onevrf);
    sum = b.commit("os" + J, c, y.one);
  }
  const std::string N = idx(h, n) + xTag(p, k);
  Value xh = b.dmView("x" + H, o.x, (h * p.xParts + k) * cells, std::nullopt, y.half);
  Value c = addThroughVrf(b, N, xh, sum, y.ones, y.onevrf);
  Value cb = b.cast("oc" + N + "d", c, y.onesb);
  return b.commit("r" + H, cb, y.half);
}

// r for a half: its parts joined and re-spelt over H (x's slices holding every part), or r
// itself in one part.
Value joinedHalf(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                 const std::vector<Value> &parts, int64_t h) {
  if (p.xParts == 1)
    return parts[0];
  Value joined = b.dmJoin("rj" + idx(h), parts, y.rjoin);
  return b.reinterpret("rf" + idx(h), joined, y.hfull);
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
  Value ma = b.fetch("m" + H + "a", Context::main, r, y.mones);
  Value mb = b.collect("m" + H + "b", ma);
  Value mc = b.vector("m" + H + "c", mb, {Step::vrfOf("mul_f", o.normWeight)});
  Value xw = b.commit("xw" + H, mc, y.mone);
  Value da = b.fetch("dv" + H + "a", Context::main, xw, y.xws);
  Value db = b.collect("dv" + H + "b", da);
  Value dc = b.vector("dv" + H + "c", db, {Step::vrfOf("div_f", rv)});
  return b.commit("hn" + H, dc, y.hfull, /*castToBf16=*/true);
}

// o_proj, the residual r and h = RMSNorm(r) of each half. With x in parts, each part's
// residual right after its o_proj (its partial sums then free their DM), the parts of r joined
// for the norm.
std::vector<Value> residualAndNorm(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p,
                                   const DecoderTypes &y, const DecoderArgs &a,
                                   std::vector<Value> &r) {
  OProj o;
  std::vector<Value> ads, hn;
  std::vector<std::vector<Value>> parts(size_t(p.halves));
  for (int64_t k = 0; k < p.xParts; ++k) {
    oProj(b, p, y, a, k, ads, o);
    if (k == 0)
      decoderInputs(b, y, a, o);
    for (int64_t h = 0; h < p.halves && p.xParts > 1; ++h)
      parts[size_t(h)].push_back(residualHalf(b, p, y, o, h, k));
  }
  for (int64_t h = 0; h < p.halves; ++h) {
    if (p.xParts == 1)
      parts[size_t(h)].push_back(residualHalf(b, p, y, o, h, 0));
    r.push_back(joinedHalf(b, p, y, parts[size_t(h)], h));
    hn.push_back(normHalf(b, s, y, o, r.back(), h));
  }
  return hn;
}

} // namespace

namespace {

// The MLP over the normalised halves `hn` with the residual halves `r`, then y: the down sums'
// pieces joined and written over y's first bytes.
void mlpAndOutput(StageBuilder &b, const DecoderPlan &p, const DecoderAxes &ax,
                  const DecoderTypes &y, const DecoderArgs &a, const std::vector<Value> &hn,
                  const std::vector<Value> &r) {
  Passes passes{p, y, p, y};
  if (p.tail) {
    passes.tailPlan = decoderTailPlan(p);
    DecoderAxes at = declareTailAxes(b, passes.tailPlan, ax);
    declareGateUp(b, passes.tailPlan, at, passes.tailTypes, "T");
    declareDown(b, passes.tailPlan, at, passes.tailTypes, "T");
  }
  std::vector<Value> out = mlp(b, passes, a, hn, r);
  Value yq = out.size() == 1   ? out[0]
             : p.xParts == 1 ? b.dmJoin("yq", out, y.yq)
                             : b.reinterpret("yq", b.dmJoin("yj", out, y.yjoin), y.yq);
  Value yv = b.view("yv", a.y, 0, y.yv);
  b.dmaInto(yq, yv);
}

// A [T, H] activation in x's layout, as the residual's and the norm's halves read it: one DMA
// into x's slices, then each half (of each part of x) a view of it, copied DM to DM where it is
// read through a view again (down's residual) or joined (x in parts).
std::vector<Value> loadHalves(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                              Value hbm, const std::string &tag, bool copied) {
  Value d = b.dma(tag + "d", b.view(tag + "v", hbm, 0, y.xv), y.xj);
  const int64_t cells = p.u * p.rowsPerSlice;
  std::vector<Value> halves;
  for (int64_t h = 0; h < p.halves; ++h) {
    std::vector<Value> parts;
    for (int64_t k = 0; k < p.xParts; ++k) {
      const std::string H = idx(h) + xTag(p, k);
      Value v = b.dmView(tag + H, d, (h * p.xParts + k) * cells, std::nullopt, y.half);
      parts.push_back(copied || p.xParts > 1 ? b.dma(tag + "c" + H, v, y.half) : v);
    }
    halves.push_back(joinedHalf(b, p, y, parts, h));
  }
  return halves;
}

// What the three builders share: the shape (its MLP padded, decoderShape), the plan, the
// axes and types, and the header's description of both.
struct Setup {
  Qwen3Shape s;
  DecoderPlan p;
  DecoderAxes ax;
  DecoderTypes y;
};

llvm::Expected<Setup> setUp(StageBuilder &b, const Qwen3Shape &given, int64_t T,
                            bool fused = false) {
  llvm::Expected<Qwen3Shape> shape = decoderShape(given, b.target());
  if (!shape)
    return shape.takeError();
  llvm::Expected<DecoderPlan> plan = planPrefillDecoder(*shape, b.target(), T);
  if (!plan)
    return plan.takeError();
  Setup u{*shape, *plan, {}, {}};
  u.p.weightHalves = fused && u.p.passes == 1 && u.p.xParts == 1 && !u.p.split &&
                     u.p.pairRows % 2 == 0 && u.p.u >= kWeightHalvesTokens;
  u.ax = declareAxes(b, u.s, u.p, T);
  u.y = declareTypes(b, u.s, u.p, u.ax, T);
  describeDecoder(b, u.s, u.p, T, u.y.xLayout);
  describePadding(b, given, u.s);
  return u;
}

// A fused stage's a: y.adm spelt over the attention part's axes (`splits`), the type a's DM to
// DM copy writes before it is read as y.adm.
llvm::Expected<mlir::Type> handOffType(StageBuilder &b, const mapping::AxisSplits &splits,
                                       mlir::Type adm) {
  auto dm = llvm::cast<tcp::DmType>(adm);
  const mapping::AxisEnv env = b.axisEnv();
  std::vector<Expr> levels;
  for (tcp::MappingAttr m : {dm.getCluster(), dm.getSlice(), dm.getElem()}) {
    mapping::Error err;
    std::optional<mapping::Mapping> resolved = mapping::Mapping::resolve(m.getSyntax(), env, err);
    std::optional<Expr> split = resolved ? mapping::splitAxes(*resolved, splits) : std::nullopt;
    if (!split)
      return placementError(kStage, "a handed over in DM",
                            "a's mapping `" + m.getText() +
                                "` has no spelling over the attention's axes");
    levels.push_back(*split);
  }
  return b.dmOuter("adec", dm.getElementType(), levels[0], levels[1], levels[2]);
}

} // namespace

llvm::Error buildPrefillDecoder(StageBuilder &b, const Qwen3Shape &given, int64_t T) {
  return buildPrefillDecoderAfter(b, given, T, mlir::Value(), {});
}

bool prefillDecoderTakesAInDm(const Qwen3Shape &given, const TargetModel &t, int64_t T) {
  llvm::Expected<Qwen3Shape> shape = decoderShape(given, t);
  if (!shape) {
    llvm::consumeError(shape.takeError());
    return false;
  }
  llvm::Expected<DecoderPlan> plan = planPrefillDecoder(*shape, t, T);
  if (!plan) {
    llvm::consumeError(plan.takeError());
    return false;
  }
  return plan->oPasses == 1 && !plan->split;
}

llvm::Error buildPrefillDecoderAfter(StageBuilder &b, const Qwen3Shape &given, int64_t T,
                                     mlir::Value attnDm, const mapping::AxisSplits &attnAxes) {
  llvm::Expected<Setup> u = setUp(b, given, T, bool(attnDm));
  if (!u)
    return u.takeError();
  const Qwen3Shape &s = u->s;
  const DecoderPlan &p = u->p;
  const DecoderAxes &ax = u->ax;
  DecoderTypes &y = u->y;
  describeSplits(b, p);
  DecoderArgs a;
  if (attnDm) {
    if (p.oPasses > 1 || p.split)
      return placementError(kStage, "a handed over in DM",
                            "o_proj reads a in " + num(p.oPasses) + " passes" +
                                (p.split ? ", split over the clusters" : "") +
                                "; a hand-off needs one pass over the whole of a");
    llvm::Expected<mlir::Type> adec = handOffType(b, attnAxes, y.adm);
    if (!adec)
      return adec.takeError();
    y.adec = *adec;
    a.attnDm = attnDm;
  } else {
    a.attn = b.input("attn", y.ah);
  }
  a.x = b.input("x", y.x);
  a.oWeight = b.input("o_weight", y.ow);
  a.normWeight = b.input("post_rms_weight", y.vec);
  a.gateWeight = b.input("gate_weight", y.lw);
  a.upWeight = b.input("up_weight", y.lw);
  a.downWeight = b.input("down_weight", y.dw);
  a.y = b.output("y", y.x);
  std::vector<Value> r;
  const std::vector<Value> hn = residualAndNorm(b, s, p, y, a, r);
  mlpAndOutput(b, p, ax, y, a, hn, r);
  return llvm::Error::success();
}

llvm::Error buildPrefillDecoderOut(StageBuilder &b, const Qwen3Shape &given, int64_t T) {
  llvm::Expected<Setup> u = setUp(b, given, T);
  if (!u)
    return u.takeError();
  const DecoderPlan &p = u->p;
  const DecoderAxes &ax = u->ax;
  const DecoderTypes &y = u->y;
  b.describe(wrapLines("\n`prefill_decoder_out` is the first part on one chip of a tensor-"
                       "parallel group: y = bf16(x + W_o a) for the chip's heads (o_proj and the "
                       "residual above, nothing after); the chips' y are summed, x given to one "
                       "chip only."));
  DecoderArgs a;
  a.attn = b.input("attn", y.ah);
  a.x = b.input("x", y.x);
  a.oWeight = b.input("o_weight", y.ow);
  a.y = b.output("y", y.x);
  // r of each half of each part of x, in x's order (half, then part), joined as x's tensor.
  OProj o;
  std::vector<Value> ads, r(size_t(p.halves * p.xParts));
  for (int64_t k = 0; k < p.xParts; ++k) {
    oProj(b, p, y, a, k, ads, o);
    if (k == 0)
      o.x = b.dma("xd", b.view("xv", a.x, 0, y.xv), y.xj);
    for (int64_t h = 0; h < p.halves; ++h)
      r[size_t(h * p.xParts + k)] = residualHalf(b, p, y, o, h, k);
  }
  const Expr xs = Expr::pair({ax.kg, ax.hx / p.rowsPerSlice});
  Value whole = r.size() == 1
                    ? r[0]
                    : b.dmJoin("rj", r,
                               b.dm("rall", b.bf16(), ax.kcl, xs,
                                    Expr::pair({b.axis("KHP", int64_t(r.size())), ax.u,
                                                ax.hx % p.rowsPerSlice})));
  b.dmaInto(b.reinterpret("rx", whole, y.xj), b.view("yv", a.y, 0, y.xv));
  return llvm::Error::success();
}

llvm::Error buildPrefillDecoderMlp(StageBuilder &b, const Qwen3Shape &given, int64_t T) {
  llvm::Expected<Setup> u = setUp(b, given, T);
  if (!u)
    return u.takeError();
  const Qwen3Shape &s = u->s;
  const DecoderPlan &p = u->p;
  const DecoderAxes &ax = u->ax;
  const DecoderTypes &y = u->y;
  b.describe(wrapLines("\n`prefill_decoder_mlp` is the second part on one chip of a tensor-"
                       "parallel group: h = RMSNorm(r) of the summed r, then y = bf16(x + "
                       "W_down(silu(W_gate h) * W_up h)) for the chip's block of L; the chips' y "
                       "are summed, x (r) given to one chip only."));
  DecoderArgs a;
  Value rIn = b.input("r", y.x);
  a.x = b.input("x", y.x);
  a.normWeight = b.input("post_rms_weight", y.vec);
  a.gateWeight = b.input("gate_weight", y.lw);
  a.upWeight = b.input("up_weight", y.lw);
  a.downWeight = b.input("down_weight", y.dw);
  a.y = b.output("y", y.x);
  OProj o;
  o.normWeight = normWeightVrf(b, y, a);
  const std::vector<Value> rh = loadHalves(b, p, y, rIn, "r", false);
  const std::vector<Value> xh = loadHalves(b, p, y, a.x, "x", true);
  std::vector<Value> hn;
  for (int64_t h = 0; h < p.halves; ++h)
    hn.push_back(normHalf(b, s, y, o, rh[size_t(h)], h));
  mlpAndOutput(b, p, ax, y, a, hn, xh);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
