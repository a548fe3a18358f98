// `batch_projection`: the batched decode step's projection (docs/batching.md) for a block of T
// tokens, each of its own sequence at its own position: prefill_projection's placement at T
// (PrefillProjection.cpp) with q written row by row and k and v to staging rows that
// batch_kv_store scatters into the KV pool.
#include "compiler/placement/Qwen3StageList.h"
#include "compiler/placement/qwen3/PrefillProjectionPlan.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

inline constexpr const char *kStage = "batch_projection";

ProjectionOptions batchOptions() {
  ProjectionOptions opt;
  opt.stage = kStage;
  opt.rowMajorQ = true;
  return opt;
}

/// Batch invariance: a token's arithmetic may not depend on T, so every batch block size takes
/// the same GEMM path (heads split over the clusters or not, the same parts of h and passes of
/// the heads); the other numbers of the plan only group tokens.
llvm::Error checkSamePath(const Qwen3Shape &shape, const TargetModel &t, const ProjectionPlan &p) {
  for (int64_t other : batchTokenCounts()) {
    llvm::Expected<ProjectionPlan> q = planProjection(shape, t, other, batchOptions());
    if (!q)
      return q.takeError();
    if (q->split != p.split || q->halves != p.halves || q->headPasses != p.headPasses)
      return placementError(kStage, "one per-token path at every batch block size",
                            "T = " + num(p.T) + (p.split ? " splits" : " does not split") +
                                " the heads over the clusters in " + num(p.halves) +
                                " parts of h and " + num(p.headPasses) + " passes, T = " +
                                num(other) + (q->split ? " splits" : " does not split") +
                                " them in " + num(q->halves) + " and " + num(q->headPasses));
  }
  return llvm::Error::success();
}

void describeBatchProjection(StageBuilder &b, const ProjectionPlan &p) {
  const Values v = projectionValues(p);
  b.describe(wrap(fill(
      "`batch_projection` stage (batched decode step): for a block of T = {T} tokens, each of its "
      "own sequence at its own position (a batch padded to T), x^ = RMSNorm(x); q, k, v = x^ W^T "
      "for all {heads} heads ({qh} q, {N} k, {N} v; {D} rows each); per-head RMSNorm and RoPE of "
      "q and k; q row by row to q_out, k's and v's rows to the staging rows k_rows, v_rows "
      "(batch_kv_store scatters them into the KV pool).",
      v)));
  b.describe(wrap(
      fill("\nSignature:\n"
           "  x                [T, H] bf16, layout {x}\n"
           "  input_rms_weight [H] bf16\n"
           "  qkv_weight       [O = {O}, H] bf16: q_proj's {Q} rows, then k_proj's {kv}, "
           "v_proj's {kv}, layout {w}\n"
           "  head_rms_weight  [O] bf16: q_norm's {D} weights for each q head, k_norm's for each "
           "k head, anything for the v heads (not used)\n"
           "  cos, sin         [T, {F}] bf16, token t's row for its own position, layout "
           "{tables}\n"
           "  q_out            [T, Q = {Q}] bf16 row-major: token t's q at byte t x {Q} x 2, "
           "heads in q's order, which is attention_forward_first's q [N, G, D] (bind it at row "
           "t)\n"
           "  k_rows, v_rows   [T, N, D] bf16 row-major: token t's k (after norm and RoPE) and v "
           "rows at byte t x {kv} x 2, every row written (a padding token's rows hold its "
           "values)\n"
           "T's blocks: TC = T / {C} = {TC} tokens a cluster, tiles of A = min(64, TC) = {A}.",
           v),
      96, 17));
  b.describe(wrap(fill(
      "\nPlacement: prefill_projection's at T = {T} (its header explains steps 1 to 6), except the "
      "outputs: the Switch Engine gathers each head's {sph} slices onto one for every head of a "
      "pass that holds q or k heads (as prefill_projection does for k), and q's heads go out "
      "through a view on their slices, one {D}-value row of a head a packet; k's and v's rows go "
      "out as prefill_projection's do, into k_rows and v_rows instead of a chunk. Every token takes the same "
      "path at T = 16, 32 and 64 (checked): the weights' split over the clusters, h's parts and "
      "the passes of the heads do not depend on T, and neither does any summation order (a "
      "token's x sums, GEMM sums and head sums are its own), so a token's q, k and v do not "
      "depend on T or on the other tokens.\n"
      "Rounding points: x^, the GEMM's q, k and v (after the halves' sums are added), the "
      "normalised heads and the results are bf16; every other value is f32.",
      v)));
}

} // namespace

llvm::Error buildBatchProjection(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  llvm::Expected<ProjectionPlan> plan = planProjection(shape, b.target(), tokens, batchOptions());
  if (!plan)
    return plan.takeError();
  if (llvm::Error e = checkSamePath(shape, b.target(), *plan))
    return e;
  describeBatchProjection(b, *plan);
  return buildProjectionStage(b, shape, tokens, batchOptions());
}

} // namespace rngd::placement::qwen3
