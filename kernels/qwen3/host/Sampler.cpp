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
  // Min-p: tokens at least minP times as probable as the most probable one.
  if (options_.minP > 0) {
    const double floor = options_.minP * out[0].second;
    size_t n = 1;
    while (n < out.size() && out[n].second >= floor)
      ++n;
    out.resize(n);
    double acc = 0;
    for (const auto &c : out)
      acc += c.second;
    for (auto &c : out)
      c.second /= acc;
  }
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

void Sampler::setPrompt(const std::vector<int> &prompt) { prompt_ = prompt; }

bool Sampler::penalises() const {
  return options_.repetitionPenalty != 1 || options_.presencePenalty != 0 ||
         options_.frequencyPenalty != 0;
}

std::vector<float> Sampler::penalised(const std::vector<float> &logits) const {
  std::vector<float> out = logits;
  const auto valid = [&](int id) { return id >= 0 && size_t(id) < out.size(); };
  if (options_.repetitionPenalty != 1) {
    std::vector<bool> seen(out.size(), false);
    for (int id : prompt_)
      if (valid(id))
        seen[size_t(id)] = true;
    for (const auto &[id, n] : generated_)
      if (valid(id))
        seen[size_t(id)] = true;
    const double r = options_.repetitionPenalty;
    for (size_t i = 0; i < out.size(); ++i)
      if (seen[i])
        out[i] = float(out[i] > 0 ? out[i] / r : out[i] * r);
  }
  for (const auto &[id, n] : generated_)
    if (valid(id))
      out[size_t(id)] = float(double(out[size_t(id)]) - options_.presencePenalty -
                              options_.frequencyPenalty * n);
  return out;
}

int Sampler::next(const std::vector<float> &raw) {
  std::vector<float> changed;
  if (penalises())
    changed = penalised(raw);
  const std::vector<float> &logits = penalises() ? changed : raw;
  int id;
  if (options_.temperature <= 0 || options_.topK == 1) {
    id = greedy(logits);
  } else {
    std::vector<std::pair<int, double>> c = candidates(logits);
    double u = uniform(options_.seed, draws_++), acc = 0;
    id = c.back().first;
    for (const auto &[cand, p] : c) {
      acc += p;
      if (u < acc) {
        id = cand;
        break;
      }
    }
  }
  generated_[id] += 1;
  return id;
}

} // namespace rngd::qwen3
