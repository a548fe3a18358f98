// prefill_projection's GEMM with the heads split over the clusters (small blocks): each cluster
// holds 1 / C of the heads' weight rows and multiplies every one of the T tokens, so the weights
// are read from HBM once instead of once a cluster; the bf16 q, k and v rows then move, DM to
// DM, into the token-split layout the rest of the stage uses (each cluster T / C tokens of every
// head). x^ is made token-split as before and copied to both clusters whole. Every value and
// summation order is the token-split GEMM's: the same halves of h, contracted alike, added in
// the same order. PrefillProjection.cpp includes this header; it uses that file's Ctx.
#pragma once

#include "compiler/placement/qwen3/PrefillProjectionPlan.h"

namespace rngd::placement::qwen3 {

/// The split GEMM: x^ to both clusters whole, each half's weights (a cluster's heads) into the
/// TRF, the halves' f32 sums added in order and rounded to bf16, then copied into `qrawb` (the
/// token-split layout). Returns that copy.
template <class Ctx>
mlir::Value splitGemm(Ctx &c, mlir::Value w, mlir::Value xh, mlir::Type qrawb) {
  StageBuilder &b = c.b;
  const ProjectionPlan &p = c.p;
  mlir::Type bf = b.bf16(), f = b.f32();
  using tcp::Context;
  const int64_t oc = c.oRows() / p.C;
  Expr cl = c.cl(), clO = cat({c.o(oc, c.oRows())});
  Expr ws = cat({Ctx::padded(c.o(p.D, oc), p.headSlots), c.o(p.lanes, p.F)});
  Term sr = c.ax("SR", p.repXS), tRow = c.t(p.tpsS, p.T), tIn = c.t(1, p.tpsS);
  Term hlv = c.hl(1, p.vb), hlf = c.hl(p.vb, p.HL);
  mlir::Type xall = b.dm("xall", bf, cl, cat({sr, tRow, c.h(p.vb, p.HL)}),
                         cat({c.h(p.HL, p.H), tIn, c.h(1, p.vb)}));
  Expr xs = cat({sr, tRow, hlf});
  mlir::Type xhh = b.dm("sxh", bf, cl, xs, cat({tIn, hlv}));
  mlir::Type xf = b.stream("sxf", bf, cl, xs, cat({tIn}), cat({hlv}));
  mlir::Type xn = b.stream("sxn", bf, cl, cat({sr, c.ax("SN", p.rowsXS * p.hSlices)}),
                           cat({tIn, tRow, hlf}), cat({hlv}));
  mlir::Type wh = b.hbm("wh", bf, cat({c.o(1, c.oRows()), c.ax("HL", p.HL)}));
  mlir::Type wdm = b.dm("swdm", bf, clO, ws, cat({c.lane(), c.row(), c.ax("HL", p.HL)}));
  mlir::Type wload = b.stream("swload", bf, clO, ws, cat({c.lane(), c.row(), hlf}), cat({hlv}));
  mlir::Type wtrf = b.trf("swtrf", bf, clO, ws, cat({c.lane()}), cat({c.row(), c.ax("HL", p.HL)}));
  mlir::Type acc = b.stream("sacc", f, clO, ws, cat({tIn, tRow, c.row()}), cat({c.lane()}));
  // The sums' token order: each cluster's TC tokens of the copy a contiguous run of a slice.
  Expr elem = cat({c.t(p.TC, p.T), c.ta(), c.tk(), c.row(), c.lane()});
  Expr time = cat({c.t(p.TC, p.T), c.ta(), c.tk(), c.row()});
  mlir::Type raw = b.dm("sraw", f, clO, ws, elem), rawb = b.dm("srawb", bf, clO, ws, elem);
  mlir::Type sf = b.stream("ssf", f, clO, ws, time, cat({c.lane()}));
  mlir::Type sb = b.stream("ssb", bf, clO, ws, time, cat({c.lane()}));
  mlir::Type vrf = b.vrf("svrf", f, clO, ws, elem);

  mlir::Value xa = b.dma("xall", xh, xall);
  const std::string half = "abcdefghijklmnopqrstuvwxyz";
  std::vector<mlir::Value> dms, sums;
  for (int64_t i = 0; i < p.halves; ++i)
    dms.push_back(b.dma(std::string("wd") + half[i],
                        b.view(std::string("w") + half[i], w,
                               (i * p.O + c.hp.first * p.D) * p.HL, wh),
                        wdm));
  for (int64_t i = 0; i < p.halves; ++i) {
    std::string n(1, half[i]);
    mlir::Value v = b.collect("wc" + n, b.fetch("ws" + n, Context::main, dms[i], wload));
    mlir::Value wt = b.toTrf("wt" + n, v, wtrf);
    mlir::Value xv = b.dmView("x" + n, xa, i * p.tpsS * p.vb, std::nullopt, xhh);
    v = b.fetch("x" + n + "1", Context::main, xv, xf);
    v = b.collect("x" + n + "3", b.switchOp("x" + n + "2", tcp::SwitchMode::broadcast1, v, xn));
    v = b.contract("g" + n, v, wt, kPackFlits, acc);
    sums.push_back(b.commit("p" + n, v, raw));
  }
  // ((s0 + s1) + s2) + ...: the f32 running sum, rounded to bf16 after the last.
  mlir::Value run = sums[0];
  for (size_t i = 1; i < sums.size(); ++i) {
    std::string n = std::to_string(i);
    mlir::Value v = b.collect("sv" + n + "2", b.fetch("sv" + n + "1", Context::main, sums[i], sf));
    mlir::Value pv = b.toVrf("sv" + n, v, vrf);
    v = b.collect("sa" + n + "2", b.fetch("sa" + n + "1", Context::main, run, sf));
    v = b.vector("sa" + n + "3", v, {Step::vrfOf("add_f", pv)});
    if (i + 1 < sums.size()) {
      run = b.commit("sm" + n, v, raw);
      continue;
    }
    run = b.commit("sq", b.cast("sa" + n + "4", v, sb), rawb);
  }
  return b.dma("qs0", run, qrawb);
}

/// The header's sentence on the split and its axes (nothing without it).
inline void describeSplit(StageBuilder &b, const ProjectionPlan &p) {
  if (!p.split)
    return;
  for (const auto &[name, size] : {std::pair<const char *, int64_t>{"SR", p.repXS},
                                   {"SN", p.rowsXS * p.hSlices}})
    if (size > 1)
      b.axis(name, size);
  std::string held;
  for (const HeadPass &hp : headPasses(p))
    held += (held.empty() ? "" : ", then ") + num(hp.count / p.C);
  b.describe(wrap("\nSmall block: the GEMM (step 2) splits the heads over the clusters instead of the "
         "tokens, so the weights are read from HBM once: each cluster holds " + held +
         " heads' rows" + (p.headPasses > 1 ? " (a pass's heads in turn)" : "") +
         " and multiplies all " + num(p.T) +
         " tokens (x^ copied to both clusters whole, " + num(p.tpsS) +
         " tokens a slice); the halves' sums are added there, rounded to bf16 and copied DM to "
         "DM into the token-split layout steps 3 to 6 use. Same values and summation order."));
}

} // namespace rngd::placement::qwen3
