// One chip's shard of a Qwen3 model in a tensor-parallel group of N chips (docs/multichip.md),
// split as Megatron-LM splits a transformer: q/k/v and gate/up by their output rows, o_proj and
// down by their input columns, the embedding and the LM head by vocabulary rows (blocks of
// ceil(W / N), the last padded with zero rows); the norms whole on every chip.
#pragma once

#include "qwen3/host/HfModel.h"
#include "qwen3/host/Model.h"

#include <memory>
#include <string>

namespace rngd::qwen3 {

/// The shard's shape: q heads, kv heads and intermediate size / chips, vocabulary
/// ceil(W / chips); the caller has checked that chips divides them (placement::shardQwen3).
Qwen3Config shardConfig(const Qwen3Config &full, int chips);

/// Chip `rank`'s shard of dir's checkpoint (its first options.maxLayers layers): every tensor's
/// presence, dtype and shape checked from the header first, then only the shard's bytes read.
bool loadHfShard(const std::string &dir, const LoadOptions &options, int rank, int chips,
                 std::unique_ptr<Weights> &out, std::string &error);

/// Chip `rank`'s shard of the seeded weights of `full` (SeededWeights.h), generated element by
/// element for the shard alone: the same values as cutting seededWeights(full, seed).
std::unique_ptr<Weights> seededShard(const Qwen3Config &full, uint64_t seed, int rank, int chips);

} // namespace rngd::qwen3
