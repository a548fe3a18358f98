// prefill_projection's header text: what the stage computes and how it is placed, with the
// plan's numbers (PrefillProjectionPlan.h). Header-only: an inline function.
#pragma once

#include "compiler/placement/qwen3/PrefillProjectionPlan.h"

namespace rngd::placement::qwen3 {

// The header: the hand-placed file's comments, with this shape's and T's numbers.
inline void describeProjection(StageBuilder &b, const ProjectionPlan &p) {
  const Values v = projectionValues(p);
  b.describe(wrap(fill(
      "`prefill_projection` stage (multi-token): for a block of T = {T} tokens at positions "
      "0..{T1} of a KV-cache chunk, x^ = RMSNorm(x); q, k, v = x^ W^T for all {heads} heads ({qh} "
      "q, {N} k, {N} v; {D} rows each); per-head RMSNorm and RoPE of q and k; q's heads to "
      "q_out, k's and v's rows into the chunk's caches. docs/prefill.md explains the layouts.",
      v)));
  b.describe(wrap(
      fill("\nSignature (HBM layouts chosen so that each slice's part is contiguous):\n"
           "  x                [T, H] bf16, layout {x}\n"
           "  input_rms_weight [H] bf16\n"
           "  qkv_weight       [O = {O}, H] bf16: q_proj's {Q} rows, then k_proj's {kv}, "
           "v_proj's {kv}, layout {w} (each half of h a contiguous tile)\n"
           "  head_rms_weight  [O] bf16: q_norm's {D} weights for each q head, k_norm's for each "
           "k head, anything for the v heads (not used)\n"
           "  cos, sin         [T, {F}] bf16 for the block's positions (F = d % {F}), layout "
           "{tables}\n"
           "  q_out            [T, Q = {Q}] bf16, layout {q} (prefill_attention_first's q: {run} "
           "tokens x {lanes} values of a head contiguous)\n"
           "  k_cache, v_cache [T, N, D] bf16: the chunk's T rows, every row written (the rows of "
           "a shorter prompt's padding tokens hold their values until decode overwrites them)\n"
           "T's blocks: TC = T / {C} = {TC} tokens a cluster, tiles of A = min(64, TC) = {A}.",
           v),
      96, 17));
  b.describe(wrap(fill(
      "\nPlacement: tokens split over the clusters (T / {TC}); every slice of both clusters "
      "holds {rows} weight rows in its TRF ({lanes} lanes, two rows per lane), a head on {sph} "
      "slices, rows d and d + {F} of a head on one slice and lane.{headpasses}\n"
      "1. x's RMSNorm in the GEMM's layout (slice (T % {TC} / {tps}, H % {HL} / {vb}) holds "
      "{tps} tokens x {vb} values of each half of h{copies}): the transpose puts {tr} tokens in "
      "the lanes, the reducer's {slots} sum a slice's {hv} values of each token ([H / {HL}, "
      "H % {vb}] order){xpasses}, the inter-slice reducer adds a row's {hs} slices; rms and the "
      "weights from the VRF. Runs while the weights stream.\n"
      "2. The GEMM in {nhalves} of h: each half's weights arrive and load into the TRF by "
      "themselves, so one half's contraction runs while the other's weights stream{trf}; each half "
      "of x^ broadcast around each {ring}-slice ring, each packet time-broadcast over a lane's "
      "two rows ({half} contraction cycles a half: {both} in all). The halves' f32 sums are "
      "added {sums}, then rounded to bf16.\n"
      "3. v's heads to the cache: each head's {sph} slices gathered onto one by the Switch "
      "Engine (ring {sph}) on the sub context while main normalises q and k, then copied "
      "through a view on the v heads' slices.\n"
      "4. Head norms: q transposed ({tr} tokens in the lanes), {passes}, a head's {sph} slices "
      "added; q x weight, then / rms from the VRF.\n"
      "5. RoPE: the halves d and d + {F} read through DM views over F; four passes make the "
      "exact products (-x1 sin, x0 sin, x0 cos, x1 cos) against the VRF tables, two add them. "
      "The tables come from HBM once, onto one head's slices, and are copied DM to DM to the "
      "others (read {heads} times from HBM they would take {tablesHbm} of its bandwidth from the "
      "weights).\n"
      "6. q's heads out through a view on their slices; k's heads gathered and copied like "
      "v's.\n"
      "Rounding points: x^, the GEMM's q, k and v (after the halves' sums are added), the "
      "normalised heads and the results are bf16; every other value is f32.",
      v)));
}

} // namespace rngd::placement::qwen3
