// `prefill_decoder`: the rest of a layer after attention for a block of T tokens: o_proj and the
// residual, RMSNorm, silu(gate) x up, down and the residual. Weight-stationary contractions (each
// weight on one slice of each cluster in use), the activations broadcast around rings
// (kernels/qwen3/prefill_decoder.mlir was the hand-placed original; docs/prefill.md).
#include "compiler/placement/qwen3/PrefillDecoderText.h"
#include "compiler/placement/qwen3/PrefillDecoderTypes.h"
#include "compiler/placement/qwen3/Stages.h"

#include <optional>
#include <string>

namespace rngd::placement::qwen3 {

namespace {

using namespace prefill_decoder;
using mlir::Type;
using mlir::Value;
using tcp::Context;

constexpr const char *kStage = "prefill_decoder";

struct DecoderArgs {
  Value attn, x, oWeight, normWeight, gateWeight, upWeight, downWeight, y;
};

std::string idx(int64_t a) { return num(a); }
std::string idx(int64_t a, int64_t b) { return num(a) + num(b); }

// o_proj's partial sums per K block for all the tokens (one tensor a pass over Q, the passes
// of x's part k after part k - 1's), x's view and the norm weight.
struct OProj {
  std::vector<Value> part;
  Value x, normWeight;
};

// The names' tag of x's part `k` (none when x is one part).
std::string xTag(const DecoderPlan &p, int64_t k) { return p.xParts > 1 ? "x" + num(k) : ""; }

// The passes run one after the other (with the weights split over the clusters, a cluster's
// run at once: one op a step, each cluster its pass).
int64_t oPassRuns(const DecoderPlan &p) { return p.split ? p.oPasses / p.clusters : p.oPasses; }

// The names' tag of o_proj's c-th op (none when there is one).
std::string oPassTag(const DecoderPlan &p, int64_t c) {
  return oPassRuns(p) > 1 ? "q" + num(c) : "";
}
int64_t passRuns(const DecoderPlan &p) { return p.split ? p.passes / p.clusters : p.passes; }

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
      ads.push_back(b.dma("ad" + P, attn, y.adm));
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

// The names' tag of MLP pass `c` (none when there is one pass).
std::string passTag(const DecoderPlan &p, int64_t c) {
  return passRuns(p) > 1 ? "p" + num(c) : "";
}

// The context that loads rows into the TRF: sub for up's and down's when the plan says so
// (upOnSub, downOnSub: with gate and up apart each lands in a half of the TRF that the
// contraction running then does not read, and the sub context's slower reads hide beside it).
Context loadContext(bool onSub) { return onSub ? Context::sub : Context::main; }

// gate's and up's rows in the TRF, or their sums: one tensor of both, or with gateUpApart one
// each (`up` is none when together).
struct GateUp {
  Value gate, up;
};

// Pass c's gate and up rows of x's part k into the TRF (a view of them when there are several
// passes or parts). Apart, gate's rows take the TRF's second half, so that they load while
// o_proj's rows still hold the first.
GateUp gateUpWeights(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                     const DecoderArgs &a, int64_t c, int64_t k) {
  const std::string P = passTag(p, c) + xTag(p, k);
  Value gw = a.gateWeight, uw = a.upWeight;
  if (p.passes > 1 || p.xParts > 1) { // (split: c = 0, both passes' views)
    const int64_t offset = c * p.passStep * (p.hx * p.xParts) + k * p.hx;
    gw = b.view("gv" + P, gw, offset, y.lwp);
    uw = b.view("uv" + P, uw, offset, y.lwp);
  }
  Value gd = b.dma("gd" + P, gw, y.guh);
  Value ud = b.dma("ud" + P, uw, y.guh);
  auto load = [&](const std::string &name, Value rows, Context context, llvm::StringRef region) {
    Value s1 = b.fetch(name + "1" + P, context, rows, y.guload);
    Value s2 = b.collect(name + "2" + P, s1);
    return b.toTrf(name + "t" + P, s2, y.gutrf, region);
  };
  if (p.gateUpApart)
    return {load("g", gd, Context::main, "second"), load("u", ud, loadContext(p.upOnSub), "first")};
  return {load("gu", b.dmJoin("gud" + P, {gd, ud}, y.gudm), Context::main, {}), Value()};
}

// gate/up's f32 sums for a half of pass c over x's part k (the part's h broadcast around the
// whole cluster, once for each TRF tensor); with gate/up's K in parts of its own, their sums
// added in part order.
GateUp gateUpSums(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value hn,
                  const GateUp &rows, int64_t h, int64_t pass, int64_t k) {
  const std::string H = idx(h) + passTag(p, pass) + xTag(p, k);
  if (p.xParts > 1)
    hn = b.dmView("hv" + H, hn, k * p.u * p.rowsPerSlice, std::nullopt, y.half);
  auto sums = [&](const std::string &name, Value trf) {
    Value ba = b.fetch("hb" + name + "a", Context::main, hn, y.xf);
    Value bb = b.switchOp("hb" + name + "b", tcp::SwitchMode::broadcast1, ba, y.xn);
    Value bc = b.collect("hb" + name + "c", bb);
    Value ga = b.contract("ga" + name, bc, trf, kTimeBroadcastRows, y.guacc);
    return b.commit("gr" + name, ga, y.gures);
  };
  if (p.gateUpApart)
    return {sums(H + "g", rows.gate), sums(H + "u", rows.up)};
  Value gr = sums(H, rows.gate);
  if (p.hParts == 1)
    return {gr, Value()};
  // The parts' sums gathered onto part 0's slices and added in part order.
  const int64_t cells = p.groups * p.u * p.pairRows * 2;
  Value gps = b.dma("gps" + H, gr, y.gparts);
  Value sum = b.dmView("gq" + H + "0", gps, 0, std::nullopt, y.gone);
  for (int64_t j = 1; j < p.hParts; ++j) {
    const std::string K = H + "h" + num(j);
    Value part = b.dmView("gq" + K, gps, j * cells, std::nullopt, y.gone);
    Value c = addThroughVrf(b, K, part, sum, y.gones, y.gonevrf);
    sum = b.commit("gs" + K, c, y.gone);
  }
  return {sum, Value()};
}

// The sums of x's parts before k plus part k's (f32, in part order), through the VRF whole or
// in chunks of the half's token rows, joined.
Value addXPart(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value sum,
               Value part, int64_t h, int64_t pass, int64_t k) {
  const std::string K = "g" + idx(h) + passTag(p, pass) + xTag(p, k);
  if (p.sumChunks == 1)
    return b.commit("gs" + K, addThroughVrf(b, K, part, sum, y.gones, y.gonevrf), y.gone);
  const int64_t cells = p.groups * p.u * p.pairRows * 2 / p.sumChunks;
  std::vector<Value> chunks;
  for (int64_t c = 0; c < p.sumChunks; ++c) {
    const std::string C = K + "c" + num(c);
    Value pv = b.dmView("gp" + C, part, c * cells, std::nullopt, y.gchunk);
    Value sv = b.dmView("gc" + C, sum, c * cells, std::nullopt, y.gchunk);
    chunks.push_back(
        b.commit("gs" + C, addThroughVrf(b, C, pv, sv, y.gchunks, y.gchunkvrf), y.gchunk));
  }
  return b.reinterpret("gs" + K, b.dmJoin("gj" + K, chunks, y.gchunkj), y.gone);
}

// p = bf16(silu(g) u) for a half of pass c, per chunk of the half's tokens, g and u through
// views a lane's width apart.
Value siluHalf(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, const GateUp &sums,
               int64_t h, int64_t pass) {
  const std::string H = idx(h) + passTag(p, pass);
  // A chunk's cells of g (and apart, of u; together, of both).
  const int64_t chunkCells = p.groups / p.siluChunks * p.u * p.pairRows * (p.gateUpApart ? 1 : 2);
  Value gs = sums.gate, us = p.gateUpApart ? sums.up : sums.gate;
  const int64_t uAt = p.gateUpApart ? 0 : p.lanes; // u's first cell in `us`'s chunk
  std::vector<Value> chunks;
  for (int64_t c = 0; c < p.siluChunks; ++c) {
    const std::string C = idx(h, c) + passTag(p, pass);
    Value gv = b.dmView("g" + C + "a", gs, c * chunkCells, std::nullopt, y.gview);
    Value uv = b.dmView("u" + C + "a", us, c * chunkCells + uAt, std::nullopt, y.gview);
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

// Pass c's down rows of x's part k into the TRF (a view of them when there are several
// passes or parts).
Value downWeights(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                  const DecoderArgs &a, int64_t c, int64_t k) {
  const std::string P = passTag(p, c) + xTag(p, k);
  const int64_t offset = k * p.hx * p.intermediate + c * p.passStep;
  Value w = p.passes > 1 || p.xParts > 1 ? b.view("dv" + P, a.downWeight, offset, y.dwp)
                                         : a.downWeight;
  Value dwd = b.dma("dwd" + P, w, y.dwdm);
  Value dw1 = b.fetch("dw1" + P, loadContext(p.downOnSub), dwd, y.dwload);
  Value dw2 = b.collect("dw2" + P, dw1);
  return b.toTrf("dwt" + P, dw2, y.dwtrf);
}

// p of a quarter of pass c laid out for down's rings (once for all of x's parts).
Value downInput(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value ph,
                int64_t h, int64_t j, int64_t c) {
  const std::string Q = idx(h, j) + passTag(p, c);
  Value pq = b.dmView("pq" + Q, ph, j * p.uq * p.pairRows, std::nullopt, y.pq);
  return b.dma("pd" + Q, pq, y.ddm);
}

// down for a quarter of pass c over x's part k's rows: the partial sums per K block gathered
// onto x's slices (appended to `blocks`).
void downPartials(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value pd,
                  Value dwt, int64_t h, int64_t j, int64_t c, int64_t k,
                  std::vector<Value> &blocks) {
  const std::string Q = idx(h, j) + passTag(p, c) + xTag(p, k);
  const int64_t cells = p.uq * p.rowsPerSlice;
  const int64_t perPart = p.dBlocks * (p.split ? p.clusters : 1); // blocks of a pass's dps
  Value da = b.fetch("dd" + Q + "a", Context::main, pd, y.df);
  Value db = b.switchOp("dd" + Q + "b", tcp::SwitchMode::broadcast1, da, y.ds);
  Value dc = b.collect("dd" + Q + "c", db);
  Value acc = b.contract("da" + Q, dc, dwt, kTimeBroadcastRows, y.dacc);
  Value dp = b.commit("dp" + Q, acc, y.dpart);
  Value dps = y.dparts == y.dpart ? dp : b.dma("dps" + Q, dp, y.dparts);
  for (int64_t i = 0; i < perPart; ++i)
    blocks.push_back(b.dmView("e" + idx(h, j) + num(c * perPart + i) + passTag(p, c) +
                                  xTag(p, k),
                              dps, i * cells, std::nullopt, y.qone));
}

// acc + addend (down's f32 sums) through the VRF, not yet committed.
Value downAdd(StageBuilder &b, const DecoderTypes &y, const std::string &tag, Value addend,
              Value acc) {
  Value fa = b.fetch("f" + tag + "a", Context::main, addend, y.qones);
  Value fb = b.collect("f" + tag + "b", fa);
  Value fv = b.toVrf("f" + tag + "v", fb, y.qonevrf);
  Value ka = b.fetch("k" + tag + "a", Context::main, acc, y.qones);
  Value kb = b.collect("k" + tag + "b", ka);
  return b.vector("k" + tag + "c", kb, {Step::vrfOf("add_f", fv)});
}

// The running sum ((d0 + d1) + ...) of a quarter's down blocks, those from `from` on added to
// `sum` (blocks[0] itself when from is 0).
Value addDownBlocks(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                    const std::vector<Value> &blocks, int64_t from, Value sum, int64_t h,
                    int64_t j, int64_t part) {
  const std::string Q = idx(h, j) + xTag(p, part);
  if (from == 0)
    sum = blocks[0], from = 1;
  for (int64_t k = from; k < int64_t(blocks.size()); ++k)
    sum = b.commit("ks" + Q + num(k), downAdd(b, y, Q + num(k), blocks[size_t(k)], sum), y.qone);
  return sum;
}

// y = bf16(((d0 + d1) + ...) + r) for a quarter, the blocks in L order (those before `from`
// already in `sum`).
Value downSum(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
              const std::vector<Value> &blocks, Value r, int64_t h, int64_t j, int64_t part,
              int64_t from = 0, Value sum = {}) {
  const std::string Q = idx(h, j) + xTag(p, part);
  const int64_t cells = p.uq * p.rowsPerSlice, n = int64_t(blocks.size());
  sum = addDownBlocks(b, p, y, blocks, from, sum, h, j, part);
  Value rq = b.dmView("rq" + Q, r, part * p.u * p.rowsPerSlice + j * cells, std::nullopt,
                      y.rquarter);
  if (sumsByTokenGroup(p)) // r on every cluster: each cluster's groups onto its sums' slices
    rq = b.dma("rqd" + Q, rq, y.quarter);
  Value last = downAdd(b, y, Q + num(n), rq, sum);
  Value cast = b.cast("k" + Q + num(n) + "d", last, y.qonesb);
  return b.commit("y" + Q, cast, y.quarter);
}

// gate/up for pass c, x's parts in turn (each part's rows in the TRF by themselves), their
// sums added in part order, then p = silu(g) u: p of each half.
std::vector<Value> gateUpPass(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
                              const DecoderArgs &a, const std::vector<Value> &hn, int64_t c) {
  std::vector<GateUp> sums(size_t(p.halves));
  std::vector<Value> ph(size_t(p.halves));
  for (int64_t k = 0; k < p.xParts; ++k) {
    const GateUp rows = gateUpWeights(b, p, y, a, c, k);
    for (int64_t h = 0; h < p.halves; ++h) {
      const GateUp g = gateUpSums(b, p, y, hn[size_t(h)], rows, h, c, k);
      sums[size_t(h)] =
          k == 0 ? g : GateUp{addXPart(b, p, y, sums[size_t(h)].gate, g.gate, h, c, k), Value()};
      if (k + 1 == p.xParts)
        ph[size_t(h)] = siluHalf(b, p, y, sums[size_t(h)], h, c);
    }
  }
  return ph;
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

// The plan and types of the MLP's passes, and of a shorter last one.
struct Passes {
  const DecoderPlan &plan;
  const DecoderTypes &types;
  DecoderPlan tailPlan;
  DecoderTypes tailTypes;
};

// The MLP pass by pass over L, down over x's parts in turn: y's pieces in [half, quarter,
// part] order.
std::vector<Value> mlp(StageBuilder &b, const Passes &passes, const DecoderArgs &a,
                       const std::vector<Value> &hn, const std::vector<Value> &r) {
  const DecoderPlan &p0 = passes.plan;
  std::vector<std::vector<Value>> blocks(size_t(p0.halves * p0.quarters * p0.xParts));
  std::vector<Value> out(blocks.size()), sums(blocks.size());
  std::vector<int64_t> added(blocks.size(), 0); // blocks already in sums (x's parts)
  const int64_t runs = passRuns(p0);
  std::vector<int64_t> dBlocks; // each pass's K blocks of down (a cluster's)
  for (int64_t c = 0; c < runs; ++c) {
    const bool tail = p0.tail && c + 1 == runs; // a shorter last pass: its own plan and types
    const DecoderPlan &p = tail ? passes.tailPlan : p0;
    const DecoderTypes &y = tail ? passes.tailTypes : passes.types;
    dBlocks.push_back(p.dBlocks);
    const std::vector<Value> ph = gateUpPass(b, p, y, a, hn, c);
    std::vector<Value> pd;
    for (int64_t k = 0; k < p.xParts; ++k) {
      Value dwt = downWeights(b, p, y, a, c, k);
      for (int64_t h = 0; h < p.halves; ++h)
        for (int64_t j = 0; j < p.quarters; ++j) {
          const int64_t q = h * p.quarters + j, i = q * p.xParts + k;
          if (k == 0)
            pd.push_back(downInput(b, p, y, ph[size_t(h)], h, j, c));
          std::vector<Value> &bl = blocks[size_t(i)];
          downPartials(b, p, y, pd[size_t(q)], dwt, h, j, c, k, bl);
          if (c + 1 == runs)
            out[size_t(i)] = downSum(b, p, y, byCluster(p, dBlocks, bl), r[size_t(h)], h, j, k,
                                     added[size_t(i)], sums[size_t(i)]);
          else if (p.xParts > 1 && !p.split) { // (x's parts: the pass's blocks added now,
                                               // freeing them; split: L order ends with the last)
            sums[size_t(i)] =
                addDownBlocks(b, p, y, bl, added[size_t(i)], sums[size_t(i)], h, j, k);
            added[size_t(i)] = int64_t(bl.size());
          }
        }
    }
  }
  return out;
}

} // namespace

namespace {

// The MLP over the normalised halves `hn` with the residual halves `r`, then y: the down sums'
// quarters joined and written over y's first bytes.
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

llvm::Expected<Setup> setUp(StageBuilder &b, const Qwen3Shape &given, int64_t T) {
  llvm::Expected<Qwen3Shape> shape = decoderShape(given, b.target());
  if (!shape)
    return shape.takeError();
  llvm::Expected<DecoderPlan> plan = planPrefillDecoder(*shape, b.target(), T);
  if (!plan)
    return plan.takeError();
  Setup u{*shape, *plan, {}, {}};
  u.ax = declareAxes(b, u.s, u.p, T);
  u.y = declareTypes(b, u.s, u.p, u.ax, T);
  describeDecoder(b, u.s, u.p, T, u.y.xLayout);
  describePadding(b, given, u.s);
  return u;
}

} // namespace

llvm::Error buildPrefillDecoder(StageBuilder &b, const Qwen3Shape &given, int64_t T) {
  llvm::Expected<Setup> u = setUp(b, given, T);
  if (!u)
    return u.takeError();
  const Qwen3Shape &s = u->s;
  const DecoderPlan &p = u->p;
  const DecoderAxes &ax = u->ax;
  const DecoderTypes &y = u->y;
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
