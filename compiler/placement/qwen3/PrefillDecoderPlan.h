// prefill_decoder's plan: every number of its placement from the shape, the target and T, each
// rule checked. PrefillDecoder.cpp builds the ops and the header. Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/PrefillShared.h"

namespace rngd::placement::qwen3 {

inline constexpr const char *kDecoderStage = "prefill_decoder";

// Below this many tokens per slice a half's down runs whole: a quarter's passes would cost more
// in start-ups than they hide.
inline constexpr int64_t kMinQuarterTokens = 4;
// down's p on a ring slice: two flits of each token's values (64-byte DMA pieces); the order of
// down's sums over L follows from it.
inline constexpr int64_t kDownFlitsPerSlice = 2;

// The numbers of the placement (planPrefillDecoder says where each comes from).
struct DecoderPlan {
  int64_t clusters, slices, lanes, flit, flitF32, trRows;
  int64_t rowsPerSlice; // weight rows on a slice: lanes x time-broadcast rows
  int64_t rowSlices;    // H / rowsPerSlice: the slices of one copy of a weight's rows (a ring)
  int64_t groups;       // slices / rowSlices: x's token groups, o_proj's K blocks
  int64_t oBlock;       // o_proj's K block: Q / groups
  int64_t aSplit;       // a's token split over its ring (the ring is aSplit x oBlock / flit)
  int64_t used;         // clusters the tokens are split over
  int64_t perCluster;   // tokens per cluster
  int64_t perSlice;     // tokens per slice of x's layout
  int64_t halves, u;    // the block in halves of u tokens per slice
  int64_t quarters, uq; // each half's down in quarters of uq tokens per slice
  int64_t pairRows;     // gate/up: pairs per slice (lanes x pairs a lane holds)
  int64_t passes, lPass; // the MLP in passes over L, lPass values of L each
  int64_t pairSlices;   // gate/up: slices holding a pass's pairs
  int64_t siluChunks;   // silu(g) u per chunk of a half's tokens (the VRF holds u)
  int64_t dBlock, dBlocks, dValues, dSplit; // down: K block, blocks, values per slice, split
};

// Clusters the block's tokens split over. Every cluster in use reads every weight: one cluster
// reads them at its DM intake, several share HBM; the contractions' time (each token streams
// its K values of o_proj, gate/up and down through a ring, a flit a cycle) splits over them.
// The estimate adds the two (a small block's contractions barely overlap the weights), so a
// small block, bound by the weights' DMAs, runs on one cluster and a large one on all of them.
inline int64_t chooseDecoderClusters(const DecoderPlan &p, const Qwen3Shape &s,
                                     const TargetModel &t, int64_t T) {
  const int64_t H = s.hidden, L = s.intermediate;
  const double weightBytes = 2.0 * double(H * s.qDim() + 3 * L * H);
  const double flitsPerToken = double(p.oBlock + 2 * H + p.dBlock) / double(p.flit);
  auto estimate = [&](int64_t used) {
    const double rate = used == 1
                            ? double(std::min(t.dmBytesPerCyclePerCluster,
                                              t.dmaEngines / t.clusters * t.dmaEngineBytesPerCycle))
                            : double(t.hbmBytesPerCycle) / double(used);
    return weightBytes / rate + double(T / used) * flitsPerToken;
  };
  const bool allPlace = T / p.clusters / p.groups >= p.trRows;
  return allPlace && estimate(p.clusters) < estimate(1) ? p.clusters : 1;
}

// The tokens: over `used` clusters, then over x's token groups (x's layout puts a slice's
// tokens of one row slice together), then halves (one half's DMAs and short passes beside the
// other's contraction) and quarters of the halves for down.
inline llvm::Error planDecoderTokens(DecoderPlan &p, const Qwen3Shape &s, const TargetModel &t,
                                     int64_t T) {
  p.used = chooseDecoderClusters(p, s, t, T);
  p.perCluster = T / p.used;
  p.perSlice = p.perCluster / p.groups;
  // The RMSNorm's transpose puts trRows tokens in the lanes: a half needs at least that many.
  if (p.perCluster % p.groups || p.perSlice % p.trRows || p.perCluster % p.aSplit)
    return placementError(kDecoderStage, "each slice of x holds whole transposes of tokens",
                          "T = " + decimal(T) + " over " + decimal(p.used) + " clusters x " +
                              decimal(p.groups) + " token groups is " + decimal(p.perSlice) +
                              " per slice, transposes take " + decimal(p.trRows));
  // The reducer sums a pass's tokens in vectorReduceSlots slots of trRows tokens.
  const int64_t maxU = p.trRows * t.vectorReduceSlots;
  p.halves = std::max<int64_t>((p.perSlice + maxU - 1) / maxU,
                               std::min<int64_t>(2, p.perSlice / p.trRows));
  p.u = p.perSlice / p.halves;
  if (p.perSlice % p.halves || p.u % p.trRows)
    return placementError(kDecoderStage, "halves hold whole transposes",
                          decimal(p.perSlice) + " tokens per slice in " + decimal(p.halves) +
                              " halves");
  p.quarters = p.u >= 2 * kMinQuarterTokens ? 2 : 1;
  p.uq = p.u / p.quarters;
  // silu(g) u per chunk of a half: u of the chunk's tokens in at most half the VRF.
  p.siluChunks = 1;
  while (p.groups / p.siluChunks * p.u * p.pairRows * 4 > t.vrfBytesPerSlice / 2 &&
         p.siluChunks < p.groups)
    p.siluChunks *= 2;
  if (p.groups % p.siluChunks ||
      p.groups / p.siluChunks * p.u * p.pairRows * 4 > t.vrfBytesPerSlice / 2)
    return placementError(kDecoderStage, "u of a chunk of a half's tokens fits half the VRF",
                          decimal(p.u) + " tokens per slice");
  return llvm::Error::success();
}

// down over a pass's lPass values of L: rowsPerSlice rows x a K block per slice, each block's p
// broadcast around the ring of the block's rowSlices slices, dValues of p per token on a slice.
// The smallest K block (the most blocks, at most `groups` rings) that tiles lPass and whose
// slices (block / dValues) divide the ring; the ring's rest splits the tokens. 0: none.
inline int64_t chooseDownBlock(const DecoderPlan &p, int64_t lPass) {
  for (int64_t m = 1; m <= p.rowSlices; ++m) {
    const int64_t block = m * p.dValues;
    if (p.rowSlices % m == 0 && lPass % block == 0 && lPass / block <= p.groups &&
        p.groups % (p.rowSlices / m) == 0)
      return block;
  }
  return 0;
}

// gate/up: pairRows pairs (a gate and an up row on each lane, two time-broadcast pairs a lane
// when the TRF holds them, else one) per slice; the MLP runs in passes over L, each pass's
// pairs on at most a cluster's slices and its down K blocks in the cluster's rings. A pass
// only tiles rows (gate/up) or whole K blocks (down), so each sum keeps its order.
inline llvm::Error planDecoderMlp(DecoderPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t H = s.hidden, L = s.intermediate;
  if (p.rowsPerSlice != p.flit)
    return placementError(kDecoderStage,
                          "a slice's rows of x are one flit (the broadcast's packet)",
                          decimal(p.rowsPerSlice) + " rows, " + decimal(p.flit) + " values a flit");
  p.pairRows = p.rowsPerSlice * 2 * H * 2 <= t.trfBytesPerSlice ? p.rowsPerSlice : p.lanes;
  if (p.pairRows * 2 * H * 2 > t.trfBytesPerSlice)
    return placementError(kDecoderStage, "a slice's gate and up rows fit the TRF",
                          decimal(p.pairRows) + " pairs x hidden " + decimal(H) + " bf16 is " +
                              decimal(p.pairRows * 4 * H) + " bytes, the TRF holds " +
                              decimal(t.trfBytesPerSlice));
  p.dValues = kDownFlitsPerSlice * p.flit;
  p.dBlock = 0;
  for (p.passes = 1; p.passes <= L / p.pairRows && !p.dBlock; ++p.passes) {
    p.lPass = L / p.passes;
    if (L % p.passes || p.lPass % p.pairRows || p.lPass / p.pairRows > p.slices)
      continue;
    p.dBlock = chooseDownBlock(p, p.lPass);
    if (p.rowsPerSlice * p.dBlock * 2 > t.trfBytesPerSlice)
      p.dBlock = 0; // down's rows x K block must fit the TRF: more passes
  }
  --p.passes;
  if (!p.dBlock)
    return placementError(kDecoderStage,
                          "passes over L tile gate/up's pairs on a cluster's slices and down's K "
                          "blocks in its rings",
                          "intermediate " + decimal(L) + " in " + decimal(p.pairRows) +
                              " pairs per slice over " + decimal(p.slices) + " slices, " +
                              decimal(p.groups) + " rings of " + decimal(p.rowSlices) +
                              " slices, " + decimal(p.dValues) + " per slice");
  p.pairSlices = p.lPass / p.pairRows;
  p.dBlocks = p.lPass / p.dBlock;
  p.dSplit = p.rowSlices / (p.dBlock / p.dValues);
  return llvm::Error::success();
}

inline llvm::Expected<DecoderPlan> planPrefillDecoder(const Qwen3Shape &s, const TargetModel &t,
                                                      int64_t T) {
  DecoderPlan p;
  const int64_t H = s.hidden, Q = s.qDim();
  p.clusters = t.clusters;
  p.slices = t.slicesPerCluster;
  p.lanes = t.trfLanes;
  p.flit = t.flitBytes / 2;
  p.flitF32 = t.flitBytes / 4;
  p.trRows = t.transposeColumnBytes / 2;
  p.rowsPerSlice = p.lanes * kTimeBroadcastRows;
  if (H % p.rowsPerSlice || p.slices % (H / p.rowsPerSlice))
    return placementError(kDecoderStage, "a weight's rows tile a cluster's slices",
                          "hidden " + decimal(H) + " in rows of " + decimal(p.rowsPerSlice) +
                              " per slice over " + decimal(p.slices) + " slices");
  p.rowSlices = H / p.rowsPerSlice;
  p.groups = p.slices / p.rowSlices;
  // o_proj: each slice holds its rows x one K block; a's block is broadcast around the ring of
  // the block's rowSlices slices, which hold a's block split over aSplit token groups.
  p.oBlock = Q / p.groups;
  if (Q % p.groups || p.oBlock % p.flit || p.rowSlices % (p.oBlock / p.flit))
    return placementError(kDecoderStage, "o_proj's K blocks fill the ring of a weight's rows",
                          "Q = " + decimal(Q) + " in " + decimal(p.groups) + " blocks, a ring of " +
                              decimal(p.rowSlices) + " slices");
  p.aSplit = p.rowSlices / (p.oBlock / p.flit);
  if (p.rowsPerSlice * p.oBlock * 2 > t.trfBytesPerSlice)
    return placementError(kDecoderStage, "o_proj's rows x K block fit the TRF",
                          decimal(p.rowsPerSlice) + " rows x " + decimal(p.oBlock) + " bf16 is " +
                              decimal(p.rowsPerSlice * p.oBlock * 2) + " bytes, the TRF holds " +
                              decimal(t.trfBytesPerSlice));
  if (llvm::Error e = planDecoderMlp(p, s, t))
    return e;
  if (llvm::Error e = planDecoderTokens(p, s, t, T))
    return e;
  return p;
}

} // namespace rngd::placement::qwen3
