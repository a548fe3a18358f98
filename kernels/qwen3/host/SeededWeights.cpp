// Built with -ffp-contract=off (see CMakeLists.txt): no fused multiply-add may change the bits.
#include "qwen3/host/SeededWeights.h"

#include "qwen3/host/Bf16.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace rngd::qwen3 {

namespace {

constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ull;
constexpr double kTwoPow53 = 1.0 / 9007199254740992.0; // 2^-53
constexpr double kLn2 = 0.69314718055994530942;
constexpr double kPiOver4 = 0.78539816339744830962;
constexpr double kSqrtHalf = 0.70710678118654752440;

// ln(x) for x > 0 by a slower series: x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s),
// s = (m - 1)/(m + 1), |s| <= 0.1716; eleven odd terms leave a relative error below 1e-16.
// Only used to build the table below.
double seriesLog(double x) {
  int e = 0;
  double m = std::frexp(x, &e); // exact
  if (m < kSqrtHalf) {
    m *= 2.0;
    e -= 1;
  }
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s;
  double p = 1.0 / 21.0;
  p = p * s2 + 1.0 / 19.0;
  p = p * s2 + 1.0 / 17.0;
  p = p * s2 + 1.0 / 15.0;
  p = p * s2 + 1.0 / 13.0;
  p = p * s2 + 1.0 / 11.0;
  p = p * s2 + 1.0 / 9.0;
  p = p * s2 + 1.0 / 7.0;
  p = p * s2 + 1.0 / 5.0;
  p = p * s2 + 1.0 / 3.0;
  p = p * s2 + 1.0;
  return double(e) * kLn2 + 2.0 * s * p;
}

// 1/c_j and ln(1/c_j) for the centres c_j = 1 + (j + 1/2)/1024 of the mantissa intervals.
struct LogTable {
  double recip[1024], logRecip[1024];
  LogTable() {
    for (int j = 0; j < 1024; ++j) {
      recip[j] = 1.0 / (1.0 + (j + 0.5) / 1024.0);
      logRecip[j] = seriesLog(recip[j]);
    }
  }
};

const LogTable &logTable() {
  static const LogTable table;
  return table;
}

// ln(x) for a positive normal double: x = m 2^e with m in [1, 2) taken from the bits;
// ln m = ln(m r_j) - ln(r_j) with |m r_j - 1| < 2^-11, ln(1 + t) by six Taylor terms
// (relative error below 2^-60).
inline double portableLog(double x, const LogTable &table) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int e = int((bits >> 52) & 0x7ff) - 1023;
  int j = int((bits >> 42) & 1023);
  uint64_t mbits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  double m;
  std::memcpy(&m, &mbits, sizeof m);
  double t = m * table.recip[j] - 1.0;
  double p = 1.0 / 6.0; // ln(1 + t) = t (1 - t (1/2 - t (1/3 - ... t/6)))
  p = 1.0 / 5.0 - t * p;
  p = 1.0 / 4.0 - t * p;
  p = 1.0 / 3.0 - t * p;
  p = 1.0 / 2.0 - t * p;
  p = 1.0 - t * p;
  return double(e) * kLn2 + (t * p - table.logRecip[j]);
}

