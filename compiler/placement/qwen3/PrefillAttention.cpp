// `prefill_attention`: not generated yet (the hand-placed kernels/qwen3/prefill_attention.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildPrefillAttention(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("prefill_attention", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
