// The sizes of a Qwen3 dense model that placement reads: what a Hugging Face config.json says
// about one decoder layer, the vocabulary and the numerics. Plain data; parseQwen3Config reads
// it from the config's JSON text and refuses what is not a Qwen3 dense model.
#pragma once

#include <cstdint>
#include <string>

namespace rngd::placement {

struct Qwen3Shape {
  int64_t hidden = 1024;       // H: hidden_size
  int64_t intermediate = 3072; // L: intermediate_size
  int64_t heads = 16;          // q heads: num_attention_heads
  int64_t kvHeads = 8;         // N: num_key_value_heads
  int64_t headDim = 128;       // D: head_dim
  int64_t vocab = 151936;      // W: vocab_size
  int64_t layers = 28;         // num_hidden_layers (placement does not read it)
  double rmsNormEps = 1e-6;    // rms_norm_eps
  double ropeTheta = 1e6;      // rope_theta
  bool tied = true;            // tie_word_embeddings

  int64_t qDim() const { return heads * headDim; }    // Q
  int64_t kvDim() const { return kvHeads * headDim; } // P
  int64_t groups() const { return heads / kvHeads; }  // G: q heads per kv head

  /// "hidden 1024, intermediate 3072, heads 16 / 8, head_dim 128, vocab 151936": what messages
  /// and stage headers print.
  std::string describe() const;
};

/// Reads a Hugging Face config.json. Refuses (false, `error` says why, naming the field) a
/// model_type other than "qwen3", missing or non-positive sizes, heads that kv heads do not
/// divide, an odd head_dim, and non-positive eps or theta. Placement limits are not checked
/// here: the generator says which rule a size fails.
bool parseQwen3Config(const std::string &json, Qwen3Shape &shape, std::string &error);

/// One chip's shard of `shape` in a tensor-parallel group of `chips` (docs/multichip.md): the
/// q and kv heads and the intermediate size split evenly, the vocabulary split in blocks of
/// ceil(W / chips) rows (the last padded), the hidden size whole. Refuses (false, `error` with
/// the numbers) a chip count below 1 or one that does not divide the kv heads (and so the q
/// heads) or the intermediate size.
bool shardQwen3(const Qwen3Shape &shape, int64_t chips, Qwen3Shape &shard, std::string &error);

} // namespace rngd::placement
