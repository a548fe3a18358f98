// `prefill_attention_first`: not generated yet (the hand-placed kernels/qwen3/prefill_attention_first.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildPrefillAttentionFirst(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("prefill_attention_first", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
