// batch_attention_norm's plan: how many tokens and heads each slice holds, from the shape, the
// target and T, each rule checked. BatchAttentionNorm.cpp builds the ops. Header-only.
#pragma once

#include "compiler/placement/qwen3/PrefillDecoderPlan.h"

#include <limits>

namespace rngd::placement::qwen3::batch_norm {

inline constexpr const char *kNormStage = "batch_attention_norm";
inline constexpr int64_t kBf16Bytes = 2, kF32Bytes = 4; // element sizes

struct NormPlan {
  int64_t flit = 0;             // bf16 values a flit: attn's column width (prefill_decoder's)
  int64_t flitF32 = 0;          // f32 values a flit: the pass's packet
  int64_t headsPerSlice = 0;    // HPS: the fewest heads whose f32 sums are a DMA packet
  int64_t tokensPerSlice = 0;   // TS: a slice's tokens (a store run is TS flits)
  int64_t tokenBlocks = 0;      // T / TS: blocks of tokens (every one on each cluster)
  int64_t headBlocks = 0;       // a cluster's heads / HPS padded to a power of two (slice cells)
  int64_t slicesPerCluster = 0; // tokenBlocks x a cluster's heads / HPS: the slices in use
  int64_t flitsPerSlice = 0;    // the pass's flits: TS x HPS x D / flitF32
  int64_t passCycles = 0;       // their Vector Engine cycles (a float ALU)
  int64_t storeRequests = 0;    // AXI requests of the store into attn
};

/// attn's flit: prefill_decoder's plan's where it places at this T, else the same rule
/// (PrefillDecoderPlan.h: a flit of bf16).
inline int64_t attnFlit(const Qwen3Shape &s, const TargetModel &t, int64_t T) {
  llvm::Expected<DecoderPlan> p = planModelDecoder(s, t, T);
  if (!p) {
    llvm::consumeError(p.takeError());
    return t.flitBytes / kBf16Bytes;
  }
  return p->flit;
}

/// HPS: the fewest heads (a divisor of the q heads) whose f32 sums are a whole DMA packet and
/// at most one flit (the sums' stream packet); 0 when none is.
inline int64_t headsPerSlice(const Qwen3Shape &s, const TargetModel &t) {
  for (int64_t h = 1; h * kF32Bytes <= t.flitBytes; ++h)
    if (s.heads % h == 0 && (h * kF32Bytes) % t.dmaAlignment == 0 &&
        h * kF32Bytes >= t.fetchPacketAlignment)
      return h;
  return 0;
}

/// Fills the numbers for TS tokens a slice; false when the slices do not hold them.
inline bool tryTokens(NormPlan &p, const Qwen3Shape &s, const TargetModel &t, int64_t T,
                      int64_t TS) {
  const int64_t blocks = s.heads / p.headsPerSlice / t.clusters; // a cluster's head blocks
  NormPlan q = p;
  q.tokensPerSlice = TS;
  q.tokenBlocks = T / TS;
  q.slicesPerCluster = q.tokenBlocks * blocks;
  for (q.headBlocks = 1; q.headBlocks < blocks; q.headBlocks *= 2) {
  }
  // A slice holds x and a (bf16) and the sums (f32).
  const int64_t bytes = TS * p.headsPerSlice * (s.headDim * kBf16Bytes * 2 + kF32Bytes);
  if (T % TS || q.tokenBlocks * q.headBlocks > t.slicesPerCluster ||
      t.slicesPerCluster % (q.tokenBlocks * q.headBlocks) || bytes > t.dmBytesPerSlice ||
      TS * p.headsPerSlice * kF32Bytes > t.vrfBytesPerSlice)
    return false;
  q.flitsPerSlice = TS * p.headsPerSlice * s.headDim / p.flitF32;
  q.passCycles = q.flitsPerSlice * p.flitF32 / t.vectorWay4Elements;
  const int64_t run = TS * t.flitBytes;
  const int64_t perRun = (run + t.dmaRequestBytes - 1) / t.dmaRequestBytes;
  q.storeRequests = T * s.qDim() * kBf16Bytes / run * perRun;
  p = q;
  return true;
}

/// TS: among the powers of two from 2 up to a whole AXI request of flits (and T), the one
/// whose estimate (the pass's vector cycles plus the store's requests over the DMA engines) is
/// least; the larger on a tie.
inline llvm::Expected<NormPlan> planBatchAttentionNorm(const Qwen3Shape &s, const TargetModel &t,
                                                       int64_t T) {
  NormPlan p;
  p.flit = attnFlit(s, t, T);
  p.flitF32 = t.flitBytes / kF32Bytes;
  if (s.headDim % p.flit || s.headDim % p.flitF32)
    return placementError(kNormStage, "a head is whole flits of attn's columns and of f32",
                          "head_dim " + decimal(s.headDim) + ", " + decimal(p.flit) +
                              " bf16 a flit");
  p.headsPerSlice = headsPerSlice(s, t);
  if (!p.headsPerSlice)
    return placementError(kNormStage,
                          "some number of heads dividing the q heads has f32 sums that are a "
                          "whole DMA packet of at most a flit",
                          decimal(s.heads) + " heads, packets a multiple of " +
                              decimal(t.dmaAlignment) + " bytes, flits of " +
                              decimal(t.flitBytes));
  if ((s.heads / p.headsPerSlice) % t.clusters)
    return placementError(kNormStage, "blocks of heads split evenly over the clusters",
                          decimal(s.heads) + " heads in blocks of " + decimal(p.headsPerSlice) +
                              " over " + decimal(t.clusters) + " clusters");
  const int64_t most = std::min(T, t.dmaRequestBytes / t.flitBytes);
  int64_t best = std::numeric_limits<int64_t>::max();
  NormPlan chosen;
  for (int64_t TS = 2; TS <= most; TS *= 2) {
    NormPlan q = p;
    if (!tryTokens(q, s, t, T, TS))
      continue;
    const int64_t cycles = q.passCycles + q.storeRequests / t.dmaEngines;
    if (cycles <= best) {
      best = cycles;
      chosen = q;
    }
  }
  if (!chosen.tokensPerSlice)
    return placementError(kNormStage,
                          "blocks of tokens x " + decimal(p.headsPerSlice) +
                              " heads (their count padded to a power of two) fit a cluster's "
                              "slices, their DM and VRF",
                          "T = " + decimal(T) + " over " + decimal(t.clusters) + " clusters, " +
                              decimal(s.heads) + " heads, " + decimal(t.slicesPerCluster) +
                              " slices a cluster");
  return chosen;
}

} // namespace rngd::placement::qwen3::batch_norm
