// `prefill_decoder`: the rest of a layer after attention for a block of T tokens: o_proj and the
// residual, RMSNorm, silu(gate) x up, down and the residual. Weight-stationary contractions (each
// weight on one slice of each cluster in use), the activations broadcast around rings
// (kernels/qwen3/prefill_decoder.mlir was the hand-placed original; docs/prefill.md).
#include "compiler/placement/qwen3/PrefillDecoderTypes.h"
#include "compiler/placement/qwen3/Stages.h"

#include <cstdio>
#include <optional>
#include <string>

namespace rngd::placement::qwen3 {

namespace {

using namespace prefill_decoder;
using mlir::Type;
using mlir::Value;
using tcp::Context;

constexpr const char *kStage = "prefill_decoder";

std::string num(int64_t n) { return std::to_string(n); }

struct DecoderArgs {
  Value attn, x, oWeight, normWeight, gateWeight, upWeight, downWeight, y;
};

std::string idx(int64_t a) { return num(a); }
std::string idx(int64_t a, int64_t b) { return num(a) + num(b); }

// o_proj's partial sums per K block for all the tokens (one tensor a pass over Q), x's view
// and the norm weight.
struct OProj {
  std::vector<Value> part;
  Value x, normWeight;
};

// The names' tag of o_proj pass `c` (none when there is one pass).
std::string oPassTag(const DecoderPlan &p, int64_t c) {
  return p.oPasses > 1 && !p.split ? "q" + num(c) : "";
}

// The passes run one after the other (with the weights split over the clusters, at once: one
// op a step, each cluster its pass).
int64_t oPassRuns(const DecoderPlan &p) { return p.split ? 1 : p.oPasses; }
int64_t passRuns(const DecoderPlan &p) { return p.split ? p.passes / p.clusters : p.passes; }

OProj oProj(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, const DecoderArgs &a) {
  OProj o;
  for (int64_t c = 0; c < oPassRuns(p); ++c) {
    const std::string P = oPassTag(p, c);
    Value ow = a.oWeight, attn = a.attn;
    if (p.oPasses > 1) { // (split: c = 0, both passes' views)
      ow = b.view("owv" + P, ow, c * p.qPass, y.owp);
      attn = b.view("av" + P, attn, c * p.qPass * (p.perCluster * p.used), y.ahp);
    }
    Value owd = b.dma("owd" + P, ow, y.owdm);
    Value ow1 = b.fetch("ow1" + P, Context::main, owd, y.owload);
    Value ow2 = b.collect("ow2" + P, ow1);
    Value owt = b.toTrf("owt" + P, ow2, y.owtrf);
    Value ad = b.dma("ad" + P, attn, y.adm);
    Value aa1 = b.fetch("aa1" + P, Context::main, ad, y.af);
    Value aa2 = b.switchOp("aa2" + P, tcp::SwitchMode::broadcast1, aa1, y.as);
    Value aa3 = b.collect("aa3" + P, aa2);
    Value oa = b.contract("oa" + P, aa3, owt, kTimeBroadcastRows, y.oacc);
    o.part.push_back(b.commit("op" + P, oa, y.part));
  }
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
  std::vector<Value> blocks; // K order: pass c's groups blocks after pass c - 1's
  const int64_t perPart = p.groups * (p.split ? p.clusters : 1); // blocks of a pass's op
  for (int64_t c = 0; c < oPassRuns(p); ++c) {
    const std::string P = oPassTag(p, c);
    Value oph = b.dmView("op" + H + P, o.part[size_t(c)], h * cells, std::nullopt, y.parth);
    Value ops = b.dma("ops" + H + P, oph, y.parts);
    for (int64_t k = 0; k < perPart; ++k)
      blocks.push_back(b.dmView("o" + idx(h, c * perPart + k), ops, k * cells, std::nullopt,
                                y.one));
  }
  const int64_t n = int64_t(blocks.size());
  Value sum = blocks[0];
  for (int64_t k = 1; k < n; ++k) {
    Value c = addThroughVrf(b, idx(h, k), blocks[size_t(k)], sum, y.ones, y.onevrf);
    sum = b.commit("os" + idx(h, k), c, y.one);
  }
  Value xh = b.dmView("x" + H, o.x, h * cells, std::nullopt, y.half);
  Value c = addThroughVrf(b, idx(h, n), xh, sum, y.ones, y.onevrf);
  Value cb = b.cast("oc" + idx(h, n) + "d", c, y.onesb);
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
std::string passTag(const DecoderPlan &p, int64_t c) {
  return passRuns(p) > 1 ? "p" + num(c) : "";
}

// Pass c's gate and up rows into the TRF (a view of pass c's rows when there are several).
Value gateUpWeights(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                    const DecoderArgs &a, int64_t c) {
  const std::string P = passTag(p, c);
  Value gw = a.gateWeight, uw = a.upWeight;
  if (p.passes > 1) { // (split: c = 0, both passes' views)
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
  if (p.hParts > 1) {
    // The parts' sums gathered onto part 0's slices and added in part order.
    const int64_t cells = p.groups * p.u * p.pairRows * 2;
    Value gps = b.dma("gps" + H, gr, y.gparts);
    Value sum = b.dmView("gq" + H + "0", gps, 0, std::nullopt, y.gone);
    for (int64_t k = 1; k < p.hParts; ++k) {
      const std::string K = H + "h" + num(k);
      Value part = b.dmView("gq" + K, gps, k * cells, std::nullopt, y.gone);
      Value c = addThroughVrf(b, K, part, sum, y.gones, y.gonevrf);
      sum = b.commit("gs" + K, c, y.gone);
    }
    gr = sum;
  }
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
  const int64_t perPart = p.dBlocks * (p.split ? p.clusters : 1); // blocks of a pass's dps
  Value pq = b.dmView("pq" + Q, ph, j * pCells, std::nullopt, y.pq);
  Value pd = b.dma("pd" + Q, pq, y.ddm);
  Value da = b.fetch("dd" + Q + "a", Context::main, pd, y.df);
  Value db = b.switchOp("dd" + Q + "b", tcp::SwitchMode::broadcast1, da, y.ds);
  Value dc = b.collect("dd" + Q + "c", db);
  Value acc = b.contract("da" + Q, dc, dwt, kTimeBroadcastRows, y.dacc);
  Value dp = b.commit("dp" + Q, acc, y.dpart);
  Value dps = b.dma("dps" + Q, dp, y.dparts);
  for (int64_t k = 0; k < perPart; ++k)
    blocks.push_back(b.dmView("e" + idx(h, j) + num(c * perPart + k) + passTag(p, c), dps,
                              k * cells, std::nullopt, y.qone));
}

// down's blocks, appended pass by pass (with the weights split over the clusters each pass's
// blocks cluster by cluster), in L order: cluster c's passes (the c-th run of L) after c - 1's.
std::vector<Value> inLOrder(const DecoderPlan &p, const std::vector<Value> &blocks) {
  if (!p.split)
    return blocks;
  const int64_t runs = passRuns(p);
  std::vector<Value> ordered;
  for (int64_t cl = 0; cl < p.clusters; ++cl)
    for (int64_t c = 0; c < runs; ++c)
      for (int64_t k = 0; k < p.dBlocks; ++k)
        ordered.push_back(blocks[size_t((c * p.clusters + cl) * p.dBlocks + k)]);
  return ordered;
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

// The header's first sentences: where the tokens and the weights go.
std::string placementLead(const DecoderPlan &p) {
  if (p.split)
    return "Placement: all " + num(p.perCluster) + " tokens on each of the " + num(p.clusters) +
           " clusters, the weights split over them (a block this small is bound by the weights' "
           "DMAs, so each is read from HBM once): cluster c runs o_proj's pass c over Q and the "
           "MLP's pass c over L (the passes below), each weight on one slice of its cluster, used "
           "by all the tokens while it sits in the TRF; the partial sums are gathered onto every "
           "cluster, which each add them, normalise and add the residual alike.";
  return "Placement: tokens split over " + num(p.used) + " of the " + num(p.clusters) +
         " clusters (" + num(p.perCluster) + " each" +
         (p.used < p.clusters ? "; a block this small is bound by the weights' DMAs, which every "
                                "cluster in use repeats"
                              : "") +
         "); each weight on one slice of each cluster in use, used by all its tokens while it "
         "sits in the TRF.";
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
      placementLead(p) + " After o_proj, the work runs in " +
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
                          (p.split ? " values of L (" + num(p.passes / p.clusters) +
                                         " on each cluster, in turn). gate/up: "
                                   : " values of L (each pass's weights in the TRF in turn). "
                                     "gate/up: ") +
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
      "gathered and added like o_proj's, plus r.\n" +
      (p.split ? "Each token's sums are added in the order above, which with the weights split over "
                 "the clusters (o_proj's and the MLP's passes) differs from a larger block's: its "
                 "bits may differ from a larger block's in the last place.\n"
               : "Each token's sums are added in the same order whatever T is, so its bits are the "
                 "same.\n") +
      "Rounding points: r, h, p and y are bf16; the contraction sums, the partial sums' "
      "additions, the norm and silu(g) u are f32."));
}

// The header's paragraph on what a large shape splits further (none for a shape that needs
// none of it): o_proj's passes over Q, gate/up's parts of H, down's one flit a slice.
void describeSplits(StageBuilder &b, const DecoderPlan &p) {
  std::string text;
  if (p.oPasses > 1)
    text += "o_proj runs in " + num(p.oPasses) + " passes over Q of " + num(p.qPass) +
            (p.split ? " values (one a cluster); r adds the "
                     : " values (each pass's K blocks loaded into the TRF once the previous pass "
                       "has read its own); r adds the ") +
            num(p.oPasses * p.groups) + " blocks' partial sums in K order, then x. ";
  if (p.split)
    text += "down's " + num(p.passes * p.dBlocks) +
            " K blocks' partial sums (a cluster's blocks, then the next one's) are added in L "
            "order, then r. ";
  if (p.hParts > 1)
    text += "gate/up's K (h) is in " + num(p.hParts) + " parts of " + num(p.hPart) +
            " values, part k's rows on the k-th run of " + num(p.partSlices) +
            " slices, h's broadcast keeping each part on its run; the parts' f32 sums are "
            "gathered onto part 0's slices and added in part order before silu(g) u. ";
  if (p.dValues == p.flit)
    text += "down's ring holds one flit of a token a slice: its K block is contracted in L "
            "order, [L % " +
            num(p.dBlock) + " / " + num(p.flit) + ", L % " + num(p.flit) + "]. ";
  if (p.groups % p.dSplit)
    text += "x's slices are one token group, so the " + num(p.dSplit) +
            " slices of down's ring beyond a block split a quarter's " + num(p.uq) + " tokens. ";
  if (!text.empty())
    b.describe(wrapHeader("Splits for this shape: " + text.substr(0, text.size() - 1)));
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
  describeSplits(b, p);
  DecoderArgs a;
  a.attn = b.input("attn", y.ah);
  a.x = b.input("x", y.x);
  a.oWeight = b.input("o_weight", y.ow);
  a.normWeight = b.input("post_rms_weight", y.vec);
  a.gateWeight = b.input("gate_weight", y.lw);
  a.upWeight = b.input("up_weight", y.lw);
  a.downWeight = b.input("down_weight", y.dw);
  a.y = b.output("y", y.x);
  OProj o = oProj(b, p, y, a);
  std::vector<Value> r, hn, ph, out;
  for (int64_t h = 0; h < p.halves; ++h) {
    r.push_back(residualHalf(b, p, y, o, h));
    hn.push_back(normHalf(b, s, y, o, r.back(), h));
  }
  std::vector<std::vector<Value>> blocks(size_t(p.halves * p.quarters));
  const int64_t runs = passRuns(p);
  for (int64_t c = 0; c < passRuns(p); ++c) {
    ph.clear();
    Value gut = gateUpWeights(b, p, y, a, c);
    for (int64_t h = 0; h < p.halves; ++h)
      ph.push_back(gateUpHalf(b, p, y, hn[size_t(h)], gut, h, c));
    Value dwt = downWeights(b, p, y, a, c);
    for (int64_t h = 0; h < p.halves; ++h)
      for (int64_t j = 0; j < p.quarters; ++j) {
        std::vector<Value> &bl = blocks[size_t(h * p.quarters + j)];
        downPartials(b, p, y, ph[size_t(h)], dwt, h, j, c, bl);
        if (c + 1 == runs)
          out.push_back(downSum(b, p, y, inLOrder(p, bl), r[size_t(h)], h, j));
      }
  }
  Value yq = out.size() > 1 ? b.dmJoin("yq", out, y.yq) : out[0];
  Value yv = b.view("yv", a.y, 0, y.yv);
  b.dmaInto(yq, yv);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
