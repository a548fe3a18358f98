// batch_projection's q output: q_out row-major [T, Q] (token t's q at byte t x Q x 2, in the
// decode attention's [N, G, D] order, which is q's head order), copied from the rows the Switch
// Engine gathers for k (each head's D values of a token on one slice of the head), so that a
// token's head is one 2 x D-byte packet. PrefillProjection.cpp includes this header; it uses that
// file's Ctx.
#pragma once

#include "compiler/placement/qwen3/PrefillProjectionPlan.h"

namespace rngd::placement::qwen3 {

/// The pass's q heads (slots 0 .. qCount - 1 of the pass) out of `rows` (the gathered heads of
/// the pass, as outputs() commits them) into q_out, or into a view of q_out on the pass's heads
/// (its heads' term padded to all q heads) when the pass holds some of them.
template <class Ctx>
void qRowsOut(Ctx &c, mlir::Value rows, mlir::Value qOut) {
  StageBuilder &b = c.b;
  const ProjectionPlan &p = c.p;
  mlir::Type bf = b.bf16();
  const int64_t qCount = c.hp.qCount;
  Expr slices = cat({Ctx::padded(c.q(p.D, qCount * p.D), p.headSlots),
                     Expr::one().pad(p.slicesPerHead)});
  mlir::Type qrows = b.dm("qrows", bf, c.tc(), slices,
                          cat({c.ta(), c.tk(), c.q(p.F, p.D), c.q(p.lanes, p.F), c.q(1, p.lanes)}));
  mlir::Value dest = qOut;
  if (qCount < p.qHeads) {
    Term heads = c.q(p.D, qCount * p.D);
    heads = heads ? heads->pad(p.qHeads) : Expr::one().pad(p.qHeads);
    Expr layout = cat({whole("T", p.T), heads, c.q(1, p.D)});
    dest = b.view("qrop", qOut, c.hp.qFirst * p.D, b.hbm("qrop", bf, layout));
  }
  b.dmaInto(b.dmView("qrview", rows, 0, 0, qrows), dest);
}

} // namespace rngd::placement::qwen3
