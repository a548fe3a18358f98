// The per-layer weights the stages bind (argument name, checkpoint suffix or the name of a
// tensor the pipeline makes at load): shared by Pipeline.cpp and PipelineBatch.cpp.
#pragma once

#include <utility>
#include <vector>

namespace rngd::qwen3 {

// The per-layer weights each stage binds: argument name, checkpoint suffix.
inline const std::vector<std::pair<const char *, const char *>> kProjectionWeights = {
    {"q_weight", "self_attn.q_proj.weight"},
    {"k_weight", "self_attn.k_proj.weight"},
    {"v_weight", "self_attn.v_proj.weight"},
    {"input_rms_weight", "input_layernorm.weight"},
    {"q_rms_weight", "self_attn.q_norm.weight"},
    {"k_rms_weight", "self_attn.k_norm.weight"}};
inline const std::vector<std::pair<const char *, const char *>> kDecoderWeights = {
    {"o_weight", "self_attn.o_proj.weight"},
    {"post_rms_weight", "post_attention_layernorm.weight"},
    {"up_weight", "mlp.up_proj.weight"},
    {"gate_weight", "mlp.gate_proj.weight"},
    {"down_weight", "mlp.down_proj.weight"}};
// The prefill projection's weights, made per layer at load: q, k and v's rows in one tensor,
// and each head's norm weights (q_norm's for the q heads, k_norm's for the k heads, zeros for
// the v heads, whose norm the stage computes but does not use).
inline const std::vector<std::pair<const char *, const char *>> kPrefillProjectionWeights = {
    {"qkv_weight", "prefill.qkv_weight"},
    {"input_rms_weight", "input_layernorm.weight"},
    {"head_rms_weight", "prefill.head_rms_weight"}};

} // namespace rngd::qwen3
