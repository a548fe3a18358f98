#include "qwen3/host/StageOracle.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/ReferenceOps.h"

#include <algorithm>
#include <cmath>

namespace rngd::qwen3::oracle {

namespace {

constexpr double kSumEpsilon = 6.25e-8; // added to the online-softmax sum, as the reference does

std::vector<float> toFloat(const Bits &b) {
  std::vector<float> f(b.size());
  for (size_t i = 0; i < b.size(); ++i)
    f[i] = bf16ToFloat(b[i]);
  return f;
}

Bits toBits(const std::vector<float> &f) {
  Bits b(f.size());
  for (size_t i = 0; i < f.size(); ++i)
    b[i] = floatToBf16(f[i]);
  return b;
}

float roundBf16(double v) { return bf16ToFloat(doubleToBf16(v)); }

/// RMSNorm(x) * weight rounded to bf16 (the kernels' normalised vectors are bf16).
std::vector<float> normBf16(const float *x, int n, const uint16_t *weight, double eps) {
  std::vector<float> out(n);
  ref::rmsNorm(x, n, weight, eps, out.data());
  for (float &v : out)
    v = roundBf16(v);
  return out;
}

std::vector<float> gemv(const Bf16Tensor &w, const std::vector<float> &x) {
  std::vector<float> y(w.shape[0]);
  ref::gemv(w, x.data(), y.data(), 2);
  return y;
}

} // namespace

void ropeFactors(const Qwen3Config &cfg, int position, Bits &cos, Bits &sin) {
  const int half = cfg.headDim / 2;
  cos.resize(half);
  sin.resize(half);
  for (int f = 0; f < half; ++f) {
    double angle = position * std::pow(cfg.ropeTheta, -2.0 * f / cfg.headDim);
    cos[f] = doubleToBf16(std::cos(angle));
    sin[f] = doubleToBf16(std::sin(angle));
  }
}

ProjectionOut projection(const Qwen3Config &cfg, const Bits &x, const Bf16Tensor &qWeight,
                         const Bf16Tensor &kWeight, const Bf16Tensor &vWeight,
                         const Bf16Tensor &inputRms, const Bf16Tensor &qRms,
                         const Bf16Tensor &kRms, int position, bool rawBf16) {
  const int d = cfg.headDim, half = d / 2;
  Bits cos, sin;
  ropeFactors(cfg, position, cos, sin);
  std::vector<float> xf = toFloat(x);
  std::vector<float> xn = normBf16(xf.data(), cfg.hiddenSize, inputRms.data.data(), cfg.rmsNormEps);
  auto headsWithRope = [&](const Bf16Tensor &w, const Bf16Tensor &rms) {
    std::vector<float> y = gemv(w, xn);
    if (rawBf16)
      for (float &v : y)
        v = roundBf16(v);
    std::vector<float> out(y.size());
    for (size_t h = 0; h < y.size() / d; ++h) {
      std::vector<float> n = normBf16(y.data() + h * d, d, rms.data.data(), cfg.rmsNormEps);
      for (int i = 0; i < d; ++i) {
        // rotate_half: [-x2, x1]; both halves turn by the angle of frequency i % half.
        double swapped = i < half ? -double(n[i + half]) : double(n[i - half]);
        out[h * d + i] = roundBf16(double(n[i]) * bf16ToFloat(cos[i % half]) +
                                   swapped * bf16ToFloat(sin[i % half]));
      }
    }
    return toBits(out);
  };
  ProjectionOut r;
  r.q = headsWithRope(qWeight, qRms);
  r.k = headsWithRope(kWeight, kRms);
  r.v = toBits(gemv(vWeight, xn));
  return r;
}

AttentionState attention(const Qwen3Config &cfg, const Bits &q, const Bits &k, const Bits &v,
                         const std::vector<float> &mask, const AttentionState *old) {
  const int n = cfg.numKvHeads, g = cfg.groups(), d = cfg.headDim, kv = cfg.kvDim();
  const int rows = static_cast<int>(mask.size());
  const double scale = 1.0 / std::sqrt(double(d));
  AttentionState s;
  s.max.resize(size_t(n) * g);
  s.sum.resize(size_t(n) * g);
  s.out.resize(size_t(n) * g * d);
  std::vector<double> scores(rows), e(rows);
  for (int head = 0; head < n; ++head)
    for (int gi = 0; gi < g; ++gi) {
      const int ng = head * g + gi;
      const uint16_t *qh = q.data() + size_t(ng) * d;
      double m = -INFINITY;
      for (int t = 0; t < rows; ++t) {
        const uint16_t *kt = k.data() + size_t(t) * kv + size_t(head) * d;
        double dot = 0;
        for (int i = 0; i < d; ++i)
          dot += double(bf16ToFloat(qh[i])) * bf16ToFloat(kt[i]);
        scores[t] = roundBf16(dot * scale);
        m = std::max(m, scores[t]); // the mask does not enter the max
      }
      double a = 1;
      if (old) {
        double mOld = old->max[ng];
        double mNew = std::max(m, mOld);
        a = float(std::exp(mOld - mNew));
        m = mNew;
      }
      double l = 0;
      for (int t = 0; t < rows; ++t) {
        e[t] = std::min(double(float(std::exp(scores[t] - m))), double(mask[t]));
        l += e[t];
      }
      l += kSumEpsilon;
      s.max[ng] = float(m);
      s.sum[ng] = float(old ? a * old->sum[ng] + l : l);
      for (int i = 0; i < d; ++i) {
        double o = 0;
        for (int t = 0; t < rows; ++t)
          o += double(roundBf16(e[t])) * bf16ToFloat(v[size_t(t) * kv + size_t(head) * d + i]);
        float fresh = roundBf16(o);
        s.out[size_t(ng) * d + i] =
            old ? doubleToBf16(double(roundBf16(a * bf16ToFloat(old->out[size_t(ng) * d + i]))) +
                               fresh)
                : floatToBf16(fresh);
      }
    }
  return s;
}

Bits decoder(const Qwen3Config &cfg, const Bits &attnOut, const std::vector<float> &sum,
             const Bits &rx, const Bf16Tensor &oWeight, const Bf16Tensor &postRms,
             const Bf16Tensor &upWeight, const Bf16Tensor &gateWeight,
             const Bf16Tensor &downWeight) {
  const int d = cfg.headDim;
  std::vector<float> a(attnOut.size());
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = roundBf16(double(bf16ToFloat(attnOut[i])) / sum[i / d]);
  std::vector<float> o = gemv(oWeight, a);
  std::vector<float> r(cfg.hiddenSize);
  for (int i = 0; i < cfg.hiddenSize; ++i)
    r[i] = roundBf16(double(bf16ToFloat(rx[i])) + o[i]);
  std::vector<float> h = normBf16(r.data(), cfg.hiddenSize, postRms.data.data(), cfg.rmsNormEps);
  std::vector<float> gate = gemv(gateWeight, h), up = gemv(upWeight, h);
  std::vector<float> p(gate.size());
  for (size_t i = 0; i < p.size(); ++i)
    p[i] = roundBf16(ref::silu(gate[i]) * up[i]);
  std::vector<float> down = gemv(downWeight, p);
  Bits out(cfg.hiddenSize);
  for (int i = 0; i < cfg.hiddenSize; ++i)
    out[i] = doubleToBf16(double(r[i]) + down[i]);
  return out;
}

std::vector<float> finalLayer(const Qwen3Config &cfg, const Bits &x, const Bf16Tensor &rms,
                              const Bf16Tensor &lmHead) {
  std::vector<float> xf = toFloat(x);
  std::vector<float> xn = normBf16(xf.data(), cfg.hiddenSize, rms.data.data(), cfg.rmsNormEps);
  std::vector<float> logits = gemv(lmHead, xn);
  for (float &l : logits)
    l = roundBf16(l);
  return logits;
}

void RuleCount::add(double expected, double actual) {
  double diff = std::fabs(expected - actual);
  double tolerance = std::max(0.01 * std::fabs(expected), 1.0 / 256);
  ++elements;
  if (diff <= tolerance) // NaN fails
    ++within;
  if (!(diff <= worstDiff)) {
    worstDiff = diff;
    worstExpected = expected;
    worstActual = actual;
  }
}

void RuleCount::add(const RuleCount &o) {
  elements += o.elements;
  within += o.within;
  if (!(o.worstDiff <= worstDiff)) {
    worstDiff = o.worstDiff;
    worstExpected = o.worstExpected;
    worstActual = o.worstActual;
  }
}

bool RuleCount::passes() const { return within * 1000 >= elements * 995; }

double RuleCount::percent() const { return elements ? 100.0 * within / elements : 100.0; }

RuleCount checkRule(const Bits &expected, const Bits &actual) {
  RuleCount c;
  for (size_t i = 0; i < expected.size(); ++i)
    c.add(bf16ToFloat(expected[i]), i < actual.size() ? bf16ToFloat(actual[i]) : NAN);
  return c;
}

RuleCount checkRule(const std::vector<float> &expected, const std::vector<float> &actual) {
  RuleCount c;
  for (size_t i = 0; i < expected.size(); ++i)
    c.add(expected[i], i < actual.size() ? actual[i] : NAN);
  return c;
}

} // namespace rngd::qwen3::oracle
