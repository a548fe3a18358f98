// batch_kv_store's builder with its pool size: the one stage that reads buildQwen3Stage's
// poolChunks (Qwen3Stages.cpp calls it; buildBatchKvStore in Stages.h is the one-chunk pool).
#pragma once

#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

/// batch_kv_store for T = `tokens` rows into a KV pool of `poolChunks` chunks of the decode
/// attention's kvChunkKeys() rows.
llvm::Error buildBatchKvStorePool(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                  int64_t poolChunks);

} // namespace rngd::placement::qwen3
