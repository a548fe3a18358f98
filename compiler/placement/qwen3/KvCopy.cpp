// `kv_copy`: T rows of a layer's keys and values copied HBM to HBM, from one place of the KV
// pool to another (the host binds both as views of the pool): how a sequence that shares a
// cached prefix gets its own copy of the prefix's last, partly filled chunk (docs/batching.md).
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/PrefillTerms.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

llvm::Error buildKvCopy(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  b.describe(wrap(fill("`kv_copy` stage: T = {T} rows of keys and of values, [T, N, D] bf16 "
                       "row-major ({row} bytes a row), copied HBM to HBM by one DMA each, "
                       "k_in to k_out and v_in to v_out. The host binds each as a view of "
                       "the layer's KV pool (disjoint ranges of one buffer).",
                       {{"T", num(tokens)}, {"row", num(shape.kvHeads * shape.headDim * 2)}}),
                  96, 0));
  b.axis("T", tokens), b.axis("N", shape.kvHeads), b.axis("D", shape.headDim);
  mlir::Type rows = b.hbm("rows", b.bf16(),
                          cat({whole("T", tokens), whole("N", shape.kvHeads),
                               whole("D", shape.headDim)}));
  mlir::Value kIn = b.input("k_in", rows), vIn = b.input("v_in", rows);
  mlir::Value kOut = b.output("k_out", rows), vOut = b.output("v_out", rows);
  b.dmaInto(kIn, kOut);
  b.dmaInto(vIn, vOut);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
