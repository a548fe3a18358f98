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

/// The prefill stages' tables of positions first..first+rows-1, row-major [rows, headDim / 2],
/// without rotate_half's sign (the stage applies it). The host scatters them into
/// prefill_projection's layout of cos and sin (HbmLayout).
void prefillRopeTables(const Qwen3Config &cfg, size_t first, size_t rows,
                       std::vector<uint16_t> &cos, std::vector<uint16_t> &sin);

} // namespace rngd::qwen3
