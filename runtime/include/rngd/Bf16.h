// bf16 <-> f32 with the hardware's rounding (round to nearest, ties to even; NaN stays a quiet
// NaN), shared by the simulator's Cast Engine and host-side data conversion.
#pragma once

#include <cstdint>
#include <cstring>

namespace rngd {

inline uint32_t bf16ToF32Bits(uint16_t b) { return static_cast<uint32_t>(b) << 16; }

inline float bf16ToF32(uint16_t b) {
  uint32_t u = bf16ToF32Bits(b);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint16_t f32BitsToBf16(uint32_t u) {
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep sign and payload top, force quiet
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  uint32_t bias = 0x7fffu + ((u >> 16) & 1u); // ties go to the even result
  return static_cast<uint16_t>((u + bias) >> 16);
}

inline uint16_t f32ToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return f32BitsToBf16(u);
}

} // namespace rngd
