#include "qwen3/host/Bf16.h"

#include <cmath>
#include <limits>

namespace rngd::qwen3 {

uint16_t doubleToBf16Slow(double value) {
  if (std::isnan(value))
    return uint16_t(0x7fc0 | (std::signbit(value) ? 0x8000 : 0));
  // Round to odd at float precision (24 bits >= 8 + 2), then to nearest even at bf16
  // precision: the composition is the correctly rounded result.
  float f = float(value);
  if (std::isinf(f) && !std::isinf(value))
    f = std::copysign(std::numeric_limits<float>::max(), float(value)); // odd mantissa
  if (double(f) != value) {
    if (std::fabs(double(f)) > std::fabs(value))
      f = std::nextafter(f, 0.0f);
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    u |= 1u;
    std::memcpy(&f, &u, sizeof f);
  }
  return floatToBf16(f);
}

} // namespace rngd::qwen3
