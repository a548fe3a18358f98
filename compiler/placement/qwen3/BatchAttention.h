// batch_attention_first and batch_attention (the batched decode step's attention over one page
// of keys for each of T sequences a launch), built with the KV pool's size: Qwen3Stages.cpp
// calls these the way it calls buildBatchKvStorePool.
#pragma once

#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

/// batch_attention_first: page 0 of each of T = `tokens` sequences starts the online-softmax
/// state; the pool holds `poolChunks` KV chunks.
llvm::Error buildBatchAttentionFirstPool(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                         int64_t poolChunks);
/// batch_attention: a later page of each sequence folds into the state.
llvm::Error buildBatchAttentionPool(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                    int64_t poolChunks);

/// Both with a pool of one chunk (the stage table's signature).
llvm::Error buildBatchAttentionFirst(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildBatchAttention(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);

} // namespace rngd::placement::qwen3
