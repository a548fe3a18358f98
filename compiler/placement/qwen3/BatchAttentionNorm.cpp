// `batch_attention_norm`: the batched decode step's a = bf16(out / sum) for T tokens, written in
// prefill_decoder's `attn` layout (docs/batching.md). Each token's row is the one-sequence
// decoder's `a = x / sum` (Decoder.cpp, normaliseAttention): the bf16 values fetched as f32, one
// div_f by the head's f32 sum from the VRF, rounded to bf16 by the Cast Engine. The
// transposition from token rows to attn's flit columns happens in the commit (each slice
// writes its tokens' flits of a column contiguously), so both DMAs move whole AXI requests.
#include "compiler/placement/qwen3/BatchAttentionNormPlan.h"
#include "compiler/placement/qwen3/Common.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

using batch_norm::NormPlan;

using batch_norm::kBf16Bytes;
using batch_norm::kF32Bytes;

std::string num(int64_t n) { return std::to_string(n); }

/// The stage's axes and the DM placement every tensor shares.
struct NormAxes {
  Expr t = Expr::one(), n = t, g = t, d = t, q = t, ng = t;
  Expr cluster = t, slice = t; // heads over the clusters; (token block, head block) slices
  Expr tok = t, head = t;      // a slice's tokens (T % TS) and heads (NG % HPS)
};

NormAxes declareAxes(StageBuilder &b, const Qwen3Shape &s, const NormPlan &p, int64_t T) {
  const TargetModel &t = b.target();
  NormAxes a;
  a.t = b.axis("T", T);
  a.n = b.axis("N", s.kvHeads);
  a.g = b.axis("G", s.groups());
  a.d = b.axis("D", s.headDim);
  a.q = b.axis("Q", s.qDim());
  a.ng = b.axis("NG", s.heads);
  // Heads split over the clusters (so that each cluster's store is one range of attn's
  // head-major bytes), every token on each: slice [1 # pad, T / TS, NG / HPS % blocks # cells].
  const int64_t perCluster = s.heads / t.clusters, blocks = perCluster / p.headsPerSlice;
  a.cluster = t.clusters > 1 ? a.ng / perCluster : Expr::one();
  std::vector<Expr> slice;
  const int64_t used = p.tokenBlocks * p.headBlocks;
  if (used < t.slicesPerCluster)
    slice.push_back(Expr::one().pad(t.slicesPerCluster / used));
  if (p.tokenBlocks > 1)
    slice.push_back(a.t / p.tokensPerSlice);
  Expr heads = t.clusters > 1 ? a.ng / p.headsPerSlice % blocks : a.ng / p.headsPerSlice;
  slice.push_back(p.headBlocks > blocks ? heads.pad(p.headBlocks) : heads);
  a.slice = slice.size() > 1 ? Expr::pair(slice) : slice[0];
  a.tok = a.t % p.tokensPerSlice;
  a.head = a.ng % p.headsPerSlice;
  return a;
}

/// The signature and the rounding points.
void describeSignature(StageBuilder &b, const Qwen3Shape &s, const NormPlan &p, int64_t T,
                       const std::string &attnLayout) {
  std::string text = "`batch_attention_norm` stage: the batched decode step's attention ";
  text += "normalisation for a block of " + num(T) + " tokens (padding rows included).\n";
  text += "  out  [T, N, G, D] bf16: row t is token t's attention_forward out_hbm ([N, G, D], ";
  text += "unnormalised), token t at byte t x " + num(s.qDim() * kBf16Bytes) + "\n";
  text += "  sum  [T, N, G] f32: row t is token t's sum_hbm ([N, G]), at byte t x ";
  text += num(s.heads * kF32Bytes) + "\n";
  text += "  attn [T, Q] bf16, prefill_decoder's attn: layout " + attnLayout + " (flit columns ";
  text += "of " + num(p.flit) + " values, each holding every token's)\n";
  text += "  attn[t, (n G + g) D + d] = bf16(f32(out[t, n, g, d]) / sum[t, n, g])\n";
  text += "The arithmetic is the decoder's a = x / sum: bf16 fetched as f32, one correctly ";
  text += "rounded f32 div_f by the head's sum (a VRF operand), rounded to bf16 (nearest even) by ";
  text += "the Cast Engine; a token's values do not depend on T or on the other rows. A padding ";
  text += "row (sum 0) divides by zero: inf, or NaN for 0 / 0, no fault; the host ignores it.";
  b.describe(wrapLines(text));
}

