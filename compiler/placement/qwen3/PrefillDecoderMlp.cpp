// prefill_decoder's MLP: gate/up (gate's rows and up's together or apart), p = silu(g) u, down
// and its partial sums plus the residual, pass by pass over L (PrefillDecoderSteps.h).
#include "compiler/placement/qwen3/PrefillDecoderSteps.h"

#include <optional>
#include <string>

namespace rngd::placement::qwen3::prefill_decoder {

using mlir::Type;
using mlir::Value;
using tcp::Context;

namespace {

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
  // The rows into DM: in one DMA, or with weightHalves in two read as one tensor.
  auto rows = [&](const std::string &name, Value w) {
    if (!p.weightHalves)
      return b.dma(name + P, w, y.guh);
    const int64_t half = p.pairRows / 2 * p.hx; // (x in one part: hx = H)
    Value h0 = b.dma(name + "0" + P, b.view(name + "v0" + P, w, 0, y.lwh), y.guhh);
    Value h1 = b.dma(name + "1" + P, b.view(name + "v1" + P, w, half, y.lwh), y.guhh);
    return b.reinterpret(name + P, b.dmJoin(name + "j" + P, {h0, h1}, y.guhj), y.guh);
  };
  Value gd = rows("gd", gw);
  Value ud = rows("ud", uw);
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
// views of their sums (together: a lane's width apart in one tensor).
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

// p of a piece of pass c laid out for down's rings (once for all of x's parts).
Value downInput(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value ph,
                int64_t h, int64_t j, int64_t c) {
  const std::string Q = idx(h, j) + passTag(p, c);
  Value pq = b.dmView("pq" + Q, ph, j * p.pu * p.pairRows, std::nullopt, y.pq);
  return b.dma("pd" + Q, pq, y.ddm);
}

// down for a piece of pass c over x's part k's rows: the partial sums per K block gathered
// onto x's slices (appended to `blocks`).
void downPartials(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y, Value pd,
                  Value dwt, int64_t h, int64_t j, int64_t c, int64_t k,
                  std::vector<Value> &blocks) {
  const std::string Q = idx(h, j) + passTag(p, c) + xTag(p, k);
  const int64_t cells = p.pu * p.rowsPerSlice;
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

// The running sum ((d0 + d1) + ...) of a piece's down blocks, those from `from` on added to
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

// y = bf16(((d0 + d1) + ...) + r) for a piece, the blocks in L order (those before `from`
// already in `sum`).
Value downSum(StageBuilder &b, const DecoderPlan &p, const DecoderTypes &y,
              const std::vector<Value> &blocks, Value r, int64_t h, int64_t j, int64_t part,
              int64_t from = 0, Value sum = {}) {
  const std::string Q = idx(h, j) + xTag(p, part);
  const int64_t cells = p.pu * p.rowsPerSlice, n = int64_t(blocks.size());
  sum = addDownBlocks(b, p, y, blocks, from, sum, h, j, part);
  Value rq = b.dmView("rq" + Q, r, part * p.u * p.rowsPerSlice + j * cells, std::nullopt,
                      y.rpiece);
  if (sumsByTokenGroup(p)) // r on every cluster: each cluster's groups onto its sums' slices
    rq = b.dma("rqd" + Q, rq, y.piece);
  Value last = downAdd(b, y, Q + num(n), rq, sum);
  Value cast = b.cast("k" + Q + num(n) + "d", last, y.qonesb);
  return b.commit("y" + Q, cast, y.piece);
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

} // namespace

// The MLP pass by pass over L, down over x's parts in turn: y's pieces in [half, piece,
// part] order.
std::vector<Value> mlp(StageBuilder &b, const Passes &passes, const DecoderArgs &a,
                       const std::vector<Value> &hn, const std::vector<Value> &r) {
  const DecoderPlan &p0 = passes.plan;
  std::vector<std::vector<Value>> blocks(size_t(p0.halves * p0.pieces * p0.xParts));
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
        for (int64_t j = 0; j < p.pieces; ++j) {
          const int64_t q = h * p.pieces + j, i = q * p.xParts + k;
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

} // namespace rngd::placement::qwen3::prefill_decoder
