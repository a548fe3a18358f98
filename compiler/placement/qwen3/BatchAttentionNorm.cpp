// `batch_attention_norm`: not placed yet (a stage of the batched decode step, docs/batching.md).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildBatchAttentionNorm(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("batch_attention_norm", "the stage is placed", "not yet: work in progress");
}

} // namespace rngd::placement::qwen3
