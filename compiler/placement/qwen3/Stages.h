// One function per Qwen3 stage (one file each in this directory), called by buildQwen3Stage.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/StageBuilder.h"
#include "dialects/tcp/Mapping/Split.h"

namespace rngd::placement::qwen3 {

// Each builds its stage into `b` for `shape`; `tokens` is the prefill block size T (1 for the
// decode stages). An error names the placement rule the shape fails, with the numbers.
llvm::Error buildEmbedding(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildTokenLookup(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildProjection(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildAttentionForwardFirst(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildAttentionForward(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildDecoder(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
// The decoder in two parts, for a chip of a tensor-parallel group (docs/multichip.md): o-proj
// with the residual, then RMSNorm and the MLP with the residual; the chips' outputs are summed
// between them.
llvm::Error buildDecoderOut(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildDecoderMlp(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildFinalLayer(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildPrefillProjection(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildPrefillAttentionFirst(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
// For a fused stage: a written to `attn` (an output the caller declared, through a view) and,
// in one pass, also given in DM in `aInDm` (else none).
llvm::Error buildPrefillAttentionFirstInto(StageBuilder &b, const Qwen3Shape &shape,
                                           int64_t tokens, mlir::Value attn, mlir::Value *aInDm);
llvm::Error buildPrefillAttention(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildPrefillDecoder(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
// prefill_decoder after a fused stage's attention part: a read from `attnDm` (that part's DM
// tensor, over its axes; `attnAxes` spells the decoder's T and Q over them) instead of an attn
// input.
llvm::Error buildPrefillDecoderAfter(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                     mlir::Value attnDm, const mapping::AxisSplits &attnAxes);
// Whether prefill_decoder's o_proj reads a in one pass over all of it (it can then take a in
// DM from a fused stage's attention part).
bool prefillDecoderTakesAInDm(const Qwen3Shape &shape, const TargetModel &t, int64_t tokens);
// prefill_attention_first and prefill_decoder in one kernel, a handed over in DM.
llvm::Error buildPrefillAttentionDecoder(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
// prefill_decoder in two parts for a chip of a tensor-parallel group, like decoder_out and
// decoder_mlp.
llvm::Error buildPrefillDecoderOut(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildPrefillDecoderMlp(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
// The batched decode step's own stages (T: the batch padded to a block size).
llvm::Error buildBatchProjection(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildBatchKvStore(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildBatchAttentionNorm(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildBatchFinalLayer(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);
llvm::Error buildKvCopy(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);

} // namespace rngd::placement::qwen3
