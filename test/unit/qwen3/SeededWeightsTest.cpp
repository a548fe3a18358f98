// Seeded default weights: the documented counter-based formula, fixed bits (golden hashes),
// seed sensitivity, thread-count independence and the N(0, 0.02) / 1 + N(0, 0.1) statistics.
#include "Helpers.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/SeededWeights.h"

#include <cmath>

using namespace rngd::qwen3;
using namespace rngd::qwen3::test;

namespace {

// FNV-1a over the first `n` bf16 values (little-endian bytes).
uint64_t hashFirst(const Bf16Tensor &t, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n && i < t.data.size(); ++i)
    for (int b = 0; b < 2; ++b) {
      h ^= (t.data[i] >> (8 * b)) & 0xff;
      h *= 0x100000001b3ull;
    }
  return h;
}

// The header's formula, written again here with the C library's log/cos/sin.
double formulaNormal(uint64_t seed, const std::string &name, uint64_t i) {
  auto mix = [](uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : name)
    h = (h ^ c) * 0x100000001b3ull;
  uint64_t key = mix(mix(seed) ^ h);
  uint64_t p = i / 2;
  uint64_t w1 = mix(key + 2 * p * 0x9E3779B97F4A7C15ull);
  uint64_t w2 = mix(key + (2 * p + 1) * 0x9E3779B97F4A7C15ull);
  double u1 = double((w1 >> 11) + 1) / 9007199254740992.0;
  double u2 = double(w2 >> 11) / 9007199254740992.0;
  double r = std::sqrt(-2.0 * std::log(u1));
  double a = 2.0 * M_PI * u2;
  return r * (i % 2 ? std::sin(a) : std::cos(a));
}

TensorSpec matrix(const std::string &name, int64_t rows, int64_t cols) {
  return {name, {rows, cols}, TensorKind::Matrix};
}

} // namespace

TEST_CASE("seeded: splitmix64 and FNV-1a known values", "[qwen3][seeded]") {
  // splitmix64 seeded with 0: first output of the reference generator.
  CHECK(splitmix64(0) == 0xE220A8397B1DCDAFull);
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
}

TEST_CASE("seeded: values follow the documented formula", "[qwen3][seeded]") {
  const std::string name = "model.layers.3.mlp.up_proj.weight";
  int mismatches = 0;
  double worst = 0;
  for (uint64_t i = 0; i < 4000; ++i) {
    double mine = seededNormal(7, name, i);
    double lib = formulaNormal(7, name, i);
    worst = std::max(worst, std::fabs(mine - lib));
    TensorSpec spec = matrix(name, 1, 1);
    if (seededValue(7, spec, i) != doubleToBf16(0.02 * lib))
      ++mismatches;
  }
  CHECK(worst < 1e-12);    // the portable log/sin/cos agree with libm
  CHECK(mismatches <= 1); // bf16 of the libm formula: equal but for a once-in-2^40 tie
  TensorSpec norm{"model.norm.weight", {8}, TensorKind::Norm};
  CHECK(seededValue(7, norm, 5) == doubleToBf16(1.0 + 0.1 * formulaNormal(7, norm.name, 5)));
}

TEST_CASE("seeded: fixed bits for a fixed seed", "[qwen3][seeded]") {
  Qwen3Config c = tinyConfig();
  Weights w = seededWeights(c, 42);
  // Golden values: a change here changes every seeded run's numbers.
  CHECK(hashFirst(w.get("model.embed_tokens.weight"), 64) == 0x22c1a7332935ee67ull);
  CHECK(hashFirst(w.get("model.layers.1.self_attn.q_proj.weight"), 64) == 0x298df509d8390a86ull);
  CHECK(hashFirst(w.get("model.layers.0.input_layernorm.weight"), 64) == 0xdcf3de19435250d3ull);
  CHECK(w.get("model.layers.0.self_attn.q_proj.weight").data[0] == 0xbac4); // -0.00150
  CHECK(w.get("model.norm.weight").data[0] == 0x3f76); // 0.9609

  Weights again = seededWeights(c, 42, 1);
  for (const auto &[name, t] : w.tensors())
    CHECK(again.get(name).data == t->data);
}

TEST_CASE("seeded: different seeds and tensors differ", "[qwen3][seeded]") {
  Qwen3Config c = tinyConfig();
  Weights a = seededWeights(c, 1), b = seededWeights(c, 2);
  const std::string q = "model.layers.0.self_attn.q_proj.weight";
  size_t same = 0;
  const auto &qa = a.get(q).data, &qb = b.get(q).data;
  for (size_t i = 0; i < qa.size(); ++i)
    same += qa[i] == qb[i];
  CHECK(same < qa.size() / 20); // equal bf16 by chance only
  // Same shape, same seed, different name: different values.
  CHECK(a.get("model.layers.0.self_attn.k_proj.weight").data !=
        a.get("model.layers.0.self_attn.v_proj.weight").data);
  CHECK(a.get("model.layers.0.mlp.gate_proj.weight").data !=
        a.get("model.layers.1.mlp.gate_proj.weight").data);
}

TEST_CASE("seeded: tied and untied lm_head", "[qwen3][seeded]") {
  Weights tied = seededWeights(tinyConfig(true), 3);
  CHECK(tied.shared("lm_head.weight") == tied.shared("model.embed_tokens.weight"));
  Weights untied = seededWeights(tinyConfig(false), 3);
  CHECK(untied.get("lm_head.weight").data != untied.get("model.embed_tokens.weight").data);
  std::string error;
  CHECK(tied.complete(error));
  CHECK(untied.complete(error));
}

TEST_CASE("seeded: statistics of matrices and norm weights", "[qwen3][seeded]") {
  auto stats = [](const Bf16Tensor &t, double center, double &mean, double &sd, double &within1) {
    double s = 0, s2 = 0;
    size_t in = 0;
    for (uint16_t v : t.data) {
      double x = bf16ToFloat(v);
      s += x;
      s2 += x * x;
    }
    mean = s / t.data.size();
    sd = std::sqrt(s2 / t.data.size() - mean * mean);
    for (uint16_t v : t.data)
      in += std::fabs(bf16ToFloat(v) - center) <= sd;
    within1 = double(in) / t.data.size();
  };
  double mean, sd, within1;
  Bf16Tensor m = seededTensor(matrix("model.layers.0.mlp.down_proj.weight", 512, 1024), 42);
  stats(m, 0.0, mean, sd, within1);
  CHECK(std::fabs(mean) < 2e-4);
  CHECK(std::fabs(sd - 0.02) < 3e-4);
  CHECK(std::fabs(within1 - 0.6827) < 0.01);
  double maxAbs = 0;
  for (uint16_t v : m.data)
    maxAbs = std::max(maxAbs, double(std::fabs(bf16ToFloat(v))));
  CHECK(maxAbs < 0.02 * 6.5);
  CHECK(maxAbs > 0.02 * 4.0);

  Bf16Tensor n = seededTensor({"model.norm.weight", {65536}, TensorKind::Norm}, 42);
  stats(n, 1.0, mean, sd, within1);
  CHECK(std::fabs(mean - 1.0) < 3e-3);
  CHECK(std::fabs(sd - 0.1) < 2e-3);
  CHECK(std::fabs(within1 - 0.6827) < 0.02);
}
