// The RoPE tables rngd-qwen3 writes for the stage kernels: cos and sin of
// position * theta^(-2f / headDim) (cfg.ropeTheta, cfg.headDim), in double, each rounded once
// to bf16. Apart from the pipeline so that a unit test can hold them to the closed form: the
// stage checks cannot, their oracle computes its own (StageOracle's ropeFactors).
#pragma once

#include "qwen3/host/Model.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rngd::qwen3 {

/// The decode stages' tables of position `pos`: [headDim] each, the halves duplicated, sin's
/// first half negated (projection's rotate_half is a half swap).
void decodeRopeTables(const Qwen3Config &cfg, size_t pos, std::vector<uint16_t> &cos,
                      std::vector<uint16_t> &sin);

/// prefill_projection's tables of positions first..first+511: [T = 512, F = headDim / 2] in
/// its layout (prefillRopeIndex), without rotate_half's sign (the stage applies it).
void prefillRopeTables(const Qwen3Config &cfg, size_t first, std::vector<uint16_t> &cos,
                       std::vector<uint16_t> &sin);

/// Where position t of the block and frequency f sit in prefill_projection's cos and sin:
/// [T / 256, F / 8, T % 64, T % 256 / 64, F % 8] (kernels/qwen3/prefill_projection.mlir).
size_t prefillRopeIndex(size_t t, size_t f);

} // namespace rngd::qwen3
