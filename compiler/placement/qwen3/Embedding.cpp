// `embedding`: the host selects the token's embedding row and passes it as `input`; one DMA
// copies it into the residual stream `out`, HBM to HBM.
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildEmbedding(StageBuilder &b, const Qwen3Shape &shape, int64_t) {
  b.describe("`embedding` stage: the host selects the token's embedding row and passes it as\n"
             "`input`; the kernel copies it into the residual stream `out` (HBM -> HBM).");
  Expr h = b.axis("H", shape.hidden);
  mlir::Type row = b.hbm("h", b.bf16(), h);
  mlir::Value input = b.input("input", row);
  mlir::Value out = b.output("out", row);
  b.dmaInto(input, out);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
