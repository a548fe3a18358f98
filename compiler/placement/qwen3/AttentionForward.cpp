// `attention_forward`: not generated yet (the hand-placed kernels/qwen3/attention_forward.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildAttentionForward(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("attention_forward", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
