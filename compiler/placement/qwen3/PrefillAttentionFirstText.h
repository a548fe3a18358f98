// prefill_attention_first's header text: what the stage computes and how it is placed, with
// the plan's numbers (PrefillAttentionFirstPlan.h). Header-only: inline functions.
#pragma once

#include "compiler/placement/qwen3/PrefillAttentionFirstPlan.h"

namespace rngd::placement::qwen3 {

/// The q heads' passes, when there are several: equal ones, or the rest in passes of fewer
/// heads than the slots, each head then on copies of its slices.
inline std::string attentionPassesText(const AttentionPlan &p) {
  if (p.passes == 1 && p.heads[0] == p.G)
    return "";
  if (p.passes == 1)
    return std::string(p.GA == 1 ? " The q head of a kv head runs on " : " The q heads of a "
                                                                         "kv head run on ") +
           num(p.G / p.GA) + " copies of its slices (RH), as RQ copies a short block's.";
  const std::string views = "views of q, the state and attn";
  if (std::all_of(p.heads.begin(), p.heads.end(), [&](int64_t h) { return h == p.G; }))
    return " The " + num(p.GA) + " q heads of a kv head run in " + num(p.passes) + " passes of " +
           num(p.G) + " (G = [G / " + num(p.G) + ", GP]: " + views +
           "), the masks, keys and V loaded once.";
  std::string split, copies;
  std::vector<int64_t> seen;
  for (int64_t h : p.heads) {
    split += (split.empty() ? "" : " + ") + num(h);
    if (h == p.G || std::find(seen.begin(), seen.end(), h) != seen.end())
      continue;
    seen.push_back(h);
    copies += std::string(copies.empty() ? "a pass of " : ", of ") + num(h) +
              (h > 1 ? " heads runs each" : " head runs it") + " on " + num(p.G / h) +
              " copies of its slices (" + passAxes(p, h).second + ")";
  }
  return " The " + num(p.GA) + " q heads of a kv head run in " + num(p.passes) + " passes of " +
         split + " on " + num(p.G) + " heads' slices (" + views + "; " + copies +
         ", as RQ copies a short block's), the masks, keys and V loaded once.";
}

inline Values attentionValues(const AttentionPlan &p) {
  const AttentionLayouts l = attentionLayouts(p);
  const int64_t spare = p.S / (p.NC * p.ring);
  return {{"T", num(p.T)},
          {"T1", num(p.T - 1)},
          {"heads", num(p.N * p.GA)},
          {"D", num(p.D)},
          {"G", num(p.GA)},
          {"TB", num(p.TB)},
          {"TT", num(p.TT)},
          {"TQ", num(p.TQ)},
          {"tile", num(p.tileT)},
          {"SB", num(p.SB)},
          {"SI", num(p.SI)},
          {"q", l.q.str()},
          {"kv", l.kv.str()},
          {"state", l.state.str()},
          {"out", l.outState.str()},
          {"attn", l.attn.str()},
          {"vb", num(p.vb)},
          {"lanes", num(p.lanes)},
          {"NC", num(p.NC)},
          {"cluster", p.lone ? "cluster 0 (a lone kv head: the other clusters idle)"
                             : "cluster N / " + num(p.NC)},
          {"ring", num(p.ring)},
          {"keySlices", num(p.keySlices)},
          {"rowKeys", num(p.rowKeys)},
          {"tr", num(p.tr)},
          {"vd", num(p.vd)},
          {"tileValues", num(p.SB * p.TQ)},
          {"diagCycles", num(p.SI * p.keySlices)},
          {"diagBytes", bytes(p.SI * p.TQ * 4)},
          {"patterns", p.TT > 1 ? "one of " + num(p.TT) + " patterns" : "one pattern"},
          {"unread", p.hasMain ? "" : " (one tile: not read)"},
          {"copies", p.RQ > 1 ? " (a block shorter than a tile: its " + num(p.G * p.TT) +
                                    " query slices of each kv head are copied " + num(p.RQ) +
                                    " times, so that they fill the " + num(p.keySlices) +
                                    " slices of its keys)"
                              : ""},
          {"spare", spare > 1 ? " (the rings fill " + num(p.NC * p.ring) + " of a cluster's " +
                                    num(p.S) + " slices, one in " + num(spare) + ")"
                              : ""},
          {"passes", attentionPassesText(p)},
          {"rings", p.hasMain
                        ? " (main: " + num(p.ring) + " slices, diagonal: " + num(p.keySlices) + ")"
                        : ""}};
}

inline void describeAttentionSignature(StageBuilder &b, const AttentionPlan &p) {
  const Values v = attentionValues(p);
  b.describe(wrap(
      fill("`prefill_attention_first` stage (multi-token): causal attention of a block of T = {T} "
           "queries at positions 0..{T1} of a KV-cache chunk over the keys of the same positions, "
           "every one of the {heads} q heads. For query t and key s of one head:\n"
           "  s[t, s] = bf16((q . k + mask) / sqrt({D})),  mask = 0 for s <= t, -2^100 for s > t\n"
           "  m[t]    = max(max_s s[t, s], m_in[t])         (masked keys are far below any real "
           "score)\n"
           "  alpha   = exp(m_in[t] - m[t])\n"
           "  p[t, s] = bf16(exp(s[t, s] - m[t]))           (0 for the masked keys)\n"
           "  l[t]    = sum_s p[t, s] + l_in[t] alpha       (the P . 1 contraction)\n"
           "  a[t]    = bf16((p[t] . V + o_in[t] alpha) / l[t])\n"
           "(m_in, l_in, o_in) is the online-softmax state of the block's earlier positions "
           "(prefill_attention); for a block at the prompt's start the host passes m_in = -2^100, "
           "l_in = 0, o_in = 0, so alpha = 0 and the carried terms are exact zeros.",
           v)));
  b.describe(wrap(
      fill("\nSignature (each slice's part contiguous in HBM; T = [TB, TT, TQ] = [{TB}, {TT}, "
           "{TQ}], tiles of {tile}):\n"
           "  q            [N, G, T, D] bf16 (head {G} N + G), layout {q} (prefill_projection's "
           "q_out)\n"
           "  k_cache, v_cache [S, N, D] bf16: the block's rows of the chunk (S = [SB, SI] = "
           "[{SB}, {SI}]; layout {kv})\n"
           "  tile_mask    f32 [TB, SB, TQ]: 0 where the key's tile is before the query's, "
           "-2^100 where it is the same or after{unread}\n"
           "  diag_mask    f32 [TT, SI, TQ]: within a tile, 0 where the key is at or before the "
           "query, -2^100 after\n"
           "  max_in, sum_in f32 [N, G, T] (layout {state}), out_in f32 [N, G, T, D] (layout "
           "{out}): the carried state\n"
           "  attn         bf16 a [N, G, T, D], layout {attn} (the multi-token decoder's slices "
           "each read {vb} values of d for many tokens)\n"
           "The masks depend only on positions relative to the block, so one pair serves every "
           "block.",
           v),
      96, 13));
}

inline void describeAttentionPlacement(StageBuilder &b, const AttentionPlan &p) {
  const Values v = attentionValues(p);
  const std::string mask =
      p.hasMain
          ? "The causal mask in two parts, both added in the contraction's chain from the VRF:\n"
            " - the main contraction masks whole {tile}-key tiles at or after the query's tile "
            "(tile_mask, {tileValues} values per slice);\n"
            " - the diagonal tile is contracted again, from the same key DM: the {keySlices} "
            "slices of a query tile hold exactly that tile's keys, so a broadcast over that ring "
            "streams them ({diagCycles} cycles), and diag_mask ({diagBytes}, {patterns}) removes "
            "the later keys.\n"
          : "One tile: its {keySlices} slices hold its keys and its queries, so a broadcast over "
            "that ring streams them ({diagCycles} cycles) and diag_mask ({diagBytes}, "
            "{patterns}) removes the later keys; there is no main part (tile_mask stays in the "
            "signature so that every T binds alike).\n";
  b.describe(wrap(fill(
      "\nPlacement (docs/prefill.md): the queries stay in the TRF, {TQ} of one head per slice "
      "({lanes} lanes, two time-broadcast rows): slice [N % {NC}, TB, G, TT] of {cluster}{copies}, so a kv head's {ring} slices are one ring{spare}.{passes} The keys reach them "
      "through the Switch Engine: slice (SB, D / {vb}) of a ring holds {SI} keys x {vb} values "
      "and the broadcast streams every key's {D} values in D order, one flit a cycle; the keys "
      "come from HBM as whole rows ({rowKeys} keys a slice) and the Switch Engine's "
      "inter_transpose lays them out so. Scores come out with the keys in time and the queries "
      "in the lanes, so the softmax's max is an intra-slice reduce.\n" +
          mask +
          "p is transposed ({tr} keys a packet) into the TRF next to the queries; V, transposed "
          "on each slice to [D % {vd}, S % {vb}], is broadcast around the same rings{rings} and "
          "contracted against p; o is divided by l and transposed so that each query's "
          "{vb}-value pieces of d are contiguous. l is p . 1, the ones made from a view of p (x 0 "
          "+ 1).\n"
          "The carried state folds in beside the diagonal tile: o_in alpha through the VRF into "
          "the diagonal part's chain, l_in alpha added to l.\n"
          "Rounding points: s, p and a are bf16; the contraction sums, m, l, o (the sum of its "
          "parts) and o / l are f32.",
      v)));
}

} // namespace rngd::placement::qwen3
