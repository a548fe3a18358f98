// Seeded default weights from a counter-based generator, bit-identical on every platform.
//
// For tensor `name` and element index i (row-major):
//   key      = splitmix64(splitmix64(seed) ^ fnv1a64(name))
//   word(j)  = splitmix64(key + j * 0x9E3779B97F4A7C15)         (j-th output of a splitmix64 stream)
//   pair p   = i / 2;  u1 = ((word(2p) >> 11) + 1) * 2^-53  in (0, 1]
//                      u2 =  (word(2p+1) >> 11)    * 2^-53  in [0, 1)
//   z        = sqrt(-2 ln u1) * (i even ? cos(2 pi u2) : sin(2 pi u2))          (Box-Muller)
//   value    = matrices and embedding: 0.02 z;  norm weights: 1 + 0.1 z
// rounded once from double to bf16 (nearest, ties to even). ln (a 1024-entry table built at
// first use + a 6-term series), sin and cos (octant reduction + Taylor series) are computed with
// IEEE double + - * / sqrt and bit manipulation only, compiled without FMA contraction, so the
// bits depend neither on the C library nor on the thread count (assumes FLT_EVAL_METHOD 0, i.e.
// SSE2/AArch64-style double arithmetic). They agree with libm to ~1e-15. No std::*_distribution.
// Speed: about 18 ns per element per core (the full 0.6B model: ~10 s of CPU, split over threads).
#pragma once

#include "qwen3/host/Model.h"

#include <cstdint>
#include <string>

namespace rngd::qwen3 {

constexpr uint64_t kDefaultSeed = 42;

/// Standard splitmix64 step: mix(x + 0x9E3779B97F4A7C15).
uint64_t splitmix64(uint64_t x);
/// FNV-1a 64-bit hash of the bytes of `name`.
uint64_t fnv1a64(const std::string &name);

/// The standard normal z of element `index` of tensor `name` (before scaling and rounding).
double seededNormal(uint64_t seed, const std::string &name, uint64_t index);
/// The bf16 value the generator assigns to that element for a tensor of the given kind.
uint16_t seededValue(uint64_t seed, const TensorSpec &spec, uint64_t index);

/// One tensor, generated in full.
Bf16Tensor seededTensor(const TensorSpec &spec, uint64_t seed, int threads = 2);

/// Every tensor of the model (lm_head aliases the embedding when config.tieWordEmbeddings),
/// generated on `threads` threads.
Weights seededWeights(const Qwen3Config &config, uint64_t seed = kDefaultSeed, int threads = 2);

} // namespace rngd::qwen3
