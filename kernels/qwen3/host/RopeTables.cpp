#include "qwen3/host/RopeTables.h"

#include "qwen3/host/Bf16.h"

#include <cmath>

namespace rngd::qwen3 {

namespace {

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

void prefillRopeTables(const Qwen3Config &cfg, size_t first, size_t rows,
                       std::vector<uint16_t> &cos, std::vector<uint16_t> &sin) {
  const size_t F = size_t(cfg.headDim) / 2;
  cos.assign(rows * F, 0);
  sin.assign(rows * F, 0);
  for (size_t t = 0; t < rows; ++t)
    for (size_t f = 0; f < F; ++f) {
      double angle = ropeAngle(cfg, first + t, f);
      cos[t * F + f] = doubleToBf16(std::cos(angle));
      sin[t * F + f] = doubleToBf16(std::sin(angle));
    }
}

} // namespace rngd::qwen3
