// The whole-model reference decode on the tiny model against a straightforward double-precision
// implementation written here from the HF Qwen3 definition (no code shared with the library),
// plus softmax, GQA and KV-cache invariants from the trace.
#include "Helpers.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/Reference.h"
#include "qwen3/host/SeededWeights.h"

#include <cmath>
#include <limits>

using namespace rngd::qwen3;
using namespace rngd::qwen3::test;
using Vec = std::vector<double>;

namespace {

// HF Qwen3ForCausalLM, one token at a time, everything in double.
class DoubleQwen3 {
public:
  DoubleQwen3(const Qwen3Config &c, const Weights &w) : c_(c), w_(w), k_(c.numLayers), v_(c.numLayers) {}

  Vec residualAfterLayer0; // for a one-layer comparison

  Vec step(int token, int pos) {
    const int H = c_.hiddenSize, D = c_.headDim;
    Vec x(H);
    for (int i = 0; i < H; ++i)
      x[i] = bf(w_.get("model.embed_tokens.weight").data[size_t(token) * H + i]);
    for (int l = 0; l < c_.numLayers; ++l) {
      auto W = [&](const std::string &s) -> const Bf16Tensor & { return w_.get(layerTensorName(l, s)); };
      Vec h = norm(x, W("input_layernorm.weight"));
      Vec q = linear(W("self_attn.q_proj.weight"), h);
      Vec k = linear(W("self_attn.k_proj.weight"), h);
      Vec v = linear(W("self_attn.v_proj.weight"), h);
      for (int hd = 0; hd < c_.numHeads; ++hd)
        headNormRope(q, hd, W("self_attn.q_norm.weight"), pos);
      for (int hd = 0; hd < c_.numKvHeads; ++hd)
        headNormRope(k, hd, W("self_attn.k_norm.weight"), pos);
      k_[l].push_back(k);
      v_[l].push_back(v);
      // Scores over a window of pos + 3 slots: slots after pos are masked with -inf.
      Vec attn(c_.qDim(), 0.0);
      const int G = c_.numHeads / c_.numKvHeads, slots = pos + 3;
      for (int hd = 0; hd < c_.numHeads; ++hd) {
        const int kv = hd / G;
        Vec s(slots);
        for (int j = 0; j < slots; ++j) {
          if (j > pos) {
            s[j] = -std::numeric_limits<double>::infinity();
            continue;
          }
          double dot = 0;
          for (int d = 0; d < D; ++d)
            dot += q[hd * D + d] * k_[l][j][kv * D + d];
          s[j] = dot / std::sqrt(double(D));
        }
        double m = *std::max_element(s.begin(), s.end()), sum = 0;
        for (double &e : s)
          sum += (e = std::exp(e - m));
        for (int j = 0; j <= pos; ++j)
          for (int d = 0; d < D; ++d)
            attn[hd * D + d] += s[j] / sum * v_[l][j][kv * D + d];
      }
      Vec o = linear(W("self_attn.o_proj.weight"), attn);
      for (int i = 0; i < H; ++i)
        x[i] += o[i];
      h = norm(x, W("post_attention_layernorm.weight"));
      Vec g = linear(W("mlp.gate_proj.weight"), h), u = linear(W("mlp.up_proj.weight"), h);
      for (size_t i = 0; i < g.size(); ++i)
        g[i] = g[i] / (1 + std::exp(-g[i])) * u[i];
      Vec dn = linear(W("mlp.down_proj.weight"), g);
      for (int i = 0; i < H; ++i)
        x[i] += dn[i];
      if (l == 0)
        residualAfterLayer0 = x;
    }
    return linear(w_.get("lm_head.weight"), norm(x, w_.get("model.norm.weight")));
  }

private:
  static double bf(uint16_t b) { return bf16ToFloat(b); }

  Vec linear(const Bf16Tensor &w, const Vec &x) const {
    const size_t rows = w.shape[0], cols = w.shape[1];
    Vec y(rows, 0.0);
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c)
        y[r] += bf(w.data[r * cols + c]) * x[c];
    return y;
  }

  Vec norm(const Vec &x, const Bf16Tensor &w) const {
    double ms = 0;
    for (double v : x)
      ms += v * v / x.size();
    Vec y(x.size());
    for (size_t i = 0; i < x.size(); ++i)
      y[i] = bf(w.data[i]) * (x[i] / std::sqrt(ms + c_.rmsNormEps));
    return y;
  }

  // q_norm / k_norm over the head, then RoPE written with rotate_half as in HF.
  void headNormRope(Vec &t, int head, const Bf16Tensor &w, int pos) const {
    const int D = c_.headDim, half = D / 2;
    Vec x(t.begin() + head * D, t.begin() + (head + 1) * D);
    x = norm(x, w);
    Vec rot(D), cosv(D), sinv(D);
    for (int i = 0; i < D; ++i) {
      rot[i] = i < half ? -x[i + half] : x[i - half];
      double invFreq = 1.0 / std::pow(c_.ropeTheta, double(2 * (i % half)) / D);
      cosv[i] = std::cos(pos * invFreq);
      sinv[i] = std::sin(pos * invFreq);
    }
    for (int i = 0; i < D; ++i)
      t[head * D + i] = x[i] * cosv[i] + rot[i] * sinv[i];
  }

  Qwen3Config c_;
  const Weights &w_;
  std::vector<std::vector<Vec>> k_, v_;
};

double maxRelErr(const std::vector<float> &got, const Vec &want) {
  double worst = 0, scale = 0;
  for (double v : want)
    scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::fabs(got[i] - want[i]) / scale);
  return worst;
}

} // namespace

