// batch_final_layer's plan: the LM head's tiles (final_layer's, LmHead.h), the ring that
// carries the T normalised tokens to every slice, and the layout of the logits, each number
// from the shape, the target and T, each rule checked. Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/LmHead.h"
#include "compiler/placement/qwen3/PrefillDecoderPlan.h"
#include "compiler/placement/qwen3/SliceNorm.h"

#include "llvm/ADT/bit.h"

#include <vector>

namespace rngd::placement::qwen3::batch_final {

inline constexpr const char *kStage = "batch_final_layer";

struct Plan {
  LmHeadTiling lm;
  std::vector<LmHeadTailTile> tail;
  int64_t normParts = 1;
  int64_t tokens = 0;   // T
  int64_t flits = 0;    // H / 16: the flits of a token's row
  int64_t ringH = 0;    // the ring's flits of a row (the largest power of two dividing flits)
  int64_t ringT = 1;    // the ring's tokens (when a row's flits leave room on the ring)
  int64_t replicas = 1; // parallel rings per cluster: slicesPerCluster / (ringH x ringT)
  int64_t outBlock = 0; // u: the logits' inner block of rows, [Wp / u, T, Wp % u]
  int64_t xRowsPerSlice = 0; // prefill_decoder's x: [.., H / RS, .., H % RS]
  int64_t group = 1;     // final_layer's full tiles in one of this stage's (rows in time)
  int64_t tileRows = 0;  // a full tile's rows here: lm.tileRows x group
  int64_t rowsPerLane = 0; // lm.rowsPerLane x group
  int64_t fullTiles = 0; // lm.fullTiles / group
};

inline llvm::Error fail(const llvm::Twine &rule, const llvm::Twine &numbers) {
  return placementError(kStage, rule.str(), numbers.str());
}

/// The ring: a row's flits innermost (the contraction sums a row's packets in H order, as
/// final_layer's one-token stream does), tokens outside them; the slices of a cluster that a
/// row's flits leave over hold tokens (ringT) or further rings (replicas).
inline llvm::Error planRing(Plan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t T = p.tokens;
  if (s.hidden * 2 % t.flitBytes != 0 || p.flits % 2 != 0)
    return fail("a row is an even number of flits (the contraction pairs flits)",
                "hidden " + llvm::Twine(s.hidden) + " bf16 in " + llvm::Twine(t.flitBytes) +
                    "-byte flits");
  p.ringH = int64_t(1) << llvm::countr_zero(uint64_t(p.flits));
  while (p.ringH > t.slicesPerCluster)
    p.ringH /= 2;
  p.ringT = 1;
  if (p.ringH == p.flits)
    while (p.ringT * 2 * p.ringH <= t.slicesPerCluster && T % (p.ringT * 2) == 0)
      p.ringT *= 2;
  if (t.slicesPerCluster % (p.ringH * p.ringT) != 0)
    return fail("rings tile a cluster's slices",
                llvm::Twine(p.ringH * p.ringT) + " slices a ring, " +
                    llvm::Twine(t.slicesPerCluster) + " a cluster");
  p.replicas = t.slicesPerCluster / (p.ringH * p.ringT);
  return llvm::Error::success();
}

/// The logits' inner block: a full tile's rows on a slice (its results, [T, slot, lane] in DM
/// in the contraction's time order, are then one run of HBM); every tile's first row and row
/// count must be whole blocks.
inline llvm::Error planOut(Plan &p) {
  p.outBlock = p.lm.lanes * p.rowsPerLane;
  int64_t first = p.lm.fullTiles * p.lm.tileRows;
  for (const LmHeadTailTile &tile : p.tail) {
    if (first % p.outBlock != 0 || tile.rows % p.outBlock != 0)
      return fail("every tile is whole blocks of the logits' layout",
                  "a tile of " + llvm::Twine(tile.rows) + " rows at row " + llvm::Twine(first) +
                      ", blocks of " + llvm::Twine(p.outBlock));
    first += tile.rows;
  }
  return llvm::Error::success();
}

/// The checks RMSNorm on one slice per token rests on (final_layer's): whole flits and sub
/// accesses of H, and a slice of each cluster for each token.
inline llvm::Error checkNorm(const Qwen3Shape &s, const TargetModel &t, int64_t T) {
  const int64_t perFlit = t.flitBytes / 4, perSubAccess = t.subFetchAccessBytes / 2;
  if (s.hidden % perFlit != 0 || s.hidden % perSubAccess != 0)
    return fail("x streams in whole flits", "hidden " + llvm::Twine(s.hidden) + " in flits of " +
                                                llvm::Twine(perFlit) + " f32 and sub accesses of " +
                                                llvm::Twine(perSubAccess));
  if (T > t.slicesPerCluster)
    return fail("each token's RMSNorm runs on a slice of its own",
                llvm::Twine(T) + " tokens, " + llvm::Twine(t.slicesPerCluster) +
                    " slices a cluster");
  return llvm::Error::success();
}

/// A full tile whose lanes hold one row each meets each packet of the tokens' stream once,
/// leaving half the MACs idle (docs/prefill.md, "The GEMM"); when that stream (T x H / 16
/// flits a tile) outlasts the tile's DMA, two of final_layer's tiles go into the TRF at once,
/// two rows a lane (the TRF then not double buffered), if the lanes hold them and the full
/// tiles pair up.
inline void planGroup(Plan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t rowBytes = s.hidden * 2, tileBytes = p.lm.tileRows * rowBytes;
  const bool computeBound = p.tokens * p.flits * t.hbmBytesPerCycle > tileBytes;
  const bool fits = 2 * p.lm.rowsPerLane * rowBytes <= t.trfBytesPerSlice / p.lm.lanes;
  p.group = (p.lm.rowsPerLane == 1 && computeBound && fits && p.lm.fullTiles % 2 == 0) ? 2 : 1;
  p.tileRows = p.lm.tileRows * p.group;
  p.rowsPerLane = p.lm.rowsPerLane * p.group;
  p.fullTiles = p.lm.fullTiles / p.group;
}

inline llvm::Expected<Plan> plan(const Qwen3Shape &s, const TargetModel &t, int64_t T) {
  Plan p;
  p.tokens = T;
  llvm::Expected<LmHeadTiling> lm = planLmHead(s, t);
  if (!lm)
    return lm.takeError();
  p.lm = *lm;
  llvm::Expected<std::vector<LmHeadTailTile>> tail = planLmHeadTail(s, t, p.lm);
  if (!tail)
    return tail.takeError();
  p.tail = *tail;
  if (llvm::Error e = checkNorm(s, t, T))
    return e;
  llvm::Expected<int64_t> parts = slicenorm::weightParts(kStage, s, t);
  if (!parts)
    return parts.takeError();
  p.normParts = *parts;
  // x is prefill_decoder's y: its layout comes from that stage's plan.
  llvm::Expected<DecoderPlan> decoder = planModelDecoder(s, t, T);
  if (!decoder)
    return decoder.takeError();
  p.xRowsPerSlice = decoder->rowsPerSlice;
  p.flits = s.hidden * 2 / t.flitBytes;
  if (llvm::Error e = planRing(p, s, t))
    return e;
  planGroup(p, s, t);
  if (llvm::Error e = planOut(p))
    return e;
  return p;
}

} // namespace rngd::placement::qwen3::batch_final