// sin and cos of a in [0, pi/4] by Taylor series (remainders below 5e-17 and 2e-18).
inline void sinCosSmall(double a, double &s, double &c) {
  double a2 = a * a;
  double ps = -1.0 / 1307674368000.0;     // -1/15!
  ps = ps * a2 + 1.0 / 6227020800.0;       // 1/13!
  ps = ps * a2 - 1.0 / 39916800.0;         // 1/11!
  ps = ps * a2 + 1.0 / 362880.0;           // 1/9!
  ps = ps * a2 - 1.0 / 5040.0;             // 1/7!
  ps = ps * a2 + 1.0 / 120.0;              // 1/5!
  ps = ps * a2 - 1.0 / 6.0;                // 1/3!
  s = a + a * a2 * ps;
  double pc = -1.0 / 20922789888000.0;    // -1/16!
  pc = pc * a2 + 1.0 / 87178291200.0;     // 1/14!
  pc = pc * a2 - 1.0 / 479001600.0;       // 1/12!
  pc = pc * a2 + 1.0 / 3628800.0;         // 1/10!
  pc = pc * a2 - 1.0 / 40320.0;           // 1/8!
  pc = pc * a2 + 1.0 / 720.0;             // 1/6!
  pc = pc * a2 - 1.0 / 24.0;              // 1/4!
  pc = pc * a2 + 0.5;                     // 1/2!
  c = 1.0 - a2 * pc;
}

// sin and cos of 2 pi u for u in [0, 1): octant k = floor(8u), exact remainder f = 8u - k.
// Even octants use angle = q pi/2 + f pi/4, odd ones angle = (q+1) pi/2 - (1 - f) pi/4; the
// quarter turns are applied by exact multiplications with 0/+-1 (branch-free: the octant is
// random, so branches would mispredict).
inline void sinCosTurn(double u, double &sinOut, double &cosOut) {
  static constexpr double kSinS[4] = {1, 0, -1, 0}, kSinC[4] = {0, 1, 0, -1};
  static constexpr double kCosS[4] = {0, -1, 0, 1}, kCosC[4] = {1, 0, -1, 0};
  double u8 = u * 8.0; // exact
  int k = int(u8);
  double f = u8 - double(k); // exact
  int odd = k & 1;
  double g = f + double(odd) * (1.0 - 2.0 * f); // f, or 1 - f when odd (exact)
  double s, c;
  sinCosSmall(g * kPiOver4, s, c);
  s = s * double(1 - 2 * odd);
  int q = ((k >> 1) + odd) & 3;
  sinOut = kSinS[q] * s + kSinC[q] * c;
  cosOut = kCosS[q] * s + kCosC[q] * c;
}

uint64_t streamKey(uint64_t seed, const std::string &name) {
  return splitmix64(splitmix64(seed) ^ fnv1a64(name));
}

// Box-Muller radius sqrt(-2 ln u1) with u1 = ((w >> 11) + 1) 2^-53 in (0, 1].
inline double radius(uint64_t w, const LogTable &table) {
  double u1 = double((w >> 11) + 1) * kTwoPow53;
  double l = portableLog(u1, table);
  return l < 0 ? std::sqrt(-2.0 * l) : 0.0;
}

double normalFromKey(uint64_t key, uint64_t index) {
  uint64_t p = index >> 1;
  uint64_t w1 = splitmix64(key + (2 * p) * kGamma);
  uint64_t w2 = splitmix64(key + (2 * p + 1) * kGamma);
  double r = radius(w1, logTable());
  double s, c;
  sinCosTurn(double(w2 >> 11) * kTwoPow53, s, c);
  return r * ((index & 1) ? s : c);
}

void scale(TensorKind kind, double &mean, double &stddev) {
  if (kind == TensorKind::Norm) {
    mean = 1.0;
    stddev = 0.1;
  } else {
    mean = 0.0;
    stddev = 0.02;
  }
}

