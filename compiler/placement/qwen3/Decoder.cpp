// `decoder`: not generated yet (the hand-placed kernels/qwen3/decoder.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildDecoder(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("decoder", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
