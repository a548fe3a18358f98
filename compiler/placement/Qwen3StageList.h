// The Qwen3 stages the generator builds, by name, and the prefill block sizes: what tools and
// the host iterate over (no MLIR here; Qwen3Stages.h builds them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::placement {

/// embedding, token_lookup, projection, attention_forward_first, attention_forward, decoder,
/// final_layer: the decode stages, in the order the host runs them.
const std::vector<std::string> &decodeStageNames();
/// prefill_projection, prefill_attention_first, prefill_attention, prefill_decoder.
const std::vector<std::string> &prefillStageNames();
/// 16, 32, 64, 128, 256, 512: the prefill block sizes.
const std::vector<int64_t> &prefillTokenCounts();
/// batch_projection, batch_kv_store, batch_attention_norm, batch_final_layer: the stages of a
/// batched decode step (docs/batching.md) besides prefill_decoder and the decode attention.
const std::vector<std::string> &batchStageNames();
/// 16, 32, 64: the block sizes a batch of 1..64 sequences is padded to.
const std::vector<int64_t> &batchTokenCounts();
/// "prefill_projection" and 512 -> "prefill_projection_t512".
std::string prefillStageName(const std::string &stage, int64_t tokens);

} // namespace rngd::placement
