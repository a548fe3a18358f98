#include "qwen3/host/ReferenceOps.h"

#include "qwen3/host/Bf16.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

namespace rngd::qwen3::ref {

namespace {

// Eight independent double accumulators (products are exact), summed pairwise at the end.
double dotBf16(const uint16_t *w, const float *x, int n) {
  double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int k = 0;
  for (; k + 8 <= n; k += 8)
    for (int l = 0; l < 8; ++l)
      acc[l] += double(bf16ToFloat(w[k + l])) * double(x[k + l]);
  for (; k < n; ++k)
    acc[k % 8] += double(bf16ToFloat(w[k])) * double(x[k]);
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

} // namespace

void rmsNorm(const float *x, int n, const uint16_t *weight, double eps, float *out) {
  double ss = 0;
  for (int i = 0; i < n; ++i)
    ss += double(x[i]) * double(x[i]);
  double inv = 1.0 / std::sqrt(ss / n + eps);
  for (int i = 0; i < n; ++i)
    out[i] = float(double(bf16ToFloat(weight[i])) * (double(x[i]) * inv));
}

void applyRope(float *head, int headDim, int position, double theta) {
  const int half = headDim / 2;
  for (int i = 0; i < half; ++i) {
    double invFreq = std::pow(theta, -2.0 * i / headDim);
    double angle = double(position) * invFreq;
    double c = std::cos(angle), s = std::sin(angle);
    double x1 = head[i], x2 = head[i + half];
    head[i] = float(x1 * c + (-x2) * s);
    head[i + half] = float(x2 * c + x1 * s);
  }
}

std::vector<double> softmax(const std::vector<double> &scores) {
  double m = -std::numeric_limits<double>::infinity();
  for (double s : scores)
    m = std::max(m, s);
  std::vector<double> p(scores.size(), 0.0);
  if (m == -std::numeric_limits<double>::infinity())
    return p; // everything masked
  double sum = 0;
  for (size_t j = 0; j < scores.size(); ++j) {
    p[j] = std::exp(scores[j] - m); // exp(-inf) = 0
    sum += p[j];
  }
  for (double &v : p)
    v /= sum;
  return p;
}

double silu(double x) { return x / (1.0 + std::exp(-x)); }

void gemv(const Bf16Tensor &w, const float *x, float *y, int threads) {
  const int rows = int(w.shape[0]), cols = int(w.shape[1]);
  const uint16_t *base = w.data.data();
  auto run = [&](int r0, int r1) {
    for (int r = r0; r < r1; ++r)
      y[r] = float(dotBf16(base + size_t(r) * cols, x, cols));
  };
  int n = std::max(1, threads);
  if (n == 1 || size_t(rows) * cols < (size_t(1) << 18)) {
    run(0, rows);
    return;
  }
  std::vector<std::thread> pool;
  int per = (rows + n - 1) / n;
  for (int t = 1; t < n; ++t)
    pool.emplace_back(run, std::min(rows, t * per), std::min(rows, (t + 1) * per));
  run(0, std::min(rows, per));
  for (auto &t : pool)
    t.join();
}

void attendOneHead(const float *q, const std::vector<float> &keys, const std::vector<float> &values,
                   int cacheLength, int kvDim, int kvHead, int headDim, int position, float *out,
                   std::vector<float> *probs) {
  const double scale = 1.0 / std::sqrt(double(headDim));
  std::vector<double> scores(cacheLength);
  for (int j = 0; j < cacheLength; ++j) {
    if (j > position) {
      scores[j] = -std::numeric_limits<double>::infinity();
      continue;
    }
    const float *k = keys.data() + size_t(j) * kvDim + size_t(kvHead) * headDim;
    double dot = 0;
    for (int d = 0; d < headDim; ++d)
      dot += double(q[d]) * double(k[d]);
    scores[j] = dot * scale;
  }
  std::vector<double> p = softmax(scores);
  std::vector<double> acc(headDim, 0.0);
  for (int j = 0; j < cacheLength; ++j) {
    if (p[j] == 0)
      continue;
    const float *v = values.data() + size_t(j) * kvDim + size_t(kvHead) * headDim;
    for (int d = 0; d < headDim; ++d)
      acc[d] += p[j] * double(v[d]);
  }
  for (int d = 0; d < headDim; ++d)
    out[d] = float(acc[d]);
  if (probs)
    probs->assign(p.begin(), p.end());
}

} // namespace rngd::qwen3::ref
