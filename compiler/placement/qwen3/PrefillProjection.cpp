// `prefill_projection`: not generated yet (the hand-placed kernels/qwen3/prefill_projection.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildPrefillProjection(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("prefill_projection", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
