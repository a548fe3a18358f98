// `token_lookup`: the device-side token lookup. The host writes the token's byte offset in the
// table; one DMA gather reads that row into DM (on one slice) and a DMA writes it to `out`.
#include "compiler/placement/qwen3/LmHead.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildTokenLookup(StageBuilder &b, const Qwen3Shape &shape, int64_t) {
  llvm::Expected<LmHeadTiling> lm = planLmHead(shape, b.target());
  if (!lm)
    return lm.takeError();
  const int64_t rowBytes = shape.hidden * 2;
  b.describe(
      "`token_lookup` stage: the device-side token lookup (the alternative to `embedding`,\n"
      "whose input row the host selects and uploads). The host writes only the token's byte\n"
      "offset in the table, token * " + std::to_string(rowBytes) +
      " (i32); one DMA gather reads that row of the resident\n"
      "embedding table into DM and a DMA writes it to the residual stream `out`. The table\n"
      "has " + std::to_string(lm->paddedVocab) + " rows (" + std::to_string(lm->paddedVocab / lm->tileRows) +
      " x " + std::to_string(lm->tileRows) +
      "), the LM head's padded shape, so a tied model binds the LM\n"
      "head's buffer itself (rows past the vocabulary's " + std::to_string(shape.vocab) +
      " are zero).");
  Expr w = b.axis("W", lm->paddedVocab);
  Expr h = b.axis("H", shape.hidden);
  Expr k = b.axis("K", 1);
  const TargetModel &t = b.target();
  mlir::Type table = b.hbm("table", b.bf16(), Expr::pair({w, h}));
  mlir::Type row = b.hbm("row", b.bf16(), Expr::pair({k, h}));
  mlir::Type offset = b.hbm("offset", b.i32(), k);
  mlir::Type dm = b.dm("dm", b.bf16(), Expr::one().pad(t.clusters),
                       Expr::one().pad(t.slicesPerCluster), Expr::pair({k, h}));
  mlir::Value tableArg = b.input("table", table);
  mlir::Value offsetArg = b.input("offset", offset);
  mlir::Value out = b.output("out", row);
  mlir::Value g = b.dmaGather("g", tableArg, offsetArg, dm);
  b.dmaInto(g, out);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
