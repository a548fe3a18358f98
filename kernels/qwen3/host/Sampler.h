// Token choice from logits: greedy (argmax, lowest id on ties) or seeded sampling with
// temperature, top-k and top-p (nucleus). The random number of step n is the n-th output of a
// counter-based splitmix64 stream keyed by the seed, so a seed gives the same tokens on every
// run and machine (no std::*_distribution). A step that draws nothing (greedy) uses no number.
#pragma once

#include <cstdint>
#include <vector>

namespace rngd::qwen3 {

struct SamplingOptions {
  double temperature = 0; // 0: greedy
  int topK = 0;           // 0: all tokens
  double topP = 1;        // 1: no nucleus cut
  uint64_t seed = 0;
};

class Sampler {
public:
  explicit Sampler(const SamplingOptions &options) : options_(options) {}

  /// The next token: greedy when temperature is 0 or top-k is 1, else a draw.
  int next(const std::vector<float> &logits);

  /// The candidates a draw chooses from, most probable first, with their probabilities
  /// (renormalised after top-k and top-p). Exposed for the tests.
  std::vector<std::pair<int, double>> candidates(const std::vector<float> &logits) const;

  /// The uniform number in [0, 1) of draw n for this seed.
  static double uniform(uint64_t seed, uint64_t n);

private:
  SamplingOptions options_;
  uint64_t draws_ = 0;
};

/// Argmax, lowest index on ties.
int greedy(const std::vector<float> &logits);

} // namespace rngd::qwen3