// Elements [begin, end) of one tensor; pairs share their two uniforms.
void fillRange(uint64_t key, TensorKind kind, uint16_t *out, size_t begin, size_t end) {
  double mean, stddev;
  scale(kind, mean, stddev);
  size_t i = begin;
  if (i < end && (i & 1)) {
    out[i] = doubleToBf16(mean + stddev * normalFromKey(key, i));
    ++i;
  }
  // Whole pairs in blocks, one stage per loop so that independent pairs overlap in the CPU
  // (each stage is a long dependent chain). Same arithmetic as normalFromKey.
  constexpr size_t kBlock = 64;
  double r[kBlock], c[kBlock], s[kBlock];
  const LogTable &table = logTable();
  while (i + 1 < end) {
    const size_t pairs = std::min(kBlock, (end - i) / 2);
    const uint64_t p0 = i >> 1;
    for (size_t k = 0; k < pairs; ++k)
      r[k] = radius(splitmix64(key + (2 * (p0 + k)) * kGamma), table);
    for (size_t k = 0; k < pairs; ++k)
      sinCosTurn(double(splitmix64(key + (2 * (p0 + k) + 1) * kGamma) >> 11) * kTwoPow53, s[k], c[k]);
    for (size_t k = 0; k < pairs; ++k) {
      out[i + 2 * k] = doubleToBf16(mean + stddev * (r[k] * c[k]));
      out[i + 2 * k + 1] = doubleToBf16(mean + stddev * (r[k] * s[k]));
    }
    i += 2 * pairs;
  }
  if (i < end)
    out[i] = doubleToBf16(mean + stddev * normalFromKey(key, i));
}

struct Job {
  uint64_t key;
  TensorKind kind;
  uint16_t *out;
  size_t begin, end;
};

void runJobs(const std::vector<Job> &jobs, int threads) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t j; (j = next.fetch_add(1)) < jobs.size();)
      fillRange(jobs[j].key, jobs[j].kind, jobs[j].out, jobs[j].begin, jobs[j].end);
  };
  int n = std::max(1, threads);
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t)
    pool.emplace_back(worker);
  worker();
  for (auto &t : pool)
    t.join();
}

void addJobs(std::vector<Job> &jobs, uint64_t key, TensorKind kind, uint16_t *out, size_t n) {
  constexpr size_t kChunk = size_t(1) << 20; // even, so chunks start on pair boundaries
  for (size_t b = 0; b < n; b += kChunk)
    jobs.push_back({key, kind, out, b, std::min(n, b + kChunk)});
}

} // namespace

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + kGamma;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(const std::string &name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : name) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  return h;
}

double seededNormal(uint64_t seed, const std::string &name, uint64_t index) {
  return normalFromKey(streamKey(seed, name), index);
}

uint16_t seededValue(uint64_t seed, const TensorSpec &spec, uint64_t index) {
  double mean, stddev;
  scale(spec.kind, mean, stddev);
  return doubleToBf16(mean + stddev * seededNormal(seed, spec.name, index));
}

Bf16Tensor seededTensor(const TensorSpec &spec, uint64_t seed, int threads) {
  Bf16Tensor t;
  t.shape = spec.shape;
  t.data.resize(t.numel());
  std::vector<Job> jobs;
  addJobs(jobs, streamKey(seed, spec.name), spec.kind, t.data.data(), t.data.size());
  runJobs(jobs, threads);
  return t;
}

Weights seededWeights(const Qwen3Config &config, uint64_t seed, int threads) {
  Weights weights(config);
  std::vector<std::pair<std::string, std::shared_ptr<Bf16Tensor>>> made;
  std::vector<Job> jobs;
  for (const TensorSpec &spec : expectedTensors(config)) {
    if (spec.name == "lm_head.weight" && config.tieWordEmbeddings)
      continue;
    auto t = std::make_shared<Bf16Tensor>();
    t->shape = spec.shape;
    t->data.resize(t->numel());
    addJobs(jobs, streamKey(seed, spec.name), spec.kind, t->data.data(), t->data.size());
    made.emplace_back(spec.name, std::move(t));
  }
  runJobs(jobs, threads);
  std::string error;
  for (auto &[name, t] : made)
    if (!weights.set(name, std::shared_ptr<const Bf16Tensor>(std::move(t)), error))
      throw std::logic_error(error); // cannot happen: shapes come from expectedTensors
  if (config.tieWordEmbeddings)
    weights.set("lm_head.weight", weights.shared("model.embed_tokens.weight"), error);
  return weights;
}

} // namespace rngd::qwen3
