// The per-boundary oracle (StageOracle.h): the reference rule at its limits, attention against
// hand-computed softmax values (masking, the max over masked keys), online-softmax folding
// against one pass over the joined chunks, and final_layer on a 2-wide model.
#include "Helpers.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/StageOracle.h"

#include <cmath>

using namespace rngd::qwen3;
using namespace rngd::qwen3::oracle;
using Catch::Detail::Approx;

namespace {

Bits bits(std::initializer_list<float> values) {
  Bits b;
  for (float v : values)
    b.push_back(floatToBf16(v));
  return b;
}

float bf(double v) { return bf16ToFloat(doubleToBf16(v)); }

/// One kv head of dimension 2 shared by two q heads.
Qwen3Config attentionConfig() {
  Qwen3Config c;
  c.numHeads = 2;
  c.numKvHeads = 1;
  c.headDim = 2;
  return c;
}

} // namespace

TEST_CASE("stage oracle: the reference rule at its limits", "[qwen3][oracle]") {
  RuleCount c;
  c.add(0.25, 0.25 + 1.0 / 256); // small values: the 2^-8 floor, at the limit
  CHECK(c.within == 1);
  c.add(0.25, 0.25 + 1.0 / 256 + 1.0 / (1 << 20)); // one past it
  CHECK(c.within == 1);
  c.add(25600, 25856); // large values: 1 % of |expected| = 256, at the limit
  c.add(25600, 25857); // one past
  c.add(1, NAN);       // NaN never passes
  CHECK(c.elements == 5);
  CHECK(c.within == 2);
  CHECK(std::isnan(c.worstActual)); // a NaN is the worst difference

  RuleCount limit;
  limit.elements = 200;
  limit.within = 199; // 99.5 %
  CHECK(limit.passes());
  limit.elements = 1000;
  limit.within = 994; // 99.4 %
  CHECK_FALSE(limit.passes());
  limit.within = 995;
  CHECK(limit.passes());
  CHECK(limit.percent() == Approx(99.5));
}

TEST_CASE("stage oracle: attention over one chunk", "[qwen3][oracle]") {
  Qwen3Config cfg = attentionConfig();
  Bits q = bits({1, 0, 0, 1});     // q heads [1, 0] and [0, 1]
  Bits k = bits({1, 0, 0, 1});     // keys t0 = [1, 0], t1 = [0, 1]
  Bits v = bits({2, 0, 0, 4});     // values t0 = [2, 0], t1 = [0, 4]
  const double s = bf(1 / std::sqrt(2.0)); // the score of a matching key, rounded to bf16

  SECTION("no mask") {
    AttentionState a = attention(cfg, q, k, v, {1, 1}, nullptr);
    double e = float(std::exp(-s));
    CHECK(a.max[0] == float(s));
    CHECK(a.max[1] == float(s));
    CHECK(a.sum[0] == float(1 + e + 6.25e-8));
    CHECK(bf16ToFloat(a.out[0]) == bf(2.0));     // head 0: 1 x [2, 0] + e x [0, 4]
    CHECK(bf16ToFloat(a.out[1]) == bf(4 * bf(e)));
    CHECK(bf16ToFloat(a.out[2]) == bf(2 * bf(e))); // head 1: e x [2, 0] + 1 x [0, 4]
    CHECK(bf16ToFloat(a.out[3]) == bf(4.0));
  }
  SECTION("a masked key still enters the max, not the sum") {
    AttentionState a = attention(cfg, q, k, v, {1, 0}, nullptr);
    CHECK(a.max[1] == float(s)); // head 1's best key t1 is masked
    double e = float(std::exp(-s));
    CHECK(a.sum[1] == float(e + 6.25e-8));
    CHECK(bf16ToFloat(a.out[2]) == bf(2 * bf(e)));
    CHECK(bf16ToFloat(a.out[3]) == 0.0f);
  }
}

TEST_CASE("stage oracle: folding a chunk equals one pass over both", "[qwen3][oracle]") {
  Qwen3Config cfg = attentionConfig();
  Bits q = bits({0.5f, -1.25f, 2.0f, 0.75f});
  Bits k1 = bits({1, 2, -1, 0.5f}), v1 = bits({0.25f, 1, -2, 3});
  Bits k2 = bits({3, -1, 0.125f, 2}), v2 = bits({1.5f, -0.5f, 2, 2});
  AttentionState first = attention(cfg, q, k1, v1, {1, 1}, nullptr);
  AttentionState folded = attention(cfg, q, k2, v2, {1, 1}, &first);
  Bits k = k1, v = v1;
  k.insert(k.end(), k2.begin(), k2.end());
  v.insert(v.end(), v2.begin(), v2.end());
  AttentionState whole = attention(cfg, q, k, v, {1, 1, 1, 1}, nullptr);
  for (int h = 0; h < 2; ++h) {
    CHECK(folded.max[h] == whole.max[h]);
    // The fold adds the 6.25e-8 once per chunk and rounds its parts to bf16.
    CHECK(folded.sum[h] == Approx(whole.sum[h]).epsilon(1e-6));
  }
  RuleCount c = checkRule(whole.out, folded.out);
  CHECK(c.within == 4);
}

TEST_CASE("stage oracle: final_layer on a 2-wide model", "[qwen3][oracle]") {
  Qwen3Config cfg;
  cfg.hiddenSize = 2;
  Bf16Tensor rms{{2}, bits({1, 2})};
  Bf16Tensor head{{3, 2}, bits({1, 0, 0, 1, 1, 1})};
  std::vector<float> logits = finalLayer(cfg, bits({3, 4}), rms, head);
  // x / sqrt(12.5 + 1e-6) x [1, 2] = [0.8485, 2.2627] in bf16, then the rows.
  double inv = 1 / std::sqrt(12.5 + 1e-6);
  float x0 = bf(3 * inv), x1 = bf(2 * (4 * inv));
  REQUIRE(logits.size() == 3);
  CHECK(logits[0] == x0);
  CHECK(logits[1] == x1);
  CHECK(logits[2] == bf(double(x0) + x1));
}
