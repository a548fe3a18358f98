#include "qwen3/host/RopeTables.h"

#include "qwen3/host/Bf16.h"

#include <cmath>

namespace rngd::qwen3 {

namespace {

constexpr size_t kPrefillRows = 512; // prefill_projection's T

// RoPE's angle of frequency j (0..headDim/2) at position pos, in double.
double ropeAngle(const Qwen3Config &cfg, size_t pos, size_t j) {
  return double(pos) * std::pow(cfg.ropeTheta, -2.0 * double(j) / double(cfg.headDim));
}

} // namespace

void decodeRopeTables(const Qwen3Config &cfg, size_t pos, std::vector<uint16_t> &cos,
                      std::vector<uint16_t> &sin) {
  const size_t d = cfg.headDim, half = d / 2;
  cos.resize(d);
  sin.resize(d);
  for (size_t i = 0; i < d; ++i) {
    double angle = ropeAngle(cfg, pos, i % half);
    cos[i] = doubleToBf16(std::cos(angle));
    sin[i] = doubleToBf16(i < half ? -std::sin(angle) : std::sin(angle));
  }
}

void prefillRopeTables(const Qwen3Config &cfg, size_t first, std::vector<uint16_t> &cos,
                       std::vector<uint16_t> &sin) {
  const size_t F = size_t(cfg.headDim) / 2;
  cos.assign(kPrefillRows * F, 0);
  sin.assign(kPrefillRows * F, 0);
  for (size_t t = 0; t < kPrefillRows; ++t)
    for (size_t f = 0; f < F; ++f) {
      double angle = ropeAngle(cfg, first + t, f);
      cos[prefillRopeIndex(t, f)] = doubleToBf16(std::cos(angle));
      sin[prefillRopeIndex(t, f)] = doubleToBf16(std::sin(angle));
    }
}

size_t prefillRopeIndex(size_t t, size_t f) {
  return (((t / 256 * 8 + f / 8) * 64 + t % 64) * 4 + t % 256 / 64) * 8 + f % 8;
}

} // namespace rngd::qwen3
