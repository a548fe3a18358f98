// A Hugging Face Qwen3 checkpoint directory: config.json + model.safetensors (bf16), loaded
// into Weights. Errors are returned as strings naming the field or tensor.
#pragma once

#include "qwen3/host/Model.h"

#include <memory>
#include <string>

namespace rngd::qwen3 {

/// Reads a HF Qwen3 config.json text into `out` (fields the model needs; head_dim defaults to
/// hidden_size / num_attention_heads, tie_word_embeddings to false). Rejects hidden_act other
/// than silu, attention_bias, rope_scaling and sliding windows.
bool parseHfConfig(const std::string &jsonText, Qwen3Config &out, std::string &error);
/// config.json text for a config (model_type qwen3, bf16), as a checkpoint would carry.
std::string hfConfigJson(const Qwen3Config &config);

/// Errors when a field of `got` differs from `supported` (all shapes, rope_theta and
/// rms_norm_eps; the number of layers is free).
bool checkSupported(const Qwen3Config &got, const Qwen3Config &supported, std::string &error);

struct LoadOptions {
  Qwen3Config supported;  // the shapes the kernels are built for (default Qwen3-0.6B)
  int maxLayers = 0;      // > 0: load only the first maxLayers layers
};

/// Loads dir/config.json and dir/model.safetensors (bf16). lm_head.weight falls back to
/// model.embed_tokens.weight when tie_word_embeddings is true and the file has no lm_head.
bool loadHfModel(const std::string &dir, const LoadOptions &options, std::unique_ptr<Weights> &out,
                 std::string &error);

} // namespace rngd::qwen3