TEST_CASE("reference decoder: one layer against a double-precision model", "[qwen3][reference]") {
  Qwen3Config c = tinyConfig();
  c.numLayers = 1;
  Weights w = seededWeights(c, 21);
  ReferenceDecoder ref(c, w);
  ref.setTrace(true);
  DoubleQwen3 exact(c, w);
  const int tokens[] = {7, 42, 99, 0, 42};
  for (int pos = 0; pos < 5; ++pos) {
    std::vector<float> logits = ref.step(tokens[pos], pos);
    Vec want = exact.step(tokens[pos], pos);
    REQUIRE(logits.size() == 100);
    INFO("position " << pos);
    CHECK(maxRelErr(logits, want) < 1e-5);
    CHECK(maxRelErr(ref.trace().layers[0].residual, exact.residualAfterLayer0) < 1e-5);
  }
}

TEST_CASE("reference decoder: two layers, tied lm_head, several positions", "[qwen3][reference]") {
  Qwen3Config c = tinyConfig(true);
  Weights w = seededWeights(c, 22);
  ReferenceDecoder ref(c, w, 2);
  DoubleQwen3 exact(c, w);
  std::vector<float> first;
  for (int pos = 0; pos < 8; ++pos) {
    int token = (pos * 37 + 5) % 100;
    std::vector<float> logits = ref.step(token, pos);
    if (pos == 0)
      first = logits;
    INFO("position " << pos);
    CHECK(maxRelErr(logits, exact.step(token, pos)) < 1e-5);
  }
  CHECK(ref.length() == 8);
  // reset empties the cache: the first step repeats bit for bit.
  ref.reset();
  CHECK(ref.step(5, 0) == first);
}

TEST_CASE("reference decoder: softmax rows, GQA mapping and the KV cache", "[qwen3][reference]") {
  Qwen3Config c = tinyConfig();
  Weights w = seededWeights(c, 23);
  ReferenceDecoder ref(c, w);
  ref.setTrace(true);
  for (int pos = 0; pos < 4; ++pos)
    ref.step(10 + pos, pos);
  const int D = c.headDim, P = c.kvDim(), len = 4;
  for (int layer = 0; layer < c.numLayers; ++layer) {
    const LayerTrace &t = ref.trace().layers[layer];
    REQUIRE(t.probs.size() == size_t(c.numHeads * len));
    for (int h = 0; h < c.numHeads; ++h) {
      double sum = 0;
      for (int j = 0; j < len; ++j) {
        CHECK(t.probs[h * len + j] > 0.0f);
        sum += t.probs[h * len + j];
      }
      CHECK(sum == Approx(1.0).epsilon(1e-6));
    }
    // The cache's last row is this step's k and v.
    const auto &keys = ref.keyCache(layer), &values = ref.valueCache(layer);
    REQUIRE(keys.size() == size_t(len * P));
    CHECK(std::vector<float>(keys.end() - P, keys.end()) == t.k);
    CHECK(std::vector<float>(values.end() - P, values.end()) == t.v);
    // q head h attends with kv head h / 2: recompute with the cache and compare; kv head
    // (h / 2 + 1) % 2 gives a different answer, so a wrong mapping fails here.
    for (int h = 0; h < c.numHeads; ++h) {
      auto attend = [&](int kv) {
        Vec s(len), out(D, 0.0);
        double m = -1e300, sum = 0;
        for (int j = 0; j < len; ++j) {
          double dot = 0;
          for (int d = 0; d < D; ++d)
            dot += double(t.q[h * D + d]) * keys[j * P + kv * D + d];
          s[j] = dot / std::sqrt(double(D));
          m = std::max(m, s[j]);
        }
        for (double &e : s)
          sum += (e = std::exp(e - m));
        for (int j = 0; j < len; ++j)
          for (int d = 0; d < D; ++d)
            out[d] += s[j] / sum * values[j * P + kv * D + d];
        return out;
      };
      std::vector<float> got(t.attn.begin() + h * D, t.attn.begin() + (h + 1) * D);
      CHECK(maxRelErr(got, attend(h / 2)) < 1e-6);
      CHECK(maxRelErr(got, attend((h / 2 + 1) % 2)) > 1e-3);
    }
  }
}

TEST_CASE("reference decoder: misuse is reported", "[qwen3][reference]") {
  Qwen3Config c = tinyConfig();
  Weights w = seededWeights(c, 24);
  ReferenceDecoder ref(c, w);
  CHECK_THROWS_WITH(ref.step(3, 1), Catch::Contains("position 1"));
  CHECK_THROWS_WITH(ref.step(100, 0), Catch::Contains("token 100"));
  CHECK_THROWS_WITH(ref.step(-1, 0), Catch::Contains("token -1"));
  ref.step(3, 0);
  CHECK_THROWS(ref.step(3, 0));
  Weights partial(c);
  CHECK_THROWS_WITH(ReferenceDecoder(c, partial), Catch::Contains("missing weight tensor"));
  Qwen3Config other = c;
  other.numLayers = 1;
  CHECK_THROWS_WITH(ReferenceDecoder(other, w), Catch::Contains("another config"));
}

TEST_CASE("reference decoder: full Qwen3-0.6B step (slow, run with [full])", "[.][full][qwen3]") {
  Qwen3Config c; // 28 layers
  Weights w = seededWeights(c, kDefaultSeed);
  ReferenceDecoder ref(c, w);
  for (int pos = 0; pos < 2; ++pos) {
    std::vector<float> logits = ref.step(pos == 0 ? 151643 : 1000, pos);
    REQUIRE(logits.size() == 151936);
    size_t finite = 0;
    for (float v : logits)
      finite += std::isfinite(v);
    CHECK(finite == logits.size());
  }
}
