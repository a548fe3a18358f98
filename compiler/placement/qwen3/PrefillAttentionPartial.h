// `prefill_attention_partial`: prefill_attention (PrefillAttention.cpp builds both) with a key
// mask: a block that continues a sequence at a position s inside a chunk sees only the chunk's
// rows [0, s % 512) written by the earlier turn. key_mask f32 [S] (0 for a key the block sees,
// -2^100 for one it must not) is added to q . k before the scale, as prefill_attention_first adds
// its tile and diagonal masks. What is particular to the mask lives here. Header-only.
#pragma once

#include "compiler/placement/qwen3/PrefillShared.h"

namespace rngd::placement::qwen3 {

inline constexpr const char *kPartialStage = "prefill_attention_partial";

/// Builds `prefill_attention_partial` (defined in PrefillAttention.cpp, beside prefill_attention).
llvm::Error buildPrefillAttentionPartial(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens);

/// The key mask on its way to the VRF of every query slice: the chunk's S = SB x SI values in
/// key order in HBM, copied whole to each query slice's DM, and read into the VRF in the
/// scores' time order [SI, SB, TR] (the mask repeated for both time-broadcast rows; the lanes,
/// a slice's queries, read one value each). The scores' VRF operand may hold their rows only
/// as a whole axis: the queries are a slice's TQ spelled [TR, TL] (rows, lanes) from q's DM
/// copy (a reinterpretation) to the scores' DM, which is spelled back to TQ.
struct KeyMaskTypes {
  mlir::Type hbm, dm, load, vrf;
  mlir::Type qdm, qload, qtrf, sacc, sres, sdm; // declareTypes' own, over [TR, TL]
};

/// The numbers of the mask's layouts, each rule checked: `group` is the SB factor a VRF row
/// (a flit of f32) holds beside the rows.
struct KeyMaskPlan {
  int64_t group = 0;
};

inline llvm::Expected<KeyMaskPlan> planKeyMask(const TargetModel &t, int64_t sb, int64_t si,
                                               int64_t rows) {
  const int64_t flitF32 = t.flitBytes / 4;
  auto n = [](int64_t v) { return decimal(v); };
  if (flitF32 % rows || sb % (flitF32 / rows))
    return placementError(kPartialStage,
                          "a flit of the key mask holds whole SB groups x the time-broadcast rows",
                          n(flitF32) + " f32 a flit, " + n(rows) + " rows, SB = " + n(sb));
  const int64_t bytes = sb * si * rows * 4;
  if (bytes > t.vrfBytesPerSlice)
    return placementError(kPartialStage, "the key mask (a chunk's keys x the rows) fits the VRF",
                          n(sb * si) + " keys x " + n(rows) + " rows of f32 is " + n(bytes) +
                              " bytes, the VRF holds " + n(t.vrfBytesPerSlice));
  KeyMaskPlan p;
  p.group = flitF32 / rows;
  return p;
}

/// The mask's types and the queries' and scores' over [TR, TL] (rows, lanes), on the query
/// slices `qs` of cluster `cl`; `flit`: bf16 values a flit.
inline KeyMaskTypes declareKeyMask(StageBuilder &b, const KeyMaskPlan &p, const Expr &cl,
                                   const Expr &qs, const Expr &sb, const Expr &si, const Expr &d,
                                   const Expr &tr, const Expr &tl, int64_t flit) {
  mlir::Type f = b.f32(), bf = b.bf16();
  const int64_t L = b.target().trfLanes;
  KeyMaskTypes y;
  y.hbm = b.hbm("kmh", f, Expr::pair({sb, si}));
  y.dm = b.dm("kmdm", f, cl, qs, Expr::pair({sb, si}));
  y.load = b.stream("kmload", f, cl, qs, Expr::pair({si, sb / p.group}),
                    Expr::pair({sb % p.group, tr}));
  y.vrf = b.vrf("kmvrf", f, cl, qs, Expr::pair({si, sb, tr}));
  y.qdm = b.dm("qdmr", bf, cl, qs, Expr::pair({d / L, tr, tl, d % L}));
  y.qload = b.stream("qloadr", bf, cl, qs, Expr::pair({tl, tr, d / flit, d % flit / L}), d % L);
  y.qtrf = b.trf("qtrfr", bf, cl, qs, tl, Expr::pair({tr, d}));
  const Expr sTime = Expr::pair({si, sb, tr});
  y.sacc = b.stream("saccr", f, cl, qs, sTime, tl);
  y.sres = b.stream("sresr", bf, cl, qs, sTime, tl);
  y.sdm = b.dm("sdmr", bf, cl, qs, Expr::pair({si, sb, tr, tl}));
  return y;
}

/// The mask into the VRF on the sub context; `dm`: its DM copy (made when null, reused by the
/// later passes of the same slices).
inline mlir::Value loadKeyMask(StageBuilder &b, const KeyMaskTypes &y, mlir::Value mask,
                               mlir::Value &dm) {
  if (!dm)
    dm = b.dma("kmd", mask, y.dm);
  mlir::Value v = b.collect("km2", b.fetch("km1", tcp::Context::sub, dm, y.load));
  return b.toVrf("kmv", v, y.vrf);
}

/// The header's formulas for the masked fold.
inline std::string partialMathText(int64_t keys, int64_t heads, const std::string &rootD) {
  return "Multi-token `prefill_attention_partial` stage: prefill_attention with a key mask. A "
         "block of T queries that continues a sequence at a position s inside a " +
         decimal(keys) +
         "-key chunk of the cache folds the chunk's rows [0, s % " + decimal(keys) +
         ") (written by the earlier turn) into each query's online-softmax state (read and "
         "written), for every one of the " +
         decimal(heads) +
         " q heads; the later rows (stale, or the block's own keys, which "
         "prefill_attention_first folds causally) are masked:\n"
         "  s[t, s] = bf16((q . k + key_mask[s]) / " +
         rootD +
         ")   (the mask added before the scale)\n"
         "  m'      = max(m, max_s s[t, s])          (at least one key visible: the masked "
         "ones move nothing)\n"
         "  alpha   = exp(m - m')\n"
         "  p[t, s] = bf16(exp(s[t, s] - m'))        (0 for the masked keys)\n"
         "  l'      = l alpha + sum_s p[t, s]           (the P . 1 contraction)\n"
         "  o'      = p[t] . V + o alpha\n"
         "With key_mask all 0 it computes prefill_attention's values.";
}

/// The signature's mask, and how it reaches the VRF.
inline std::string partialMaskText(int64_t sb, int64_t si, int64_t rows, int64_t lanes) {
  return "key_mask f32 [S] (layout [SB, SI], key order; the host passes 0 for the rows < s % " +
         decimal(sb * si) +
         " the block sees, -2^100 for the rest) is copied whole to every query slice's DM "
         "and read on the sub context into its VRF in the scores' time order [SI, SB, TR] (" +
         decimal(sb * si * rows * 4) + " bytes: the mask repeated for the " + decimal(rows) +
         " time-broadcast rows TR, each lane reading one value). From q's DM copy to the "
         "scores' a slice's queries TQ are spelled [TR, TL] = [TQ / " +
         decimal(lanes) + ", TQ % " + decimal(lanes) +
         "] (reinterpretations: the same bytes), the VRF operand holding the rows TR but not "
         "the lanes TL.";
}

} // namespace rngd::placement::qwen3
