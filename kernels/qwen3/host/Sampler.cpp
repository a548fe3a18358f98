#include "qwen3/host/Sampler.h"

#include "qwen3/host/SeededWeights.h"

#include <algorithm>
#include <cmath>

namespace rngd::qwen3 {

int greedy(const std::vector<float> &logits) {
  int best = 0;
  for (int i = 1; i < int(logits.size()); ++i)
    if (logits[i] > logits[best])
      best = i;
  return best;
}

double Sampler::uniform(uint64_t seed, uint64_t n) {
  uint64_t key = splitmix64(splitmix64(seed) ^ 0x73616D706C6572ull); // "sampler"
  return double(splitmix64(key + n * 0x9E3779B97F4A7C15ull) >> 11) * 0x1.0p-53;
}

std::vector<std::pair<int, double>> Sampler::candidates(const std::vector<float> &logits) const {
  std::vector<int> order(logits.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = int(i);
  // Most probable first, lowest id on ties: the same order everywhere.
  auto before = [&](int a, int b) { return logits[a] != logits[b] ? logits[a] > logits[b] : a < b; };
  size_t keep = options_.topK > 0 ? std::min(order.size(), size_t(options_.topK)) : order.size();
  std::partial_sort(order.begin(), order.begin() + keep, order.end(), before);
  order.resize(keep);
  std::vector<std::pair<int, double>> out;
  if (order.empty())
    return out;
  const double top = logits[order[0]];
  double sum = 0;
  for (int id : order) {
    double w = std::exp((double(logits[id]) - top) / options_.temperature);
    out.emplace_back(id, w);
    sum += w;
  }
  for (auto &c : out)
    c.second /= sum;
  // Nucleus: the smallest prefix whose probability reaches top-p.
  if (options_.topP < 1) {
    double acc = 0;
    size_t n = 0;
    while (n < out.size() && acc < options_.topP)
      acc += out[n++].second;
    out.resize(std::max<size_t>(n, 1));
    acc = 0;
    for (const auto &c : out)
      acc += c.second;
    for (auto &c : out)
      c.second /= acc;
  }
  return out;
}

int Sampler::next(const std::vector<float> &logits) {
  if (options_.temperature <= 0 || options_.topK == 1)
    return greedy(logits);
  std::vector<std::pair<int, double>> c = candidates(logits);
  double u = uniform(options_.seed, draws_++), acc = 0;
  for (const auto &[id, p] : c) {
    acc += p;
    if (u < acc)
      return id;
  }
  return c.back().first;
}

} // namespace rngd::qwen3
