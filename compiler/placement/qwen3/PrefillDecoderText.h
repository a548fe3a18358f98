// prefill_decoder's header text: where the tokens and the weights go, the steps, and what a
// large shape splits further, from the plan (PrefillDecoderPlan.h). Header-only: inline
// functions.
#pragma once

#include "compiler/placement/qwen3/PrefillDecoderPlan.h"

#include <cstdio>
#include <string>

namespace rngd::placement::qwen3::prefill_decoder {

inline std::string num(int64_t n) { return std::to_string(n); }

// What cluster c runs of `passes` split over the clusters: its pass, or its run of passes.
inline std::string clusterShare(const DecoderPlan &p, int64_t passes) {
  return passes > p.clusters ? "c-th run of " + num(passes / p.clusters) + " passes"
                             : std::string("pass c");
}

// The header's first sentences: where the tokens and the weights go.
inline std::string placementLead(const DecoderPlan &p) {
  if (p.split)
    return "Placement: all " + num(p.perCluster) + " tokens on each of the " + num(p.clusters) +
           " clusters, the weights split over them (a block this small is bound by the weights' "
           "DMAs, so each is read from HBM once): cluster c runs o_proj's " +
           clusterShare(p, p.oPasses) + " over Q and the MLP's " + clusterShare(p, p.passes) +
           " over L (the passes below), each weight on one slice of its cluster, used "
           "by all the tokens while it sits in the TRF; o_proj's partial sums are gathered onto "
           "every cluster, which each add them, normalise and add the residual alike" +
           (sumsByTokenGroup(p)
                ? std::string("; down's are gathered by token group, cluster c adding those of "
                              "the c-th run of " + num(p.groups / p.clusters) +
                              " of x's groups (on the first slices) and storing that part of y.")
                : std::string(", and down's likewise."));
  return "Placement: tokens split over " + num(p.used) + " of the " + num(p.clusters) +
         " clusters (" + num(p.perCluster) + " each" +
         (p.used < p.clusters ? "; a block this small is bound by the weights' DMAs, which every "
                                "cluster in use repeats"
                              : "") +
         "); each weight on one slice of each cluster in use, used by all its tokens while it "
         "sits in the TRF.";
}

inline void describeDecoder(StageBuilder &b, const Qwen3Shape &s, const DecoderPlan &p, int64_t T,
                     const std::string &xLayout) {
  const int64_t H = s.hidden, Q = s.qDim(), L = s.intermediate, RS = p.rowsPerSlice;
  char eps[32];
  std::snprintf(eps, sizeof eps, "%g", s.rmsNormEps);
  b.describe(
      wrapHeader("Signature:\n"
                 "  attn        [T, Q] bf16 (prefill_attention_first's a), layout [Q / " +
                 num(p.flit) + ", T, Q % " + num(p.flit) +
                 "]\n"
                 "  x, y        [T, H] bf16, the layer's input and output (the residual stream), "
                 "layout " +
                 xLayout +
                 " (prefill_projection's x)\n"
                 "  o_weight [H, Q], post_rms_weight [H], gate_weight and up_weight [L, H], "
                 "down_weight [H, L]"));
  b.describe(wrapHeader(
      placementLead(p) + " After o_proj, the work runs in " +
      num(p.halves) +
      " part(s) of each "
      "cluster's tokens (" +
      num(p.u) + " of each slice's " + num(p.perSlice) +
      " in x's layout), so that one part's DMAs and short passes run beside the other's "
      "contraction.\n"
      "1. o_proj: " +
      num(H) + " rows x " + num(Q) + " is " + num(RS) + " rows x " + num(p.oBlock) +
      " per slice, so K is split in " + num(p.groups) + " blocks (KS): slice (KS, H / " + num(RS) +
      ") holds its rows (" + num(p.lanes) + " lanes, " + num(kTimeBroadcastRows) +
      " time-broadcast rows) x block KS, and the " + num(p.rowSlices) +
      " slices of a block are a ring that broadcasts a's block (" + num(p.perCluster / p.aSplit) +
      " tokens x " + num(p.flit) + " values per slice)" +
      (p.oProjByHalf ? "; a pass for each part of the tokens, so that a part's partial sums "
                       "gather while the next part contracts"
                     : "") +
      ".\n"
      "2. Per part: a DMA gathers the " +
      num(p.groups) +
      " partial sums (f32) onto x's slices "
      "(the inter-slice reducer adds only innermost slices; the ring needs the blocks "
      "outermost), adds them and x through the VRF, then the RMSNorm of r in x's layout (the "
      "transpose puts " +
      num(p.trRows) +
      " tokens in the lanes, the reducer's slots sum the "
      "part's tokens, the inter-slice reducer a row's " +
      num(p.rowSlices) +
      " slices).\n" +
      (p.passes > 1 ? "3. gate/up and down in " + num(p.passes) + " passes of " +
                          (p.tail ? "up to " : "") + num(p.lPass) +
                          (p.split ? " values of L (" + num(p.passes / p.clusters) +
                                         " on each cluster, in turn). gate/up: "
                                   : " values of L (each pass's weights in the TRF in turn). "
                                     "gate/up: ") +
                          num(p.lPass)
                    : "3. gate/up: " + num(L)) +
      " pairs, " + num(p.pairRows) + " per slice on " + num(p.pairSlices) +
      " slices (each lane holds the gate and up rows of " + num(p.pairRows / p.lanes) +
      " pairs), h broadcast around the " + num(p.slices) + "-slice ring" +
      (p.gateUpApart ? "; gate's rows and up's in passes of their own, each in half of the "
                       "TRF (gate's in the half o_proj's rows leave free, so the first pass "
                       "waits only for gate's weights)"
                     : "") +
      (p.upOnSub ? "; up's rows (and down's" + std::string(p.downOnSub ? "" : " not") +
                       ") load on the sub context beside a half's contraction of gate (up)"
                 : "") +
      "; silu(g) u in " +
      num(p.siluChunks) +
      " chunk(s) a part, u from the VRF.\n"
      "4. down: " +
      num(H) + " rows x " + num(p.lPass) + " is " + num(RS) + " rows x " + num(p.dBlock) +
      " per slice on " + num(p.dBlocks * p.rowSlices) + " slices (K in " + num(p.dBlocks) +
      " blocks); per " + num(p.pieces) +
      " piece(s) of a part, a DMA lays "
      "p out for the ring of each block (" +
      num(p.dValues) +
      " values of a token per slice), "
      "contracted in the order [L % " +
      num(p.dValues) + " / " + num(p.flit) + ", L % " + num(p.dBlock) + " / " + num(p.dValues) +
      ", L % " + num(p.flit) +
      (downSumsInPlace(p)    ? "]; the partials are added where committed (one K block, one "
                               "token group), plus r.\n"
       : sumsByTokenGroup(p) ? "]; the partials are gathered by token group and added like "
                               "o_proj's, plus r (its groups copied onto the sums' slices).\n"
                             : "]; the partials are gathered and added like o_proj's, plus r.\n") +
      (p.split && !p.splitKeepsOrder
           ? "Each token's sums are added in the order above, which with the weights split over "
             "the clusters (o_proj's and the MLP's passes) differs from a larger block's: its "
             "bits may differ from a larger block's in the last place.\n"
       : p.split ? "Each token's sums are added in the order above, which with the weights split "
                   "over the clusters is a larger block's (the same K blocks of o_proj and down, "
                   "the same parts of h), so its bits are the same whatever T is.\n"
                 : "Each token's sums are added in the same order whatever T is, so its bits are "
                   "the same.\n") +
      "Rounding points: r, h, p and y are bf16; the contraction sums, the partial sums' "
      "additions, the norm and silu(g) u are f32."));
}

// The header's paragraph on what a large shape splits further (none for a shape that needs
// none of it): o_proj's passes over Q, gate/up's parts of H, down's one flit a slice.
inline void describeSplits(StageBuilder &b, const DecoderPlan &p) {
  std::string text;
  if (p.oPasses > 1) {
    std::string where = "each pass's K blocks loaded into the TRF once the previous pass has "
                        "read its own";
    if (p.split && p.oPasses == p.clusters)
      where = "one a cluster";
    else if (p.split)
      where = num(p.oPasses / p.clusters) + " on each cluster, cluster c's run of Q after c - 1's";
    text += "o_proj runs in " + num(p.oPasses) + " passes over Q of " + num(p.qPass) + " values (" +
            where + "); r adds the " + num(p.oPasses * p.groups) +
            " blocks' partial sums in K order, then x. ";
  }
  if (p.split)
    text += "down's " + num(p.intermediate / p.dBlock) +
            " K blocks' partial sums (a cluster's blocks, then the next one's) are added in L "
            "order, then r. ";
  if (p.hParts > 1)
    text += "gate/up's K (h) is in " + num(p.hParts) + " parts of " + num(p.hPart) +
            " values, part k's rows on the k-th run of " + num(p.partSlices) +
            " slices, h's broadcast keeping each part on its run; the parts' f32 sums are "
            "gathered onto part 0's slices and added in part order before silu(g) u. ";
  if (p.xParts > 1)
    text += "H's rows do not tile a cluster's slices, so x is in " + num(p.xParts) +
            " parts of " + num(p.hx) + " values (HP, HX): x's slice (KG, H % " + num(p.hx) +
            " / " + num(p.rowsPerSlice) + ") holds " + num(p.rowsPerSlice) +
            " values of every part, and the rows of o_proj, the residual, gate/up's K and down's "
            "rows run part by part (o_proj's weights, a part's rows, in turn; a's copy shared); "
            "the norm sums a token's squares on a slice in [part, value] order, then over the "
            "ring; gate/up's f32 sums of the parts are added in part order" +
            (p.sumChunks > 1 ? " (in " + num(p.sumChunks) + " chunks of a half's tokens)" : "") +
            ". ";
  if (p.tail)
    text += "The passes over L are " +
            (p.split ? "on each cluster " + num(p.passes / p.clusters - 1)
                     : num(p.passes - 1)) +
            " of " + num(p.lPass) + " values and a last one of " + num(p.tail) +
            " (its own types, suffix T), " +
            num(p.tail / p.dBlock) + " of down's K blocks of " + num(p.dBlock) +
            ": down's sums keep the order of equal passes. ";
  if (p.trF32)
    text += "A slice holds " + num(p.perSlice) +
            " tokens, fewer than a bf16 transpose's rows: the norm transposes r in f32 (exact). ";
  if (p.dValues == p.flit)
    text += "down's ring holds one flit of a token a slice: its K block is contracted in L "
            "order, [L % " +
            num(p.dBlock) + " / " + num(p.flit) + ", L % " + num(p.flit) + "]. ";
  if (p.groups % p.dSplit)
    text += "x's slices are one token group, so the " + num(p.dSplit) +
            " slices of down's ring beyond a block split a piece's " + num(p.pu) + " tokens. ";
  if (!text.empty())
    b.describe(wrapHeader("Splits for this shape: " + text.substr(0, text.size() - 1)));
}

// The MLP padded to the shape's intermediate (decoderIntermediate), said in the header.
inline void describePadding(StageBuilder &b, const Qwen3Shape &given, const Qwen3Shape &s) {
  if (s.intermediate == given.intermediate)
    return;
  const std::string pad = std::to_string(s.intermediate - given.intermediate);
  b.describe(wrapLines("\nThe model's intermediate " + std::to_string(given.intermediate) +
                       " has no placement of its own (no K block of down tiles it): the MLP runs "
                       "as L = " + std::to_string(s.intermediate) + ", the host giving gate and "
                       "up " + pad + " zero rows and down " + pad + " zero columns, so each "
                       "padded product is 0 and the sums are the model's."));
}

} // namespace rngd::placement::qwen3::prefill_decoder
