// `final_layer`: not generated yet (the hand-placed kernels/qwen3/final_layer.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildFinalLayer(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("final_layer", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
