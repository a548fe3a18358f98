// `prefill_decoder`: not generated yet (the hand-placed kernels/qwen3/prefill_decoder.mlir stands).
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildPrefillDecoder(StageBuilder &, const Qwen3Shape &, int64_t) {
  return placementError("prefill_decoder", "generator", "this stage is not generated yet");
}

} // namespace rngd::placement::qwen3
