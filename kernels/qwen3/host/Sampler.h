// Token choice from logits: greedy (argmax, lowest id on ties) or seeded sampling with
// temperature, top-k, min-p and top-p (nucleus), after the repetition, presence and frequency
// penalties. The random number of draw n is the n-th output of a counter-based splitmix64
// stream keyed by the seed, so a seed gives the same tokens on every run and machine (no
// std::*_distribution). A step that draws nothing (greedy) uses no number.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace rngd::qwen3 {

struct SamplingOptions {
  double temperature = 0; // 0: greedy
  int topK = 0;           // 0: all tokens
  double topP = 1;        // 1: no nucleus cut
  uint64_t seed = 0;
  double minP = 0;        // drop tokens below minP x the most probable one's probability
  // Penalties on the logits before anything else (greedy too), as vLLM applies them:
  // repetition (Hugging Face's: a seen token's logit divided by it when positive, multiplied
  // when negative; 1 = none) over the prompt and the generated tokens; presence (subtracted
  // once from every generated token's logit) and frequency (subtracted per occurrence) over
  // the generated tokens.
  double repetitionPenalty = 1;
  double presencePenalty = 0;
  double frequencyPenalty = 0;
};

class Sampler {
public:
  explicit Sampler(const SamplingOptions &options) : options_(options) {}

  /// The prompt's tokens, for the repetition penalty (call before the first next()).
  void setPrompt(const std::vector<int> &prompt);

  /// The next token: greedy when temperature is 0 or top-k is 1, else a draw. The token
  /// counts as generated for the penalties of later calls.
  int next(const std::vector<float> &logits);

  /// The candidates a draw chooses from, most probable first, with their probabilities
  /// (renormalised after top-k, min-p and top-p), of logits the penalties already changed.
  /// Exposed for the tests.
  std::vector<std::pair<int, double>> candidates(const std::vector<float> &logits) const;

  /// `logits` with the penalties applied (the tokens seen so far).
  std::vector<float> penalised(const std::vector<float> &logits) const;

  /// The uniform number in [0, 1) of draw n for this seed.
  static double uniform(uint64_t seed, uint64_t n);

private:
  bool penalises() const;
  SamplingOptions options_;
  uint64_t draws_ = 0;
  std::unordered_map<int, int> generated_; // token -> times generated
  std::vector<int> prompt_;
};

/// Argmax, lowest index on ties.
int greedy(const std::vector<float> &logits);

} // namespace rngd::qwen3
