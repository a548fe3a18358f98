// The per-boundary host oracle: each Qwen3 stage computed on the host from the exact inputs the
// kernel received, rounding to bf16 at the kernels' rounding points (documented in each stage
// file's header) and computing everything else in double/float. rngd-qwen3 --check compares
// every boundary of every layer with it under the reference rule (checkRule). Independent of
// the compiler and the simulator; it shares the dot products and RMSNorm of ReferenceOps.
#pragma once

#include "qwen3/host/Model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::qwen3::oracle {

using Bits = std::vector<uint16_t>; // bf16 bit patterns

/// projection: q_out [Q] and the new K and V rows [P] of the token at `position`. rawBf16: q
/// and k are rounded to bf16 before the head norms (prefill_projection's GEMM commits bf16; the
/// decode stage keeps f32). The RoPE factors are the oracle's own (ropeFactors), never the
/// tables the pipeline gave the kernel: a wrong table must show as a failed check.
struct ProjectionOut {
  Bits q, k, v;
};
ProjectionOut projection(const Qwen3Config &cfg, const Bits &x, const Bf16Tensor &qWeight,
                         const Bf16Tensor &kWeight, const Bf16Tensor &vWeight,
                         const Bf16Tensor &inputRms, const Bf16Tensor &qRms,
                         const Bf16Tensor &kRms, int position, bool rawBf16 = false);

/// cos and sin of position * theta^(-2f / headDim) for f < headDim / 2 (cfg.ropeTheta,
/// cfg.headDim), in double, each rounded once to bf16 as the kernels read them.
void ropeFactors(const Qwen3Config &cfg, int position, Bits &cos, Bits &sin);

/// The online-softmax state of attention_forward_first / attention_forward.
struct AttentionState {
  std::vector<float> max, sum; // [N, G]
  Bits out;                    // [N, G, D], unnormalised
};
/// One 512-row chunk: k, v [T, N, D]; mask [T] in {0, 1}; `old` is null for the first chunk.
AttentionState attention(const Qwen3Config &cfg, const Bits &q, const Bits &k, const Bits &v,
                         const std::vector<float> &mask, const AttentionState *old);

/// decoder: the new residual [H] from the unnormalised attention output, its sum and rx.
Bits decoder(const Qwen3Config &cfg, const Bits &attnOut, const std::vector<float> &sum,
             const Bits &rx, const Bf16Tensor &oWeight, const Bf16Tensor &postRms,
             const Bf16Tensor &upWeight, const Bf16Tensor &gateWeight,
             const Bf16Tensor &downWeight);

/// final_layer: logits [W] (bf16 values as float) of RMSNorm(x) x lm_head^T.
std::vector<float> finalLayer(const Qwen3Config &cfg, const Bits &x, const Bf16Tensor &rms,
                              const Bf16Tensor &lmHead);

/// The reference rule over one boundary: how many elements are within
/// max(1 % |expected|, 2^-8) of the expected value, and the worst one.
struct RuleCount {
  int64_t elements = 0, within = 0;
  double worstDiff = 0, worstExpected = 0, worstActual = 0;
  void add(double expected, double actual);
  void add(const RuleCount &other);
  bool passes() const; // >= 99.5 % within
  double percent() const;
};
RuleCount checkRule(const Bits &expected, const Bits &actual);
RuleCount checkRule(const std::vector<float> &expected, const std::vector<float> &actual);

} // namespace rngd::qwen3::oracle
