// bfloat16 <-> float conversions (bit patterns held in uint16_t). Round to nearest, ties to even;
// NaN stays a (quiet) NaN, overflow rounds to infinity, subnormals are kept.
#pragma once

#include <cstdint>
#include <cstring>

namespace rngd::qwen3 {

/// Exact: a bf16 value is the top half of an IEEE float.
inline float bf16ToFloat(uint16_t bits) {
  uint32_t u = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// Round a float to the nearest bf16 (ties to even).
inline uint16_t floatToBf16(float value) {
  uint32_t u;
  std::memcpy(&u, &value, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep sign and payload top, force quiet
    return uint16_t((u >> 16) | 0x0040u);
  uint32_t lsb = (u >> 16) & 1u;
  return uint16_t((u + 0x7fffu + lsb) >> 16);
}

/// doubleToBf16 outside the float normal range (zero, subnormal, huge, inf, NaN).
uint16_t doubleToBf16Slow(double value);

/// Round a double to the nearest bf16 in one step (no double rounding through float).
inline uint16_t doubleToBf16(double value) {
  uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  uint64_t exp = (b >> 52) & 0x7ff;
  if (exp < 1023 - 126 || exp > 1023 + 127)
    return doubleToBf16Slow(value);
  // Round to nearest even at the 7th mantissa bit (bit 45 of the double), then narrow exactly
  // (a carry to 2^128 becomes infinity, as it should).
  b = (b + 0x00000fffffffffffull + ((b >> 45) & 1)) & ~0x00001fffffffffffull;
  double r;
  std::memcpy(&r, &b, sizeof r);
  float f = float(r);
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return uint16_t(u >> 16);
}

} // namespace rngd::qwen3
