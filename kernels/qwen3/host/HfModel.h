// A Hugging Face Qwen3 checkpoint directory: config.json + model.safetensors (bf16), loaded
// into Weights. Errors are returned as strings naming the field or tensor.
#pragma once

#include "qwen3/host/Model.h"
#include "qwen3/host/HfCheckpoint.h"

#include <memory>
#include <string>

namespace rngd::qwen3 {

/// Reads a HF Qwen3 config.json text into `out` (fields the model needs; head_dim defaults to
/// hidden_size / num_attention_heads, tie_word_embeddings to false, max_position_embeddings to
/// 40,960 (Qwen3's)). Integer fields must lie in 1..2^30. Rejects hidden_act other
/// than silu, attention_bias, rope_scaling and sliding windows.
bool parseHfConfig(const std::string &jsonText, Qwen3Config &out, std::string &error);
/// config.json text for a config (model_type qwen3, bf16), as a checkpoint would carry.
std::string hfConfigJson(const Qwen3Config &config);

/// Reads and parses dir/config.json without touching the weights (milliseconds), so a driver
/// can report config problems, check that the stage generator places the shape, and learn
/// num_hidden_layers first.
bool readHfConfig(const std::string &dir, Qwen3Config &out, std::string &error);

struct LoadOptions {
  int maxLayers = 0; // > 0: load only the first maxLayers layers
};

/// What loadHfModel decided beyond the tensors themselves.
struct LoadNotes {
  /// tie_word_embeddings is true and the file also holds lm_head.weight: as in Hugging Face
  /// (tie_weights), the head is model.embed_tokens.weight and the file's lm_head is not used.
  bool ignoredLmHead = false;
};

/// dir/config.json (its first options.maxLayers layers) and the checkpoint's files, every tensor
/// the config needs checked present, BF16 and of its shape from the headers alone
/// (lm_head.weight may be absent when tied). False with the file or tensor named.
bool openHfCheckpoint(const std::string &dir, const LoadOptions &options, Qwen3Config &config,
                      HfCheckpoint &file, std::string &error);

/// Loads dir/config.json and the checkpoint's tensors (bf16; HfCheckpoint: one file or a
/// sharded set). Every tensor the first maxLayers
/// layers need is looked up in the file's header before any data is read, so a missing tensor
/// is reported at once. With tie_word_embeddings true, lm_head.weight is
/// model.embed_tokens.weight (a separate lm_head.weight in the file is ignored: `notes`).
bool loadHfModel(const std::string &dir, const LoadOptions &options, std::unique_ptr<Weights> &out,
                 std::string &error, LoadNotes *notes = nullptr);

} // namespace rngd::qwen3
