// `batch_kv_store`: the batched decode step's KV write (docs/batching.md): the T staged k and v
// rows of batch_projection scattered into the layer's KV pool at byte offsets the host writes
// (vLLM's slot mapping), with tcp.dma_scatter.
#include "compiler/placement/qwen3/BatchKvStore.h"
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/PrefillTerms.h"

#include <limits>

namespace rngd::placement::qwen3 {

namespace {

constexpr const char *kStage = "batch_kv_store";

struct KvStorePlan {
  int64_t T, N, D, C, NC;       // NC = N / C: a cluster's kv heads of each row
  int64_t chunk, poolChunks, P; // the pool: P = poolChunks x chunk rows
  int64_t rowBytes, partBytes;  // a row; a cluster's part of it (one DMA packet)
};

llvm::Expected<KvStorePlan> planKvStore(const Qwen3Shape &s, const TargetModel &t, int64_t tokens,
                                        int64_t poolChunks) {
  KvStorePlan p;
  p.T = tokens, p.N = s.kvHeads, p.D = s.headDim, p.C = t.clusters;
  p.NC = p.N / p.C;
  p.chunk = kvChunkKeys(), p.poolChunks = poolChunks, p.P = poolChunks * p.chunk;
  p.rowBytes = p.N * p.D * 2, p.partBytes = p.NC * p.D * 2;
  auto refuse = [](llvm::StringRef rule, const llvm::Twine &detail) {
    return placementError(kStage, rule, detail);
  };
  if (poolChunks < 1)
    return refuse("a pool of whole KV chunks", "poolChunks = " + num(poolChunks));
  if (p.N % p.C != 0)
    return refuse("a row's kv heads split evenly over the clusters",
                  "N = " + num(p.N) + " kv heads over " + num(p.C) + " clusters");
  if (p.T > t.slicesPerCluster)
    return refuse("a token's row on one slice of each cluster",
                  "T = " + num(p.T) + " tokens over " + num(t.slicesPerCluster) + " slices");
  if (p.partBytes % t.dmaAlignment != 0 || p.partBytes > t.dmaMaxPacketBytes ||
      2 * p.partBytes > t.dmBytesPerSlice)
    return refuse("a cluster's part of a row one DMA packet, k's and v's in a slice's DM",
                  num(p.NC) + " heads x " + num(p.D) + " values of bf16 is " +
                      num(p.partBytes) + " bytes (packets: multiples of " +
                      num(t.dmaAlignment) + ", at most " + num(t.dmaMaxPacketBytes) + ")");
  if (p.P * p.rowBytes > std::numeric_limits<int32_t>::max())
    return refuse("the pool's byte offsets in i32",
                  num(p.P) + " rows of " + num(p.rowBytes) + " bytes is " +
                      num(p.P * p.rowBytes) + " bytes");
  return p;
}

void describeKvStore(StageBuilder &b, const KvStorePlan &p) {
  const Values v = {{"T", num(p.T)},
                    {"P", num(p.P)},
                    {"pc", num(p.poolChunks)},
                    {"chunk", num(p.chunk)},
                    {"chunk1", num(p.chunk - 1)},
                    {"row", num(p.rowBytes)},
                    {"pool", bytes(p.P * p.rowBytes)},
                    {"NC", num(p.NC)},
                    {"NC1", num(p.NC - 1)},
                    {"part", num(p.partBytes)}};
  b.describe(wrap(fill(
      "`batch_kv_store` stage (batched decode step): the T = {T} staged k and v rows of "
      "batch_projection copied into the layer's KV pool, row t of each to byte offset offsets[t] "
      "(vLLM's slot mapping). Pool: {pc} KV chunks of {chunk} rows, P = {P} rows ({pool} a "
      "tensor).",
      v)));
  b.describe(wrap(
      fill("\nSignature:\n"
           "  k_rows, v_rows [T, N, D] bf16 row-major (batch_projection's outputs)\n"
           "  offsets        [T] i32: the byte offset of token t's row in the pool, a multiple of "
           "the row's {row} bytes, below P x {row}; distinct for distinct tokens (a padding "
           "token's row goes to a row the host reserves: two rows to one offset land in no set "
           "order). The simulator refuses a row outside the pool.\n"
           "  k_pool, v_pool [P, N, D] bf16 (read and written): the layer's KV pool; chunk c is "
           "rows c x {chunk} to c x {chunk} + {chunk1}, what attention_forward binds as k and v",
           v),
      96, 17));
  b.describe(wrap(fill(
      "\nPlacement: each tensor's rows come into DM by one DMA (cut over the engines), token "
      "t's row on slice t of each cluster, cluster c holding kv heads c x {NC} to c x {NC} + "
      "{NC1} ({part} bytes, one DMA packet). Each tensor then goes out in one scatter, a part "
      "(one engine) on each cluster, k's and v's at once: scatters into one pool would run one "
      "after another (their rows are known only at run time), so more of them would only add "
      "start-ups. Nothing is computed: the bytes are batch_projection's.",
      v)));
}

} // namespace

llvm::Error buildBatchKvStorePool(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                  int64_t poolChunks) {
  llvm::Expected<KvStorePlan> plan = planKvStore(shape, b.target(), tokens, poolChunks);
  if (!plan)
    return plan.takeError();
  const KvStorePlan &p = *plan;
  describeKvStore(b, p);
  for (const auto &[name, size] :
       {std::pair<const char *, int64_t>{"T", p.T}, {"N", p.N}, {"D", p.D}, {"P", p.P}})
    b.axis(name, size);
  mlir::Type bf = b.bf16();
  // Token t's row on slice t of cluster 0.
  Expr cl = Expr::one().pad(p.C);
  Expr slices = cat({whole("T", p.T)->pad(b.target().slicesPerCluster)});
  Expr elem = cat({whole("N", p.N), whole("D", p.D)});
  mlir::Type rows = b.hbm("rows", bf, cat({whole("T", p.T), whole("N", p.N), whole("D", p.D)}));
  mlir::Type pool = b.hbm("pool", bf, cat({whole("P", p.P), whole("N", p.N), whole("D", p.D)}));
  mlir::Type off = b.hbm("off", b.i32(), cat({whole("T", p.T)}));
  mlir::Type rowsdm = b.dm("rowsdm", bf, cl, slices, elem);

  mlir::Value kRows = b.input("k_rows", rows), vRows = b.input("v_rows", rows);
  mlir::Value offsets = b.input("offsets", off);
  mlir::Value kPool = b.inout("k_pool", pool), vPool = b.inout("v_pool", pool);
  mlir::Value kd = b.dma("kd", kRows, rowsdm), vd = b.dma("vd", vRows, rowsdm);
  b.dmaScatter(kd, kPool, offsets);
  b.dmaScatter(vd, vPool, offsets);
  return llvm::Error::success();
}

llvm::Error buildBatchKvStore(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  return buildBatchKvStorePool(b, shape, tokens, 1);
}

} // namespace rngd::placement::qwen3