void describePlacement(StageBuilder &b, const Qwen3Shape &s, const NormPlan &p, int64_t T) {
  const TargetModel &t = b.target();
  const int64_t TS = p.tokensPerSlice, HPS = p.headsPerSlice;
  std::string text = "\nPlacement: the " + num(s.heads) + " heads split over the " +
                     num(t.clusters) + " clusters (each cluster's part of attn one range of " +
                     "bytes) and over slices in blocks of " + num(HPS) + ", the " + num(T) +
                     " tokens in blocks of " + num(TS) + ": slice (T / " + num(TS) + ", NG / " +
                     num(HPS) + "), a cluster's head blocks padded to " + num(p.headBlocks) +
                     ", " + num(p.slicesPerCluster) + " slices a cluster in use, each holding " +
                     num(TS) + " tokens x " + num(HPS) + " heads (" +
                     num(TS * HPS * s.headDim * kBf16Bytes) + " bytes). ";
  text += "out arrives in rows of " + num(HPS * s.headDim * kBf16Bytes) +
          " bytes, the sums in packets of " + num(HPS * kF32Bytes) + " bytes (" + num(HPS) +
          " heads: the fewest whose f32 sums are a whole DMA packet) and go to the VRF [T % " +
          num(TS) + ", NG % " + num(HPS) + "]. ";
  text += "One pass streams each slice's " + num(p.flitsPerSlice) + " flits in the order [D / " +
          num(p.flitF32) + ", T % " + num(TS) + ", NG % " + num(HPS) +
          "] (the VRF's factors innermost), divides and casts, and commits them transposed " +
          "into [NG % " + num(HPS) + ", D / " + num(p.flit) + ", T % " + num(TS) + ", D % " +
          num(p.flit) + "], so that the store writes " + num(TS * t.flitBytes) +
          "-byte runs (a slice's tokens of a flit column) into attn. " + num(TS) +
          " tokens a slice is the block size (powers of two up to an AXI request of flits) " +
          "whose estimate is least: the pass's " + num(p.passCycles) +
          " vector cycles plus the store's " + num(p.storeRequests) + " AXI requests over " +
          num(t.dmaEngines) + " engines (fewer tokens a slice: a shorter pass, more requests). ";
  const int64_t sumRequests = T * s.heads / HPS;
  text += "The stage is bound by its DMAs: the loads' and the store's start-ups, the loads' " +
          num(T * s.qDim() * kBf16Bytes / t.dmaRequestBytes + sumRequests) +
          " AXI requests over the engines (" + num(sumRequests) +
          " of them the sums', one a packet) and the store's HBM bytes; the pass runs between "
          "them.";
  b.describe(wrapLines(text));
}

/// attn's layout exactly as prefill_decoder declares it (PrefillDecoderTypes.h, declareTypes:
/// `ah`): [Q / F, T, Q % F] with F its plan's flit (bf16 values a flit).
Expr attnLayout(const NormAxes &a, const NormPlan &p) {
  return Expr::pair({a.q / p.flit, a.t, a.q % p.flit});
}

} // namespace

llvm::Error buildBatchAttentionNorm(StageBuilder &b, const Qwen3Shape &s, int64_t T) {
  using tcp::Context;
  llvm::Expected<NormPlan> plan = batch_norm::planBatchAttentionNorm(s, b.target(), T);
  if (!plan)
    return plan.takeError();
  const NormPlan &p = *plan;
  NormAxes a = declareAxes(b, s, p, T);
  const int64_t F = p.flit, F32 = p.flitF32;

  mlir::Type outT = b.hbm("outhbm", b.bf16(), Expr::pair({a.t, a.n, a.g, a.d}));
  mlir::Type sumT = b.hbm("sumhbm", b.f32(), Expr::pair({a.t, a.n, a.g}));
  mlir::Type attnT = b.hbm("ah", b.bf16(), attnLayout(a, p));
  describeSignature(b, s, p, T, attnLayout(a, p).str());
  describePlacement(b, s, p, T);
  mlir::Value out = b.input("out", outT);
  mlir::Value sum = b.input("sum", sumT);
  mlir::Value attn = b.output("attn", attnT);

  // The same bytes over the flat head axis NG = N x G (Q = NG x D).
  mlir::Type outV = b.hbm("outv", b.bf16(), Expr::pair({a.t, a.ng, a.d}));
  mlir::Type sumV = b.hbm("sumv", b.f32(), Expr::pair({a.t, a.ng}));
  mlir::Type attnV = b.hbm("attnv", b.bf16(), Expr::pair({a.ng, a.d / F, a.t, a.d % F}));
  mlir::Type xdm = b.dm("xdm", b.bf16(), a.cluster, a.slice, Expr::pair({a.tok, a.head, a.d}));
  mlir::Type sdm = b.dm("sdm", b.f32(), a.cluster, a.slice, Expr::pair({a.tok, a.head}));
  mlir::Type ss = b.stream("ss", b.f32(), a.cluster, a.slice, a.tok, a.head);
  mlir::Type svrf = b.vrf("svrf", b.f32(), a.cluster, a.slice, Expr::pair({a.tok, a.head}));
  Expr time = Expr::pair({a.d / F32, a.tok, a.head});
  mlir::Type xs = b.stream("xs", b.f32(), a.cluster, a.slice, time, a.d % F32);
  mlir::Type xb = b.stream("xb", b.bf16(), a.cluster, a.slice, time, a.d % F32);
  mlir::Type adm =
      b.dm("adm", b.bf16(), a.cluster, a.slice, Expr::pair({a.head, a.d / F, a.tok, a.d % F}));

  mlir::Value sd = b.dma("sd", b.view("sumview", sum, 0, sumV), sdm);
  mlir::Value xd = b.dma("xd", b.view("outview", out, 0, outV), xdm);
  mlir::Value sv = b.toVrf("sv", b.collect("c0", b.fetch("s0", Context::sub, sd, ss)), svrf);
  mlir::Value c1 = b.collect("c1", b.fetch("s1", Context::main, xd, xs));
  mlir::Value q1 = b.vector("q1", c1, {Step::vrfOf("div_f", sv)});
  mlir::Value ad = b.commit("ad", b.cast("b1", q1, xb), adm);
  b.dmaInto(ad, b.view("attnview", attn, 0, attnV));
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
