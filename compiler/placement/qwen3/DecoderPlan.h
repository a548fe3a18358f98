// `decoder`'s placement plan: the rows per slice and lanes of o-proj/down, o-proj's passes over Q,
// the MLP's passes over L with gate/up's lanes, the rings of a, h and p, and the single-slice
// checks, each rule refused with its numbers (placementError).
#pragma once

#include "compiler/placement/qwen3/DecoderMlp.h"
#include "compiler/placement/qwen3/SliceNorm.h"

#include <algorithm>
#include <numeric>

namespace rngd::placement::qwen3::decoder_mlp {

constexpr const char *kDecoderStage = "decoder";

/// The largest ring that divides both the vector's flits and the slices it must reach (a ring
/// is a power of two of slices, at most a cluster).
inline llvm::Expected<Ring> planRing(const TargetModel &t, llvm::StringRef what, int64_t elems,
                              int64_t used) {
  if (elems * 2 % t.flitBytes != 0)
    return placementError(kDecoderStage, "an activation spreads over a ring in whole flits",
                          what + " has " + llvm::Twine(elems) + " bf16, not a multiple of " +
                              llvm::Twine(t.flitBytes / 2));
  const int64_t flits = elems * 2 / t.flitBytes;
  const int64_t common = std::gcd(flits, used);
  Ring r;
  r.size = std::min<int64_t>(common & -common, t.slicesPerCluster);
  r.count = used / r.size;
  r.perSlice = flits / r.size;
  r.used = used;
  if (r.size % 2 != 0 || t.slicesPerCluster % r.size != 0)
    return placementError(kDecoderStage, "a ring streams packets of two flits (pack 2)",
                          what + ": " + llvm::Twine(flits) + " flits over " + llvm::Twine(used) +
                              " slices give rings of " + llvm::Twine(r.size));
  return r;
}

/// o-proj's passes over Q: the fewest that divide Q into blocks whose rows (outPerLane of them
/// in each of outLanes lanes) fit a lane, in whole packets of two flits when there are several
/// (each pass's 32-value trees stay whole), and whose a spreads over rings of the o-proj slices.
/// One pass (the whole of Q) when its rows fit.
inline llvm::Error planOutPasses(const Qwen3Shape &s, const TargetModel &t, Plan &plan) {
  const int64_t laneBytes = t.trfBytesPerSlice / plan.outLanes, packet = 2 * t.flitBytes;
  for (int64_t passes = 1; passes == 1 || passes * packet <= s.qDim() * 2; ++passes) {
    const int64_t block = s.qDim() / passes;
    if (s.qDim() % passes != 0 || plan.outPerLane * block * 2 > laneBytes ||
        (passes > 1 && block * 2 % packet != 0))
      continue;
    llvm::Expected<Ring> a = planRing(t, "a", block, plan.outSlices);
    if (!a) {
      if (passes == 1)
        return a.takeError();
      llvm::consumeError(a.takeError());
      continue;
    }
    plan.oPasses = passes;
    plan.qPass = block;
    plan.a = *a;
    return llvm::Error::success();
  }
  return placementError(
      kDecoderStage, "o-proj's rows fit the TRF lanes, in passes over Q",
      "rows of " + llvm::Twine(s.qDim()) + " bf16, " + llvm::Twine(plan.outPerLane) +
          " per lane of " + llvm::Twine(laneBytes) + " bytes (" + llvm::Twine(plan.outLanes) +
          " lanes): no divisor of Q in packets of " + llvm::Twine(packet) +
          " bytes fits and spreads over rings of " + llvm::Twine(plan.outSlices) + " slices");
}

/// o-proj and down: the fewest rows per slice a DMA moves (r is gathered and stored by DMA:
/// commitStrideAlignment bytes of bf16), doubled until the clusters' slices hold H; one row per
/// TRF lane (short TRF loads) up to trfLanes rows, beyond that outRows / trfLanes rows in each
/// lane (the contraction's time slots); an even number (down streams its even and odd rows as
/// halves).
inline llvm::Error planOut(const Qwen3Shape &s, const TargetModel &t, Plan &plan) {
  plan.outRows = t.commitStrideAlignment / 2;
  while (s.hidden > plan.outRows * t.totalSlices())
    plan.outRows *= 2;
  plan.outLanes = std::min(plan.outRows, t.trfLanes);
  plan.outPerLane = plan.outRows / plan.outLanes;
  const int64_t unit = plan.outRows * t.clusters;
  if (plan.outRows % 2 != 0 || plan.outRows % plan.outLanes != 0 || s.hidden % unit != 0)
    return placementError(kDecoderStage, "o-proj and down hold whole rows of H on each slice",
                          "hidden " + llvm::Twine(s.hidden) + " in " + llvm::Twine(plan.outRows) +
                              " rows per slice on " + llvm::Twine(t.clusters) + " clusters of " +
                              llvm::Twine(t.slicesPerCluster) + " slices, " +
                              llvm::Twine(t.trfLanes) + " TRF lanes");
  plan.outSlices = s.hidden / unit;
  return planOutPasses(s, t, plan);
}

/// gate/up: on the slices of the fewest whole rings of h per cluster that hold a pass's L
/// (plan.lPass) in each of `lanes` TRF lanes (trfBytesPerSlice / lanes bytes each; whole rows
/// per lane, each lane's rows fitting it). A ring starts as h's flits, one per slice (the largest
/// power of two of them, at most a cluster); when no count of such rings holds L, the ring
/// halves (two flits a slice) and the search repeats.
inline llvm::Error planMlp(const Qwen3Shape &s, const TargetModel &t, Plan &plan, int64_t lanes) {
  if (s.hidden * 2 % t.flitBytes != 0)
    return placementError(kDecoderStage, "h spreads over a ring in whole flits",
                          "hidden " + llvm::Twine(s.hidden) + " bf16 in flits of " +
                              llvm::Twine(t.flitBytes / 2));
  const int64_t flits = s.hidden * 2 / t.flitBytes;
  const int64_t laneBytes = t.trfBytesPerSlice / lanes;
  const int64_t perSubAccess = t.subFetchAccessBytes / 4; // f32 of u read into the VRF
  if (lanes % perSubAccess != 0)
    return placementError(kDecoderStage, "u goes to the VRF in whole sub accesses",
                          llvm::Twine(lanes) + " lanes, " + llvm::Twine(perSubAccess) +
                              " f32 per access");
  for (int64_t size = std::min<int64_t>(flits & -flits, t.slicesPerCluster); size >= 2; size /= 2) {
    for (int64_t count = 1; count * size <= t.slicesPerCluster; ++count) {
      const int64_t unit = count * size * t.clusters * lanes;
      if (plan.lPass % unit != 0 || plan.lPass / unit * s.hidden * 2 > laneBytes)
        continue;
      plan.mlpLanes = lanes;
      plan.mlpRowsPerLane = plan.lPass / unit;
      plan.mlpSlices = count * size;
      plan.h = Ring{size, count, flits / size, count * size};
      return llvm::Error::success();
    }
  }
  return placementError(
      kDecoderStage, "gate/up fill every TRF lane of whole rings of h",
      "a pass of " + llvm::Twine(plan.lPass) + " rows of " + llvm::Twine(s.hidden * 2) +
          " bytes, " + llvm::Twine(t.clusters) + " clusters of " + llvm::Twine(t.slicesPerCluster) +
          " slices, " + llvm::Twine(lanes) + " lanes of " + llvm::Twine(laneBytes) + " bytes");
}

/// The MLP's passes over L: the fewest that divide L into blocks whose down rows (a block of
/// each row of H, outPerLane per lane) fit a lane, in whole packets of two flits (the
/// contraction's 32-value trees stay whole, so each pass sums its own values in the kernel's
/// order), whose gate/up rows fill whole rings of h (planMlp) and whose p spreads over rings of
/// the down slices. One pass when the whole of L fits. Gate/up use every TRF lane when some
/// pass count allows it; otherwise half as many, longer lanes (a row of H larger than a lane).
inline llvm::Error planPasses(const Qwen3Shape &s, const TargetModel &t, Plan &plan) {
  const int64_t laneBytes = t.trfBytesPerSlice / plan.outLanes, packet = 2 * t.flitBytes;
  for (int64_t lanes = t.trfLanes; lanes >= 1; lanes /= 2) {
    for (int64_t passes = 1; passes * packet <= s.intermediate * 2; ++passes) {
      if (s.intermediate % passes != 0)
        continue;
      plan.passes = passes;
      plan.lPass = s.intermediate / passes;
      if (plan.outPerLane * plan.lPass * 2 > laneBytes || plan.lPass * 2 % packet != 0)
        continue;
      if (llvm::Error e = planMlp(s, t, plan, lanes)) {
        llvm::consumeError(std::move(e));
        continue;
      }
      llvm::Expected<Ring> p = planRing(t, "p", plan.lPass, plan.outSlices);
      if (!p) {
        llvm::consumeError(p.takeError());
        continue;
      }
      plan.p = *p;
      return llvm::Error::success();
    }
  }
  return placementError(
      kDecoderStage, "the MLP passes over L in blocks that fit the TRF",
      "intermediate " + llvm::Twine(s.intermediate) + ", hidden " + llvm::Twine(s.hidden) +
          ": no divisor of L gives down rows of at most " + llvm::Twine(laneBytes) + " bytes (" +
          llvm::Twine(plan.outPerLane) + " per lane, " + llvm::Twine(plan.outLanes) +
          " lanes) in packets of " + llvm::Twine(packet) +
          " bytes whose gate/up rows fill whole rings of h on 1 to " + llvm::Twine(t.trfLanes) +
          " lanes and whose p spreads over rings of " + llvm::Twine(plan.outSlices) + " slices");
}

/// Whether a kv head's sums (G f32) are one stream packet: a packet is a multiple of
/// fetchPacketAlignment bytes, at most a flit.
inline bool sumsArePackets(const Qwen3Shape &s, const TargetModel &t) {
  const int64_t bytes = s.groups() * 4;
  return bytes % t.fetchPacketAlignment == 0 && bytes <= t.flitBytes;
}

/// f32 sums per packet: G when a kv head's sums are one packet; otherwise the sums are read as
/// one vector of N x G (axis NG) in the largest power-of-two packets, of whole 8-byte words and
/// at most a flit, that divide it (0: none does).
inline int64_t sumsPerPacket(const Qwen3Shape &s, const TargetModel &t) {
  if (sumsArePackets(s, t))
    return s.groups();
  const int64_t count = s.kvHeads * s.groups();
  for (int64_t n = t.flitBytes / 4; n * 4 >= t.fetchPacketAlignment; n /= 2)
    if (count % n == 0 && n * 4 % t.fetchPacketAlignment == 0)
      return n;
  return 0;
}

/// The single-slice passes' checks: a = x / sum streams D in f32 flits with sum (a packet of G
/// f32) in the VRF; RMSNorm streams H in flits and sub accesses (its weight: SliceNorm.h).
inline llvm::Error checkSingleSlice(const Qwen3Shape &s, const TargetModel &t) {
  const int64_t perFlit = t.flitBytes / 4, perSubAccess = t.subFetchAccessBytes / 2;
  if (s.headDim % perFlit != 0)
    return placementError(kDecoderStage, "x streams in whole f32 flits of a head",
                          "head_dim " + llvm::Twine(s.headDim) + ", flits of " +
                              llvm::Twine(perFlit));
  if (sumsPerPacket(s, t) == 0)
    return placementError(kDecoderStage,
                          "the sums (N x G f32) stream in whole packets",
                          llvm::Twine(s.kvHeads) + " x " + llvm::Twine(s.groups()) + " x 4 = " +
                              llvm::Twine(s.kvHeads * s.groups() * 4) +
                              " bytes; packets are multiples of " +
                              llvm::Twine(t.fetchPacketAlignment) + " up to " +
                              llvm::Twine(t.flitBytes));
  if (s.hidden % perFlit != 0 || s.hidden % perSubAccess != 0)
    return placementError(kDecoderStage, "r streams in whole flits and sub accesses",
                          "hidden " + llvm::Twine(s.hidden));
  return llvm::Error::success();
}

inline llvm::Expected<Plan> planDecoder(const Qwen3Shape &s, const TargetModel &t) {
  Plan plan;
  if (llvm::Error e = checkSingleSlice(s, t))
    return e;
  llvm::Expected<int64_t> parts = slicenorm::weightParts(kDecoderStage, s, t);
  if (!parts)
    return parts.takeError();
  plan.normParts = *parts;
  if (llvm::Error e = planOut(s, t, plan))
    return e;
  if (llvm::Error e = planPasses(s, t, plan))
    return e;
  return plan;
}

} // namespace rngd::placement::qwen3::decoder_mlp
