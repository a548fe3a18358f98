// prefill_decoder's plan: every number of its placement from the shape, the target and T, each
// rule checked. PrefillDecoder.cpp builds the ops and the header. Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/PrefillShared.h"

namespace rngd::placement::qwen3 {

inline constexpr const char *kDecoderStage = "prefill_decoder";

// Below this many tokens per slice a half's down runs whole: a piece's passes would cost more
// in start-ups than they hide.
inline constexpr int64_t kMinPieceTokens = 4;
// In a fused stage, gate's and up's rows load in two halves (weightHalves) from this many
// tokens a slice in a half: below it, the halves' second start-ups cost more than the hand-off
// gains (0.6B measured 96,808 to 95,136 cycles at T = 512, a half's 32 tokens; 61,031 to 63,342
// at 256 and 43,263 to 49,380 at 128).
inline constexpr int64_t kWeightHalvesTokens = 32;
// A half's down in more pieces while each keeps this many tokens a slice: what runs after the
// last contraction (its partial sums' gather and additions, y's store) is one piece's.
inline constexpr int64_t kPieceTokens = 8;
// down's p on a ring slice: two flits of each token's values (64-byte DMA pieces); the order of
// down's sums over L follows from it.
inline constexpr int64_t kDownFlitsPerSlice = 2;

// The numbers of the placement (planPrefillDecoder says where each comes from).
struct DecoderPlan {
  int64_t clusters, slices, lanes, flit, flitF32, trRows;
  bool trF32 = false; // the norm's transposes in f32 (fewer rows: fewer tokens a slice)
  int64_t rowsPerSlice; // weight rows on a slice: lanes x time-broadcast rows
  int64_t xParts = 1, hx; // x in parts of hx values of H (planDecoderXParts), else H itself
  int64_t rowSlices;    // hx / rowsPerSlice: the slices holding one copy of a part's rows
  int64_t groups;       // slices / rowSlices: x's token groups, o_proj's K blocks
  int64_t oBlock;       // o_proj's K block: Q / (groups x oPasses)
  int64_t oPasses;      // o_proj in passes over Q (each pass's K blocks in the TRF in turn)
  int64_t qPass;        // a pass's values of Q: groups x oBlock
  int64_t aSplit;       // a's token split over its ring (the ring is aSplit x oBlock / flit)
  int64_t used;         // clusters the tokens are split over
  int64_t perCluster;   // tokens per cluster
  int64_t perSlice;     // tokens per slice of x's layout
  int64_t halves, u;    // the block in halves of u tokens per slice
  int64_t pieces, pu; // each half's down in `pieces` pieces of pu tokens per slice
  int64_t pairRows;     // gate/up: pairs per slice (lanes x pairs a lane holds)
  // gate and up in passes of their own, each row's weights in its half of the TRF, so that a
  // half's first contraction waits only for gate's weights (planDecoderMlp).
  bool gateUpApart = false;
  // With gateUpApart, up's rows (and down's) load into the TRF on the sub context beside a
  // half's contraction of gate (of up) that lasts at least as long (planDecoderTokens).
  bool upOnSub = false, downOnSub = false;
  // o_proj in a pass for each half of the tokens (planDecoderTokens), so that the first half's
  // partial sums gather while the second half contracts.
  bool oProjByHalf = false;
  // gate's and up's rows each in two DMAs (the first and second half of every slice's rows),
  // read as one tensor: in a fused stage, a's hand-off then waits behind half a weight stream
  // on the engines, not a whole one (set by the fused stage, with the MLP in one pass and x in
  // one part).
  bool weightHalves = false;
  int64_t hParts, hPart; // gate/up's K (H) in hParts parts of hPart values, each on its slices
  int64_t partSlices;   // slices of one part of H: slices / hParts
  int64_t passes, lPass; // the MLP in passes over L, lPass values of L each
  int64_t intermediate;  // L
  int64_t passStep;      // where pass c starts in L: c passStep (lPass, but in a last pass)
  int64_t tail = 0;      // the last pass's values of L when shorter than the others (else 0)
  int64_t pairSlices;   // gate/up: slices holding a pass's pairs
  int64_t siluChunks;   // silu(g) u per chunk of a half's tokens (the VRF holds u)
  int64_t sumChunks = 1; // x's parts' g and u sums added per chunk of a half's tokens
  int64_t dBlock, dBlocks, dValues, dSplit; // down: K block, blocks, values per slice, split
  // The weights split over the clusters (a small block): o_proj's pass c over Q on cluster c,
  // the MLP's passes over L spread evenly over them (cluster c the c-th run of passes / clusters),
  // every cluster contracting all T tokens.
  bool split = false;
  // With the weights split: its o_proj K blocks, gate/up parts of H and down K blocks are the
  // one-cluster plan's, so each token's sums keep that plan's order.
  bool splitKeepsOrder = false;
};

// Clusters the block's tokens split over. Every cluster in use reads every weight: one cluster
// reads them at its DM intake, several share HBM; the contractions' time (each token streams
// its K values of o_proj, gate/up and down through a ring, a flit a cycle) splits over them.
// The estimate adds the two (a small block's contractions barely overlap the weights), so a
// small block, bound by the weights' DMAs, runs on one cluster and a large one on all of them.
inline int64_t chooseDecoderClusters(const DecoderPlan &p, const Qwen3Shape &s,
                                     const TargetModel &t, int64_t T) {
  const int64_t H = s.hidden, L = s.intermediate;
  if (p.split)
    return 1; // every cluster takes all the tokens
  const double weightBytes = 2.0 * double(H * s.qDim() + 3 * L * H);
  // With H in parts every MLP pass repeats h's broadcast and down's stream: counted per pass.
  // (Shapes that need no parts keep the one-pass count, and so their placements.)
  const int64_t mlpStreams = p.hParts > 1 ? p.passes * (2 * p.hPart + p.dBlock) : 2 * H + p.dBlock;
  // With x in parts each part streams o_proj's blocks and the MLP's values again (counted whole
  // for every part: an overestimate, which splits the tokens a little sooner).
  const double flitsPerToken =
      double(p.xParts) * double(p.oBlock * p.oPasses + mlpStreams) / double(p.flit);
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
// other's contraction) and pieces of the halves for down.
inline llvm::Error planDecoderTokens(DecoderPlan &p, const Qwen3Shape &s, const TargetModel &t,
                                     int64_t T) {
  p.used = chooseDecoderClusters(p, s, t, T);
  p.perCluster = T / p.used;
  p.perSlice = p.perCluster / p.groups;
  // The RMSNorm's transpose puts trRows tokens in the lanes: a half needs at least that many.
  // Fewer tokens a slice than bf16 rows: r transposed in f32 (its values exact), whose
  // column holds fewer rows.
  const int64_t trF32 = t.transposeColumnBytes / 4;
  if (p.perSlice % p.trRows && p.perSlice > 0 && p.perSlice % trF32 == 0)
    p.trRows = trF32, p.trF32 = true;
  if (p.perCluster % p.groups || p.perSlice % p.trRows || p.perCluster % p.aSplit)
    return placementError(kDecoderStage, "each slice of x holds whole transposes of tokens",
                          "T = " + decimal(T) + " over " + decimal(p.used) + " clusters x " +
                              decimal(p.groups) + " token groups is " + decimal(p.perSlice) +
                              " per slice, transposes take " + decimal(p.trRows) + " (" +
                              decimal(trF32) + " in f32)");
  // The reducer sums a pass's tokens in vectorReduceSlots slots of trRows tokens.
  const int64_t maxU = p.trRows * t.vectorReduceSlots;
  p.halves = std::max<int64_t>((p.perSlice + maxU - 1) / maxU,
                               std::min<int64_t>(2, p.perSlice / p.trRows));
  p.u = p.perSlice / p.halves;
  if (p.perSlice % p.halves || p.u % p.trRows)
    return placementError(kDecoderStage, "halves hold whole transposes",
                          decimal(p.perSlice) + " tokens per slice in " + decimal(p.halves) +
                              " halves");
  // With one token group the ring's rest (dSplit) splits a piece's tokens.
  const bool tokenSplit = p.groups % p.dSplit != 0;
  // Pieces only when the MLP runs in one pass on a cluster: with several, the next pass's
  // weights and gate/up already hide a pass's gathers, and the pieces' p layout DMAs (twice
  // as many, half the size) only add start-ups and queue behind the gathers.
  const bool onePass = (p.split ? p.passes / p.clusters : p.passes) == 1;
  auto piecesFit = [&](int64_t n) { return !tokenSplit || p.u / n % p.dSplit == 0; };
  p.pieces = onePass && p.u >= 2 * kMinPieceTokens && piecesFit(2) ? 2 : 1;
  while (p.pieces > 1 && p.u / (2 * p.pieces) >= kPieceTokens && piecesFit(2 * p.pieces))
    p.pieces *= 2;
  p.pu = p.u / p.pieces;
  if (tokenSplit && p.pu % p.dSplit)
    return placementError(kDecoderStage, "down's ring splits a piece's tokens",
                          decimal(p.pu) + " tokens a piece over " + decimal(p.dSplit) +
                              " slices of the ring");
  // o_proj by halves: a slice of a holds whole token groups of x's slices (so a half's tokens
  // are a view of it), with the weights in one pass over Q and x in one part, and a half of at
  // least two pieces of down's tokens (shorter halves' passes hide too little: 0.6B at T = 128,
  // 8 tokens a half, measured 262 cycles longer by halves; T = 256 2,237 and T = 512 720 shorter).
  const int64_t aTokens = p.perCluster / p.aSplit;
  p.oProjByHalf = p.halves > 1 && !p.split && p.xParts == 1 && p.oPasses == 1 &&
                  aTokens % p.perSlice == 0 && p.u >= 2 * kPieceTokens;
  // A TRF load on the sub context (its fetch reads subFetchAccessBytes a cycle) hides beside a
  // half's contraction of one matrix (each token's h a flit a cycle) when it is no longer.
  const int64_t contraction = p.groups * p.u * p.hx / p.flit;
  auto hides = [&](int64_t rowBytes) {
    return p.gateUpApart && rowBytes / t.subFetchAccessBytes <= contraction;
  };
  p.upOnSub = hides(p.pairRows * p.hx * 2);
  p.downOnSub = hides(p.rowsPerSlice * p.dBlock * 2);
  // silu(g) u per chunk of a half: u of the chunk's tokens in at most half the VRF.
  p.siluChunks = 1;
  while (p.groups / p.siluChunks * p.u * p.pairRows * 4 > t.vrfBytesPerSlice / 2 &&
         p.siluChunks < p.groups)
    p.siluChunks *= 2;
  if (p.groups % p.siluChunks ||
      p.groups / p.siluChunks * p.u * p.pairRows * 4 > t.vrfBytesPerSlice / 2)
    return placementError(kDecoderStage, "u of a chunk of a half's tokens fits half the VRF",
                          decimal(p.u) + " tokens per slice");
  // gate/up's parts of H: a half's g and u sums of a part (f32) added through the VRF; x's
  // parts: in chunks of a half's tokens that fit half of it.
  const int64_t partBytes = p.groups * p.u * p.pairRows * 2 * 4;
  p.sumChunks = 1;
  while (p.xParts > 1 && partBytes / p.sumChunks > t.vrfBytesPerSlice / 2 &&
         (p.groups * p.u) % (2 * p.sumChunks) == 0)
    p.sumChunks *= 2;
  if ((p.hParts > 1 || p.xParts > 1) && partBytes / p.sumChunks > t.vrfBytesPerSlice / 2)
    return placementError(kDecoderStage, "a half's g and u sums of a part of H fit half the VRF",
                          decimal(p.u) + " tokens x " + decimal(p.pairRows) + " pairs of f32 is " +
                              decimal(partBytes) + " bytes, the VRF holds " +
                              decimal(t.vrfBytesPerSlice));
  return llvm::Error::success();
}

// down over a pass's lPass values of L: rowsPerSlice rows x a K block per slice, each block's p
// broadcast around the ring of the block's rowSlices slices, dValues of p per token on a slice.
// The smallest K block (the most blocks, at most `groups` rings) that tiles lPass and whose
// slices (block / dValues) divide the ring; the ring's rest splits the token groups, or with
// one group (x's slices one ring) a piece's tokens. With two or more flits of a token on a
// slice the rest's tokens accumulate at once (their digit lies between the summed ones), each
// with its rows of a slice in packets of kTimeBroadcastRows flits: they fit the contraction's
// accumulator; with one flit a token's sum ends before the next one's starts. 0: none.
inline int64_t chooseDownBlock(const DecoderPlan &p, int64_t lPass, const TargetModel &t) {
  for (int64_t m = 1; m <= p.rowSlices; ++m) {
    const int64_t block = m * p.dValues;
    const int64_t rest = p.rowSlices / m;
    if (p.rowSlices % m == 0 && lPass % block == 0 && lPass / block <= p.groups &&
        (p.groups % rest == 0 || p.groups == 1) &&
        (p.dValues > p.flit ? rest : 1) * (p.rowsPerSlice / p.lanes) * kTimeBroadcastRows *
                p.flit <=
            t.timeReducerCells)
      return block;
  }
  return 0;
}

// When the passes that divide L leave gate/up's pairs on under half a cluster's slices: the
// longest passes whose pairs fit its slices and whose down K blocks its rings, and a last,
// shorter pass of the rest, a whole number of the same K blocks (so down's sums keep the
// order of equal passes: blocks of dBlock in L order). A long pass is shorter than L: when all
// of L fits one pass (its pairs on under half the slices) that pass stays as planned.
// With the weights split over the clusters the same holds for each cluster's run of L.
inline void planDecoderLongPasses(DecoderPlan &p, int64_t L, const TargetModel &t) {
  const int64_t runs = p.split ? p.clusters : 1, run = L / runs;
  if (2 * p.pairSlices >= p.partSlices || L % runs)
    return;
  const int64_t longest = std::min(p.partSlices * p.pairRows, run - p.pairRows);
  for (int64_t lPass = longest; lPass > p.lPass; lPass -= p.pairRows) {
    const int64_t block = chooseDownBlock(p, lPass, t), tail = run % lPass;
    if (!block || p.rowsPerSlice * block * 2 > t.trfBytesPerSlice || tail == 0 || tail % block ||
        tail % p.pairRows)
      continue;
    p.lPass = p.passStep = lPass, p.passes = runs * (run / lPass + 1), p.tail = tail;
    p.dBlock = block, p.pairSlices = lPass / p.pairRows, p.dBlocks = lPass / block;
    p.dSplit = p.rowSlices / (block / p.dValues);
    return;
  }
}

// The last pass's plan when it is shorter (planDecoderLongPasses): its pairs and K blocks.
inline DecoderPlan decoderTailPlan(const DecoderPlan &p) {
  DecoderPlan q = p;
  q.lPass = p.tail, q.tail = 0;
  q.pairSlices = p.tail / p.pairRows, q.dBlocks = p.tail / p.dBlock;
  return q;
}

// down's partial sums need no gather when a pass has one K block and x one token group on the
// clusters x uses: the commit lays them out as x's slices hold a token part.
inline bool downSumsInPlace(const DecoderPlan &p) {
  return p.dBlocks == 1 && p.groups == 1 && !p.split;
}

// With the weights split over the clusters, down's partial sums are gathered, added and stored
// by token group: cluster c takes the c-th run of x's groups (on those groups' first slices),
// so each cluster gathers and adds only its tokens' sums instead of every cluster all of them.
// Only with x in one part and groups a multiple of the clusters.
inline bool sumsByTokenGroup(const DecoderPlan &p) {
  return p.split && p.xParts == 1 && p.groups % p.clusters == 0;
}

// gate/up's K: all of H on each slice when a lane's pair of rows fits the TRF, else H in the
// fewest parts (a power of two) that fit, part k's rows on the k-th of hParts equal runs of the
// cluster's slices; the broadcast of h keeps a part on its run (its outer slice digit), so x's
// slices must be one ring (one token group). The parts' f32 sums add in part order.
inline llvm::Error planDecoderHParts(DecoderPlan &p, int64_t H, const TargetModel &t) {
  for (p.hParts = 1; p.pairRows * 4 * (H / p.hParts) > t.trfBytesPerSlice; p.hParts *= 2)
    if (H % (2 * p.hParts) || (H / (2 * p.hParts)) % p.rowsPerSlice)
      break;
  p.hPart = H / p.hParts;
  p.partSlices = p.slices / p.hParts;
  if (p.pairRows * 4 * p.hPart > t.trfBytesPerSlice)
    return placementError(kDecoderStage, "a slice's gate and up rows (a part of H) fit the TRF",
                          decimal(p.pairRows) + " pairs x " + decimal(p.hPart) + " of hidden " +
                              decimal(H) + " bf16 is " + decimal(p.pairRows * 4 * p.hPart) +
                              " bytes, the TRF holds " + decimal(t.trfBytesPerSlice));
  if (p.hParts > 1 && (p.groups != 1 || p.slices % p.hParts))
    return placementError(kDecoderStage,
                          "gate/up's parts of H each broadcast on their own run of slices",
                          decimal(p.hParts) + " parts of hidden " + decimal(H) + " over " +
                              decimal(p.groups) + " token groups of " + decimal(p.slices) +
                              " slices");
  return llvm::Error::success();
}

// gate/up: pairRows pairs (a gate and an up row on each lane, two time-broadcast pairs a lane
// when the TRF holds them, else one) per slice; the MLP runs in passes over L, each pass's
// pairs on at most a cluster's slices and its down K blocks in the cluster's rings. A pass
// only tiles rows (gate/up) or whole K blocks (down), so each sum keeps its order.
inline llvm::Error planDecoderMlp(DecoderPlan &p, const Qwen3Shape &s, const TargetModel &t) {
  const int64_t H = p.hx, L = s.intermediate;
  if (p.rowsPerSlice != p.flit)
    return placementError(kDecoderStage,
                          "a slice's rows of x are one flit (the broadcast's packet)",
                          decimal(p.rowsPerSlice) + " rows, " + decimal(p.flit) + " values a flit");
  p.pairRows = p.rowsPerSlice * 2 * H * 2 <= t.trfBytesPerSlice ? p.rowsPerSlice : p.lanes;
  if (llvm::Error e = planDecoderHParts(p, H, t))
    return e;
  // down's p: kDownFlitsPerSlice flits of a token per ring slice, or one flit when no pass
  // count places two (a ring of all of a cluster's slices: its blocks must span more slices).
  p.dBlock = 0;
  for (int64_t flits = kDownFlitsPerSlice; flits >= 1 && !p.dBlock; flits /= 2) {
    p.dValues = flits * p.flit;
    // Split over the clusters: the same number of passes on each cluster.
    const int64_t step = p.split ? p.clusters : 1;
    for (p.passes = step; p.passes <= L / p.pairRows && !p.dBlock; p.passes += step) {
      p.lPass = L / p.passes;
      if (L % p.passes || p.lPass % p.pairRows || p.lPass / p.pairRows > p.partSlices)
        continue;
      p.dBlock = chooseDownBlock(p, p.lPass, t);
      if (p.rowsPerSlice * p.dBlock * 2 > t.trfBytesPerSlice)
        p.dBlock = 0; // down's rows x K block must fit the TRF: more passes
    }
    p.passes -= step;
  }
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
  p.intermediate = L, p.passStep = p.lPass;
  // Apart when a lane holds a time-broadcast group of each matrix's rows (else a pass of one
  // row a lane takes as long as one of both) and their sums are used as contracted (with parts
  // of H or of x to add, they stay interleaved in one tensor, contracted together).
  p.gateUpApart = p.pairRows >= kTimeBroadcastRows * p.lanes && p.hParts == 1 && p.xParts == 1;
  planDecoderLongPasses(p, L, t);
  return llvm::Error::success();
}

// o_proj's passes over Q: pass c contracts Q values [c qPass, (c + 1) qPass), its groups K
// blocks on the groups rings; the partial sums of all the blocks are added in K order.
inline llvm::Error planDecoderOProj(DecoderPlan &p, int64_t Q, const TargetModel &t) {
  auto fits = [&](int64_t passes) {
    if (Q % (p.groups * passes))
      return false;
    const int64_t block = Q / (p.groups * passes);
    return block % p.flit == 0 && p.rowSlices % (block / p.flit) == 0 &&
           p.rowsPerSlice * block * 2 <= t.trfBytesPerSlice;
  };
  // Split over the clusters: the same number of passes on each cluster (cluster c the c-th
  // run of Q).
  const int64_t step = p.split ? p.clusters : 1;
  for (p.oPasses = step; p.oPasses < Q / p.flit && !fits(p.oPasses); p.oPasses += step) {
  }
  if (!fits(p.oPasses))
    return placementError(kDecoderStage,
                          "o_proj's K blocks (in passes over Q) fill the ring of a weight's rows "
                          "and fit the TRF",
                          "Q = " + decimal(Q) + " in " + decimal(p.groups) +
                              " blocks a pass, a ring of " + decimal(p.rowSlices) + " slices, " +
                              decimal(p.rowsPerSlice) + " rows of bf16, the TRF holds " +
                              decimal(t.trfBytesPerSlice));
  p.qPass = Q / p.oPasses;
  p.oBlock = p.qPass / p.groups;
  p.aSplit = p.rowSlices / (p.oBlock / p.flit);
  return llvm::Error::success();
}

// x's parts: a weight's rows (rowsPerSlice a slice) tile a cluster's slices, or H splits in
// the fewest parts whose rows do (each part's rows in turn on the same slices; o_proj's and
// down's rows, the residual and gate/up's K run part by part, the norm over all the parts).
inline llvm::Error planDecoderXParts(DecoderPlan &p, int64_t H) {
  const int64_t RS = p.rowsPerSlice;
  for (p.xParts = 1; p.xParts <= H / RS; ++p.xParts) {
    p.hx = H / p.xParts;
    if (H % p.xParts == 0 && p.hx % RS == 0 && p.slices % (p.hx / RS) == 0)
      return llvm::Error::success();
  }
  return placementError(kDecoderStage,
                        "a weight's rows (in parts of hidden) tile a cluster's slices",
                        "hidden " + decimal(H) + " in rows of " + decimal(RS) +
                            " per slice over " + decimal(p.slices) +
                            " slices, in no equal parts of whole slices dividing them");
}

// The weights' part of the plan (x's parts, o_proj, the MLP): every number that does not
// depend on the block size.
inline llvm::Expected<DecoderPlan> planDecoderWeights(const Qwen3Shape &s, const TargetModel &t,
                                                      bool split) {
  DecoderPlan p;
  p.split = split;
  const int64_t H = s.hidden, Q = s.qDim();
  p.clusters = t.clusters;
  p.slices = t.slicesPerCluster;
  p.lanes = t.trfLanes;
  p.flit = t.flitBytes / 2;
  p.flitF32 = t.flitBytes / 4;
  p.trRows = t.transposeColumnBytes / 2;
  p.rowsPerSlice = p.lanes * kTimeBroadcastRows;
  if (llvm::Error e = planDecoderXParts(p, H))
    return e;
  p.rowSlices = p.hx / p.rowsPerSlice;
  p.groups = p.slices / p.rowSlices;
  // o_proj: each slice holds its rows x one K block; a's block is broadcast around the ring of
  // the block's rowSlices slices, which hold a's block split over aSplit token groups. K is in
  // groups x oPasses blocks: the fewest passes over Q whose blocks fill the ring and fit the TRF
  // (each pass's rows x block loaded once the previous pass's contraction has read its own).
  if (llvm::Error e = planDecoderOProj(p, Q, t))
    return e;
  if (llvm::Error e = planDecoderMlp(p, s, t))
    return e;
  if (p.xParts > 1 && p.hParts > 1)
    return placementError(kDecoderStage, "gate/up's rows of a part of x fit the TRF whole",
                          decimal(p.xParts) + " parts of " + decimal(p.hx) + " values of hidden " +
                              decimal(H) + " need gate/up's K in " + decimal(p.hParts) +
                              " parts of their own");
  return p;
}

inline llvm::Expected<DecoderPlan> planDecoderWith(const Qwen3Shape &s, const TargetModel &t,
                                                   int64_t T, bool split) {
  llvm::Expected<DecoderPlan> p = planDecoderWeights(s, t, split);
  if (!p)
    return p;
  if (llvm::Error e = planDecoderTokens(*p, s, t, T))
    return e;
  return p;
}

// The MLP's intermediate as the stage runs it: L itself when the weights place, else L padded
// to the Lp in (L, 2 L], a multiple of kPadStep, whose MLP runs in the fewest passes (each
// pass streams every token's h and p once, however few slices it fills), then the smallest.
// The host gives gate and up Lp - L zero rows and down as many zero columns: each padded
// product is 0, so the sums are L's. (A tensor-parallel shard's L / N can lack the power-of-two
// factors down's K blocks need: 32B over 8 chips has 3,200 = 2^7 x 25.) The same for every
// block size: it depends on the weights' plan alone. 0: no Lp places either.
inline constexpr int64_t kPadStep = 128;
inline int64_t decoderIntermediate(const Qwen3Shape &s, const TargetModel &t) {
  llvm::Expected<DecoderPlan> p = planDecoderWeights(s, t, false);
  if (p)
    return s.intermediate;
  llvm::consumeError(p.takeError());
  int64_t best = 0, bestPasses = 0;
  for (int64_t lp = (s.intermediate / kPadStep + 1) * kPadStep; lp <= 2 * s.intermediate;
       lp += kPadStep) {
    Qwen3Shape padded = s;
    padded.intermediate = lp;
    llvm::Expected<DecoderPlan> q = planDecoderWeights(padded, t, false);
    if (!q) {
      llvm::consumeError(q.takeError());
      continue;
    }
    if (!best || q->passes < bestPasses)
      best = lp, bestPasses = q->passes;
  }
  return best;
}

// Whether the split plan `q` adds each token's sums in the one-cluster plan `p`'s order: the
// same o_proj K blocks, the same gate/up parts of H, the same down K blocks in L order.
inline bool sameSumOrder(const DecoderPlan &p, const DecoderPlan &q) {
  return p.oBlock == q.oBlock && p.hParts == q.hParts && p.dBlock == q.dBlock &&
         p.dValues == q.dValues;
}

// The plan: the tokens over the clusters (planDecoderTokens' estimate), or, for a block that
// runs on one cluster (bound by the weights' DMAs), the weights split over the clusters: each
// cluster reads 1 / clusters of the weights, so they stream from HBM once at its rate instead of
// through one cluster's DMA intake. o_proj then runs in as many passes on each cluster (cluster
// c the c-th run of Q), the MLP likewise over L (each cluster's run in long passes and a shorter
// last one where equal passes would leave slices idle; gate/up's parts of H, if any, on each),
// x's parts, if any, in turn on both. A split that does not place leaves the one-cluster plan.
// `s`: the shape with its padded intermediate (decoderShape).
inline llvm::Expected<DecoderPlan> planPrefillDecoder(const Qwen3Shape &s, const TargetModel &t,
                                                      int64_t T) {
  llvm::Expected<DecoderPlan> p = planDecoderWith(s, t, T, false);
  if (!p || p->used > 1 || p->clusters == 1)
    return p;
  llvm::Expected<DecoderPlan> q = planDecoderWith(s, t, T, true);
  if (!q) {
    llvm::consumeError(q.takeError());
    return p;
  }
  q->splitKeepsOrder = sameSumOrder(*p, *q);
  return q;
}

// The shape the stage is placed for: `s` with decoderIntermediate's L; L's own error when
// no padding places either.
inline llvm::Expected<Qwen3Shape> decoderShape(const Qwen3Shape &s, const TargetModel &t) {
  Qwen3Shape padded = s;
  padded.intermediate = decoderIntermediate(s, t);
  if (padded.intermediate)
    return padded;
  llvm::Expected<DecoderPlan> p = planDecoderWeights(s, t, false);
  return p.takeError();
}

// The plan prefill_decoder is built with for the model's shape (its intermediate padded by
// decoderShape), for the stages that read that stage's layouts.
inline llvm::Expected<DecoderPlan> planModelDecoder(const Qwen3Shape &s, const TargetModel &t,
                                                    int64_t T) {
  llvm::Expected<Qwen3Shape> padded = decoderShape(s, t);
  if (!padded)
    return padded.takeError();
  return planPrefillDecoder(*padded, t, T);
}

} // namespace rngd::placement::qwen3
