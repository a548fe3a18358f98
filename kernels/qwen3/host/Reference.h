// The whole-model reference decode, following the Hugging Face Qwen3 definition with bf16
// weights and float activations (double accumulation, see ReferenceOps.h); independent of the
// kernels, the compiler and the simulator, so no kernel trick can hide a bug in it.
//
//   ReferenceDecoder ref(weights.config(), weights);
//   for (int pos = 0; pos < n; ++pos) logits = ref.step(tokens[pos], pos);
//
// One step: embedding row; per layer RMSNorm, q/k/v projections, per-head q_norm/k_norm, RoPE,
// KV-cache append, causal softmax attention over positions 0..position (GQA: kv head n serves q
// heads nG..nG+G-1), o_proj, residual, post-attention RMSNorm, SwiGLU MLP, residual; final
// RMSNorm; logits = lm_head x. No bf16 rounding of activations anywhere.
#pragma once

#include "qwen3/host/Model.h"

#include <vector>

namespace rngd::qwen3 {

/// Values at the stage boundaries of one step (filled when tracing is on).
struct LayerTrace {
  std::vector<float> q;        // [numHeads * headDim] after q_norm and RoPE
  std::vector<float> k, v;     // [kvDim] the new cache row (k after k_norm and RoPE)
  std::vector<float> probs;    // [numHeads][position + 1] softmax rows
  std::vector<float> attn;     // [numHeads * headDim] attention output (normalised)
  std::vector<float> residual; // [hiddenSize] residual stream after the layer
};

struct StepTrace {
  std::vector<float> embedding; // [hiddenSize]
  std::vector<LayerTrace> layers;
  std::vector<float> finalNorm; // [hiddenSize] input of lm_head
};

class ReferenceDecoder {
public:
  /// `weights` must outlive the decoder. Throws std::invalid_argument when the weights are
  /// incomplete or were built for a different configuration.
  ReferenceDecoder(const Qwen3Config &config, const Weights &weights, int threads = 2);
  ReferenceDecoder(const Qwen3Config &, Weights &&, int = 2) = delete; // would dangle

  /// Runs one token at `position` (must equal length(): tokens are fed in order) and returns the
  /// logits [vocabSize]. Throws std::invalid_argument for a bad token or position.
  std::vector<float> step(int token, int position);

  int length() const { return length_; } // positions in the KV cache
  void reset();                          // empties the KV cache

  /// Replaces the KV cache with `length` given positions: keys[layer] and values[layer] hold
  /// [length][kvDim] float rows (k as after k_norm and RoPE). The next step() is at `length`.
  /// Throws std::invalid_argument on a size mismatch.
  void preloadCache(int length, std::vector<std::vector<float>> keys,
                    std::vector<std::vector<float>> values);

  void setTrace(bool on) { traceOn_ = on; }
  const StepTrace &trace() const { return trace_; } // of the last step

  /// [length()][kvDim] float rows of one layer (k after k_norm and RoPE).
  const std::vector<float> &keyCache(int layer) const { return keys_.at(layer); }
  const std::vector<float> &valueCache(int layer) const { return values_.at(layer); }

private:
  Qwen3Config config_;
  const Weights &weights_;
  int threads_;
  int length_ = 0;
  std::vector<std::vector<float>> keys_, values_;
  bool traceOn_ = false;
  StepTrace trace_;
};

} // namespace rngd::qwen3
