// What Pipeline.cpp, PipelinePrefill.cpp and PipelineBatch.cpp share: the per-layer weights the
// stages bind (argument name, checkpoint suffix or the name of a tensor the pipeline makes at
// load), and the prefill stages' activation buffers and bindings.
#pragma once

#include "qwen3/host/Model.h"

#include "rngd/machine/TargetModel.h"

#include <cstdint>
#include <map>
#include <string>
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
// A tensor-parallel chip's decoder parts (decoder_out, decoder_mlp) bind the same tensors.
inline const std::vector<std::pair<const char *, const char *>> kDecoderOutWeights = {
    {"o_weight", "self_attn.o_proj.weight"}};
inline const std::vector<std::pair<const char *, const char *>> kDecoderMlpWeights = {
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

inline constexpr float kMasked = -1.2676506002282294e30f; // -2^100

// The prefill stages' activations: (buffer, stage, argument) - sized by the largest block's
// argument, and bound to each block size's kernels as a view of its first bytes.
struct PrefillBuffer {
  const char *buffer;
  int stage;
  const char *arg;
};
inline const std::vector<PrefillBuffer> kPrefillBuffers = {
    {"prefill.x0", PrefillProjection, "x"},
    {"prefill.x1", PrefillDecoder, "y"},
    {"prefill.cos", PrefillProjection, "cos"},
    {"prefill.sin", PrefillProjection, "sin"},
    {"prefill.q", PrefillProjection, "q_out"},
    {"prefill.attn", PrefillDecoder, "attn"},
    {"prefill.tile_mask", PrefillAttention, "tile_mask"},
    {"prefill.diag_mask", PrefillAttention, "diag_mask"},
    {"prefill.max", PrefillAttention, "max_in"},
    {"prefill.sum", PrefillAttention, "sum_in"},
    {"prefill.out", PrefillAttention, "out_in"},
    {"prefill.key_mask", PrefillAttentionPartial, "key_mask"}};
// Each prefill stage's arguments bound to those buffers.
inline const std::vector<std::pair<int, std::vector<std::pair<const char *, const char *>>>>
    kPrefillBindings = {
        {PrefillProjection,
         {{"x", "prefill.x0"}, {"cos", "prefill.cos"}, {"sin", "prefill.sin"},
          {"q_out", "prefill.q"}}},
        {PrefillAttention,
         {{"q", "prefill.q"}, {"tile_mask", "prefill.tile_mask"},
          {"diag_mask", "prefill.diag_mask"}, {"attn", "prefill.attn"}, {"max_in", "prefill.max"},
          {"sum_in", "prefill.sum"}, {"out_in", "prefill.out"}}},
        {PrefillAttentionChunk,
         {{"q", "prefill.q"}, {"max_hbm", "prefill.max"}, {"sum_hbm", "prefill.sum"},
          {"out_hbm", "prefill.out"}}},
        {PrefillAttentionPartial,
         {{"q", "prefill.q"}, {"max_hbm", "prefill.max"}, {"sum_hbm", "prefill.sum"},
          {"out_hbm", "prefill.out"}, {"key_mask", "prefill.key_mask"}}},
        {PrefillDecoder, {{"attn", "prefill.attn"}}},
        {PrefillAttentionDecoder,
         {{"q", "prefill.q"}, {"tile_mask", "prefill.tile_mask"},
          {"diag_mask", "prefill.diag_mask"}, {"attn", "prefill.attn"}, {"max_in", "prefill.max"},
          {"sum_in", "prefill.sum"}, {"out_in", "prefill.out"}}},
        {PrefillDecoderOut, {{"attn", "prefill.attn"}}}};

/// The bytes of one argument of the generated stage s at block size T.
uint64_t argBytes(const Qwen3Config &cfg, const rngd::TargetModel &target, int s, int T,
                  const char *arg);
/// Each prefill buffer's size: its argument's largest over the block sizes.
std::map<std::string, uint64_t> prefillBufferBytes(const Qwen3Config &cfg,
                                                   const rngd::TargetModel &target,
                                                   const std::vector<int> &sizes);

} // namespace rngd::qwen3
