// Reference building blocks against hand-computed values: RMSNorm, RoPE (identity at position 0,
// a known rotation, HF sign convention), softmax with -inf masking, silu, threaded GEMV.
#include "Helpers.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/ReferenceOps.h"
#include "qwen3/host/SeededWeights.h"

#include <cmath>
#include <limits>

using namespace rngd::qwen3;
using namespace rngd::qwen3::test;
using Catch::Detail::Approx;

TEST_CASE("reference ops: RMSNorm", "[qwen3][reference]") {
  // x = [3, 4]: mean(x^2) = 12.5, rms = 3.5355339.
  std::vector<float> x = {3, 4}, out(2);
  std::vector<uint16_t> ones = {0x3f80, 0x3f80}, w = {0x4000, 0xbf00}; // [2, -0.5]
  ref::rmsNorm(x.data(), 2, ones.data(), 0.0, out.data());
  CHECK(out[0] == Approx(0.8485281374).epsilon(1e-7));
  CHECK(out[1] == Approx(1.1313708499).epsilon(1e-7));
  ref::rmsNorm(x.data(), 2, w.data(), 0.0, out.data());
  CHECK(out[0] == Approx(1.6970562748).epsilon(1e-7));
  CHECK(out[1] == Approx(-0.5656854249).epsilon(1e-7));
  // eps matters for small inputs: x = [1e-3, 1e-3], eps 1e-6 -> 1e-3 / sqrt(2e-6).
  x = {1e-3f, 1e-3f};
  ref::rmsNorm(x.data(), 2, ones.data(), 1e-6, x.data()); // in place
  CHECK(x[0] == Approx(1e-3 / std::sqrt(2e-6)).epsilon(1e-6));
}

TEST_CASE("reference ops: RoPE", "[qwen3][reference]") {
  SECTION("position 0 is the identity") {
    std::vector<float> h = {0.5f, -1.25f, 2.0f, 3.5f, -0.75f, 1.0f, 8.0f, -2.0f}, orig = h;
    ref::applyRope(h.data(), 8, 0, 1e6);
    CHECK(h == orig);
  }
  SECTION("known rotation, D = 4, theta = 1e6, position 1") {
    // Frequencies theta^(-2i/4): i = 0 -> 1, i = 1 -> 1e-3. Pairs (x0, x2) and (x1, x3).
    std::vector<float> h = {1, 2, 3, 4};
    ref::applyRope(h.data(), 4, 1, 1e6);
    const double c1 = 0.5403023058681398, s1 = 0.8414709848078965;
    const double c2 = 0.9999995000000417, s2 = 0.0009999998333333417;
    CHECK(h[0] == Approx(1 * c1 - 3 * s1).epsilon(1e-7)); // -1.98410665...
    CHECK(h[1] == Approx(2 * c2 - 4 * s2).epsilon(1e-7));
    CHECK(h[2] == Approx(3 * c1 + 1 * s1).epsilon(1e-7));
    CHECK(h[3] == Approx(4 * c2 + 2 * s2).epsilon(1e-7));
    CHECK(h[0] == Approx(-1.9841106).epsilon(1e-6));
    CHECK(h[2] == Approx(2.4623779).epsilon(1e-6));
  }
  SECTION("sign convention: rotate_half(x) = [-x2, x1]") {
    // A unit vector in the first half rotates into the second half with +sin.
    std::vector<float> h = {1, 0, 0, 0};
    ref::applyRope(h.data(), 4, 1, 1e6);
    CHECK(h[0] == Approx(std::cos(1.0)));
    CHECK(h[2] == Approx(std::sin(1.0)));
    CHECK(h[1] == 0.0f);
    CHECK(h[3] == 0.0f);
    // And one in the second half rotates into the first with -sin.
    h = {0, 0, 1, 0};
    ref::applyRope(h.data(), 4, 1, 1e6);
    CHECK(h[0] == Approx(-std::sin(1.0)));
    CHECK(h[2] == Approx(std::cos(1.0)));
  }
  SECTION("head dim 128 at position 1000: norms of pairs preserved, angle of pair i") {
    std::vector<float> h(128, 0.0f);
    h[10] = 1.0f; // pair 10: angle = 1000 * 1e6^(-20/128)
    ref::applyRope(h.data(), 128, 1000, 1e6);
    double angle = 1000.0 * std::pow(1e6, -20.0 / 128.0);
    CHECK(h[10] == Approx(std::cos(angle)).margin(1e-6));
    CHECK(h[74] == Approx(std::sin(angle)).margin(1e-6));
    CHECK(h[10] * h[10] + h[74] * h[74] == Approx(1.0).epsilon(1e-6));
  }
}

TEST_CASE("reference ops: softmax and masking", "[qwen3][reference]") {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> p = ref::softmax({0.0, std::log(2.0), -inf});
  CHECK(p[0] == Approx(1.0 / 3.0));
  CHECK(p[1] == Approx(2.0 / 3.0));
  CHECK(p[2] == 0.0);
  p = ref::softmax({1000.0, 1000.0}); // no overflow
  CHECK(p[0] == Approx(0.5));
  CHECK(p[1] == Approx(0.5));
  p = ref::softmax({-inf, -inf});
  CHECK(p[0] == 0.0);
  CHECK(ref::silu(0.0) == 0.0);
  CHECK(ref::silu(1.0) == Approx(0.7310585786300049));
  CHECK(ref::silu(-2.0) == Approx(-0.2384058440442351));
}

TEST_CASE("reference ops: attention of one head masks later positions", "[qwen3][reference]") {
  // headDim 2, one kv head; keys at positions 0, 1, 2.
  std::vector<float> keys = {1, 0, 0, 1, 5, 5}, values = {10, 0, 0, 20, 100, 100};
  std::vector<float> q = {std::sqrt(2.0f) * std::log(3.0f), 0}, out(2), probs;
  // position 1: scores q.k / sqrt(2) = [ln 3, 0] -> p = [3/4, 1/4]; key 2 masked.
  ref::attendOneHead(q.data(), keys, values, 3, 2, 0, 2, 1, out.data(), &probs);
  REQUIRE(probs.size() == 3);
  CHECK(probs[0] == Approx(0.75));
  CHECK(probs[1] == Approx(0.25));
  CHECK(probs[2] == 0.0f);
  CHECK(out[0] == Approx(7.5));
  CHECK(out[1] == Approx(5.0));
}

TEST_CASE("reference ops: GEMV is exact-summed and thread independent", "[qwen3][reference]") {
  Bf16Tensor w = seededTensor({"gemv.test", {1024, 384}, TensorKind::Matrix}, 9);
  std::vector<float> x(384);
  for (int i = 0; i < 384; ++i)
    x[i] = float(std::sin(0.37 * i));
  std::vector<float> y1(1024), y2(1024), y3(1024);
  ref::gemv(w, x.data(), y1.data(), 1);
  ref::gemv(w, x.data(), y2.data(), 2);
  ref::gemv(w, x.data(), y3.data(), 3);
  CHECK(y1 == y2);
  CHECK(y1 == y3);
  for (int r : {0, 1, 511, 1023}) {
    long double s = 0;
    for (int c = 0; c < 384; ++c)
      s += (long double)bf16ToFloat(w.data[size_t(r) * 384 + c]) * x[c];
    CHECK(y1[r] == Approx(double(s)).epsilon(1e-6));
  }
}
