// The RoPE tables the pipeline gives the stage kernels, against the closed form written out
// here: cos and sin of p * theta^(-2f / D) with Qwen3-0.6B's theta = 1e6 and D = 128 (its
// config.json), in double, rounded once to bf16. The stage checks cannot catch a wrong table
// when they are fed it, so the tables are held to the formula directly; and the oracle's own
// factors (StageOracle's ropeFactors) to the same formula.
#include "Helpers.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/RopeTables.h"
#include "qwen3/host/StageOracle.h"

#include <cmath>

using namespace rngd::qwen3;

namespace {

constexpr double kTheta = 1e6;
constexpr int kHeadDim = 128, kHalf = kHeadDim / 2, kBlock = 512;

double angle(int position, int f) {
  return position * std::pow(kTheta, -2.0 * f / kHeadDim);
}

} // namespace

TEST_CASE("rope tables: decode tables are the closed form", "[qwen3][rope]") {
  const Qwen3Config cfg; // Qwen3-0.6B
  for (int p : {0, 1, 600}) {
    std::vector<uint16_t> cos, sin;
    decodeRopeTables(cfg, size_t(p), cos, sin);
    REQUIRE(cos.size() == size_t(kHeadDim));
    REQUIRE(sin.size() == size_t(kHeadDim));
    for (int i = 0; i < kHeadDim; ++i) {
      INFO("position " << p << " index " << i);
      const double a = angle(p, i % kHalf);
      // rotate_half's sign rides on the first half of sin.
      CHECK(cos[i] == doubleToBf16(std::cos(a)));
      CHECK(sin[i] == doubleToBf16(i < kHalf ? -std::sin(a) : std::sin(a)));
    }
  }
}

TEST_CASE("rope tables: prefill tables are the closed form", "[qwen3][rope]") {
  const Qwen3Config cfg;
  for (int p : {0, 1, 600}) {
    std::vector<uint16_t> cos, sin;
    prefillRopeTables(cfg, size_t(p / kBlock * kBlock), kBlock, cos, sin);
    REQUIRE(cos.size() == size_t(kBlock * kHalf));
    REQUIRE(sin.size() == size_t(kBlock * kHalf));
    for (int f = 0; f < kHalf; ++f) {
      INFO("position " << p << " frequency " << f);
      const size_t at = size_t(p % kBlock) * kHalf + size_t(f); // row-major [T, F]
      CHECK(cos[at] == doubleToBf16(std::cos(angle(p, f))));
      CHECK(sin[at] == doubleToBf16(std::sin(angle(p, f))));
    }
  }
}

TEST_CASE("rope tables: values that pin theta", "[qwen3][rope]") {
  // Frequency 32 at position 600: 600 * 1e6^(-1/2) = 0.6 rad (theta 1e4 would give 6 rad).
  std::vector<uint16_t> cos, sin;
  decodeRopeTables(Qwen3Config(), 600, cos, sin);
  CHECK(bf16ToFloat(cos[32]) == Approx(std::cos(0.6)).epsilon(1.0 / 128));
  CHECK(bf16ToFloat(sin[kHalf + 32]) == Approx(std::sin(0.6)).epsilon(1.0 / 128));
  // Position 0: no rotation (cos 1, sin 0; the negated half is -0).
  decodeRopeTables(Qwen3Config(), 0, cos, sin);
  CHECK(cos[5] == 0x3F80);
  CHECK(sin[kHalf + 5] == 0x0000);
  CHECK(sin[5] == 0x8000);
}

TEST_CASE("rope tables: the oracle's own factors are the closed form", "[qwen3][rope]") {
  for (int p : {0, 1, 600}) {
    oracle::Bits cos, sin;
    oracle::ropeFactors(Qwen3Config(), p, cos, sin);
    REQUIRE(cos.size() == size_t(kHalf));
    for (int f = 0; f < kHalf; ++f) {
      INFO("position " << p << " frequency " << f);
      CHECK(cos[f] == doubleToBf16(std::cos(angle(p, f))));
      CHECK(sin[f] == doubleToBf16(std::sin(angle(p, f))));
    }
  }
}
