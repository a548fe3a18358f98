// bf16 rounding: nearest, ties to even, NaN, infinities, overflow, subnormals, double input.
#include "qwen3/host/Bf16.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace rngd::qwen3;

namespace {
float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
} // namespace

TEST_CASE("bf16: exact values and widening", "[qwen3][bf16]") {
  CHECK(floatToBf16(1.0f) == 0x3f80);
  CHECK(floatToBf16(-2.0f) == 0xc000);
  CHECK(floatToBf16(0.0f) == 0x0000);
  CHECK(floatToBf16(-0.0f) == 0x8000);
  CHECK(bf16ToFloat(0x3f80) == 1.0f);
  CHECK(bf16ToFloat(0x4049) == 3.140625f);
  CHECK(floatToBf16(3.140625f) == 0x4049);
}

TEST_CASE("bf16: round to nearest, ties to even", "[qwen3][bf16]") {
  // 1 + 2^-8 is exactly between 0x3f80 and 0x3f81: tie goes to the even 0x3f80.
  CHECK(floatToBf16(fromBits(0x3f808000)) == 0x3f80);
  // 0x3f818000 lies between 0x3f81 (odd) and 0x3f82: tie goes up to the even one.
  CHECK(floatToBf16(fromBits(0x3f818000)) == 0x3f82);
  // Just above / below the halfway point.
  CHECK(floatToBf16(fromBits(0x3f808001)) == 0x3f81);
  CHECK(floatToBf16(fromBits(0x3f807fff)) == 0x3f80);
  // pi = 0x40490fdb rounds down to 3.140625.
  CHECK(floatToBf16(3.14159265f) == 0x4049);
  // Carry into the exponent: the largest mantissa rounds up to the next power of two.
  CHECK(floatToBf16(fromBits(0x3fffffff)) == 0x4000);
}

TEST_CASE("bf16: special values", "[qwen3][bf16]") {
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(floatToBf16(inf) == 0x7f80);
  CHECK(floatToBf16(-inf) == 0xff80);
  // FLT_MAX rounds up to infinity; a NaN whose payload sits in the low bits stays NaN.
  CHECK(floatToBf16(std::numeric_limits<float>::max()) == 0x7f80);
  uint16_t nan = floatToBf16(fromBits(0x7f800001));
  CHECK(std::isnan(bf16ToFloat(nan)));
  CHECK(std::isnan(bf16ToFloat(floatToBf16(std::nanf("")))));
  // Subnormals are kept, with the same rounding.
  CHECK(floatToBf16(fromBits(0x00010000)) == 0x0001);
  CHECK(floatToBf16(fromBits(0x00018000)) == 0x0002);
  CHECK(floatToBf16(fromBits(0x00008000)) == 0x0000);
}

TEST_CASE("bf16: from double without double rounding", "[qwen3][bf16]") {
  CHECK(doubleToBf16(1.0) == 0x3f80);
  CHECK(doubleToBf16(-0.02) == floatToBf16(-0.02f));
  // 1 + 2^-8 + 2^-30: through float it would become the tie 1 + 2^-8 and round to even
  // (0x3f80); the correctly rounded bf16 is 0x3f81.
  double v = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  CHECK(floatToBf16(float(v)) == 0x3f80);
  CHECK(doubleToBf16(v) == 0x3f81);
  // Exact ties still go to even.
  CHECK(doubleToBf16(1.0 + std::ldexp(1.0, -8)) == 0x3f80);
  // Beyond float range: infinity; just below the bf16 overflow threshold: the largest bf16.
  CHECK(doubleToBf16(1e39) == 0x7f80);
  CHECK(doubleToBf16(-1e300) == 0xff80);
  CHECK(doubleToBf16(3.39e38) == 0x7f7f);
  CHECK(doubleToBf16(3.38e38) == 0x7f7e);
  CHECK(std::isnan(bf16ToFloat(doubleToBf16(std::nan("")))));
  // Tiny values underflow to a signed zero.
  CHECK(doubleToBf16(1e-300) == 0x0000);
  CHECK(doubleToBf16(-1e-300) == 0x8000);
}
