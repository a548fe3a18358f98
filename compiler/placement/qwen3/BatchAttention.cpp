// `batch_attention_first` and `batch_attention`: the batched decode step's attention over one
// page of S keys of the KV pool for each of T sequences in one launch (docs/batching.md). The
// host launches batch_attention_first with each sequence's page 0, then batch_attention once per
// later page index j, each sequence's page j (an all-zero mask row where a sequence has none).
// Slice (t, n) holds sequence t's page for kv head n; nothing crosses slices, so a sequence's
// values depend only on its own row (BatchAttentionPlan.h has the passes both share).
#include "compiler/placement/qwen3/BatchAttention.h"
#include "compiler/placement/qwen3/BatchAttentionPlan.h"
#include "compiler/placement/qwen3/PrefillTerms.h"

namespace rngd::placement::qwen3 {

namespace {

using mlir::Type;
using mlir::Value;
using tcp::Context;
namespace ba = batch_attention;

void describeNumerics(StageBuilder &b, const ba::Plan &p, bool first) {
  const Values v = {{"S", num(p.S)}, {"D", num(p.D)}, {"F", num(b.target().trfLanes)},
                    {"pk", num(ba::kPackFlits * p.flitBf16)}};
  std::string text =
      "Numerics per sequence t, kv head n, q head g (q = q[t, n, g], K and V the page's rows "
      "of kv head n, mask = mask[t]):\n"
      "  s  = bf16(q . k / sqrt({D}) + b)   b = mask x 2^64 - 2^64 (0, or -2^64 for a masked "
      "key); q . k: f32 products, pairwise trees over each {pk} values of D, summed in D's order "
      "from +0; the division correctly rounded f32\n"
      "  m_page = max over the {S} keys of s   (masked keys at -2^64 never win while a key is "
      "visible)\n";
  if (first)
    text += "  m  = m_page\n"
            "  e  = min(exp(s - m), mask)\n"
            "  l  = sum e\n"
            "  o  = bf16(bf16(e) . V)\n"
            "Outputs: max_hbm = m, sum_hbm = l, out_hbm = o (unnormalised; no epsilon: page 0 "
            "holds a visible key, so l >= 1).\n";
  else
    text += "  m' = max(m_page, m_old)\n"
            "  a  = exp(m_old - m')\n"
            "  e  = min(exp(s - m'), mask)\n"
            "  l  = a l_old + sum e\n"
            "  o  = bf16(bf16(a o_old) + bf16(bf16(e) . V))\n"
            "A page with an all-zero mask row leaves the row's state bit for bit as it was "
            "(m' = m_old, a = 1, e = 0; o_old = -0 alone may become +0), so a sequence's result "
            "does not depend on how many pages the others have.\n";
  text += "Every f32 operation rounds once to nearest even; exp is computed in double and "
          "rounded to f32. sum e: each {F} keys by a pairwise tree, those sums in key order. "
          "bf16(e) . V: f32 products, pairwise trees over each {pk} keys, summed in key order "
          "from +0. The fold's a l_old and a o_old are f32 products; o's terms are rounded to "
          "bf16 before their f32 sum. A row's arithmetic does not depend on T or on the other "
          "rows.";
  b.describe(wrap(fill(text, v), 96, 2));
}

void describe(StageBuilder &b, const ba::Plan &p, bool first, const std::string &stage) {
  const TargetModel &t = b.target();
  const Values v = {{"stage", stage},
                    {"T", num(p.T)},
                    {"S", num(p.S)},
                    {"P", num(p.P)},
                    {"pc", num(p.poolChunks)},
                    {"chunk", num(p.chunk)},
                    {"row", num(p.rowBytes)},
                    {"page", num(p.S * p.rowBytes)},
                    {"NC", num(p.NC)},
                    {"used", num(p.T * p.NC)},
                    {"C", num(p.C)},
                    {"st", first ? "out" : "inout"},
                    {"dir", first ? "starts" : "folds a later page into"},
                    {"L", num(t.trfLanes)},
                    {"pk", num(ba::kPackFlits * p.flitBf16)},
                    {"cells", num(t.timeReducerCells)},
                    {"parts", num(p.parts)},
                    {"gathers", num(2 * p.parts)},
                    {"SH", num(p.partKeys)},
                    {"TC", num(p.T / p.C)},
                    {"G", num(p.G)},
                    {"GB", num(p.G * 4)},
                    {"F32", num(p.flitF32)},
                    {"al", num(t.dmaAlignment)}};
  b.describe(wrap(fill(
      "`{stage}` stage (batched decode step): {dir} the online-softmax state of T = {T} "
      "sequences, attending one page of S = {S} keys of the layer's KV pool for each in one "
      "launch. Pool: {pc} KV chunks of {chunk} rows, P = {P} rows.",
      v)));
  b.describe(wrap(
      fill("\nSignature (the host reads S from mask's shape):\n"
           "  q              [T, N, G, D] bf16 in: batch_projection's q_out (row t at t x Q x 2)\n"
           "  k_pool, v_pool [P, N, D] bf16 in: the layer's KV pool (batch_kv_store's)\n"
           "  page           [T] i32 in: the byte offset in the pool of the first row of sequence "
           "t's page, a multiple of {row} with the page's {S} rows ({page} bytes) inside the "
           "pool; a sequence with no page points at any valid page\n"
           "  mask           [T, S] f32 in: 1 for a key the token sees, 0 otherwise (an all-zero "
           "row for a sequence with no page; a padding row all zero from page 0 on ends with max "
           "-2^64, sum 0 and out 0)\n"
           "  max_hbm, sum_hbm [T, N, G] f32 {st}; out_hbm [T, N, G, D] bf16 {st}: row-major by "
           "token, what batch_attention_norm reads",
           v),
      96, 17));
  describeNumerics(b, p, first);
  b.describe(wrap(fill(
      "\nPlacement: slice (t, n % {NC}) of cluster n / {NC} holds sequence t's page for kv head "
      "n ({used} slices a cluster in use): its keys in time, no inter-slice reduction. S = {S}: "
      "P . V contracts a slice's keys as one packet of {pk} bf16 (V's D / {L} rows a lane "
      "broadcast in time), and the scores contraction holds S / {L} keys a lane as time-reducer "
      "slots of {pk} values ({cells} cells). Each pool's page comes in by {parts} gathers of {SH} "
      "keys (row t at page[t] plus the part's keys, each head's D values a packet to its slice; "
      "one descriptor a cluster), so that K's and V's {gathers} gathers take every engine. V's "
      "parts are transposed by the Transpose Engine into [D, SH] and joined, then loaded into "
      "the TRF; K's parts load into the TRF one at a time and are scored apart, their scores "
      "joined. q, the mask (twice into the VRF on sub: as given and as the scores' bias) and the "
      "state come by DMA before the gathers. The page's max and sum reduce each flit of keys by "
      "the intra-slice reducer's tree with one slot per q head. The outputs move DM to DM onto "
      "slices (t % {TC}, n) of cluster t / {TC} before their stores, so that each cluster writes "
      "one range of the token-major outputs (the two halves of one DMA run at once and may not "
      "write interleaved bytes).",
      v)));
  if (p.padState)
    b.describe(wrap(fill(
        "\nstate_pad (inout, f32 [4, T, N, {F32}], scratch): a kv head's {G} f32 of max or sum "
        "are {GB} bytes, no whole DMA packet (multiples of {al}), so the state moves between "
        "its slices and HBM as one padded f32 flit per head through a slot of state_pad (the "
        "old max and sum, the new max and sum), and an HBM-to-HBM copy (no packet rule) drops "
        "or adds the padding against max_hbm and sum_hbm.",
        v)));
}

// A pass on main over a slice's G values (one per q head), committed [G # flit].
Value headPass(StageBuilder &b, const ba::Types &y, const std::string &name, Value in,
               const std::vector<Step> &steps) {
  Value f = b.fetch(name + "f", Context::main, in, y.red);
  Value v = b.vector(name + "x", b.collect(name + "c", f), steps);
  return b.commit(name, v, y.reddm);
}

struct MaxAndAlpha {
  Value md, mv, alv; // m' (DM, VRF) and a = exp(m_old - m') in the VRF
};

// The old state into DM (before the pages' gathers, so that these small DMAs find engines).
struct OldState {
  Value m, l, o;
};

// m' = max(m_page, m_old); a = exp(m_old - m').
MaxAndAlpha foldMax(StageBuilder &b, const ba::Types &y, Value mo, Value mb) {
  MaxAndAlpha r;
  Value mov = ba::headToVrf(b, y, "mov", mo);
  r.md = headPass(b, y, "mn", mb, {Step::vrfOf("max_f", mov)});
  r.mv = ba::headToVrf(b, y, "mv", r.md);
  Value ald = headPass(b, y, "al", mo, {Step::vrfOf("sub_f", r.mv), Step::op("exp_f")});
  r.alv = ba::headToVrf(b, y, "alv", ald);
  return r;
}

// l = a l_old + l_page.
Value foldSum(StageBuilder &b, const ba::Types &y, Value lo, Value lp, Value alv) {
  Value lpv = ba::headToVrf(b, y, "lpv", lp);
  Value lad = headPass(b, y, "la", lo, {Step::vrfOf("mul_f", alv)});
  return headPass(b, y, "ln", lad, {Step::vrfOf("add_f", lpv)});
}

// o = bf16(bf16(a o_old) + o_page), a's VRF operand with G innermost.
Value foldOut(StageBuilder &b, const ba::Plan &p, const ba::Types &y, Value oo, Value obd,
              Value alv) {
  const Expr &d = y.d, &g = y.g, &c = y.cluster, &sl = y.slices;
  const int64_t F32 = p.flitF32, SUB = p.subBf16;
  Type f = b.f32(), bf = b.bf16();
  Type odg = b.stream("odg", f, c, sl, Expr::pair({d / F32, g}), d % F32);
  Type odgb = b.stream("odgb", bf, c, sl, Expr::pair({d / F32, g}), d % F32);
  Type ogd = b.stream("ogd", f, c, sl, Expr::pair({g, d / F32}), d % F32);
  Type ogdb = b.stream("ogdb", bf, c, sl, Expr::pair({g, d / F32}), d % F32);
  Type oload = b.stream("oload", f, c, sl, Expr::pair({g, d / SUB}), d % SUB);
  Type ovrf = b.vrf("ovrf", f, c, sl, Expr::pair({g, d}));
  Value obv = b.toVrf("obv", b.collect("ob1c", b.fetch("ob1", Context::sub, obd, oload)), ovrf);
  Value oo1 = b.collect("oo1c", b.fetch("oo1", Context::main, oo, odg));
  Value oa1 = b.vector("oa1", oo1, {Step::vrfOf("mul_f", alv)});
  Value oad = b.commit("oad", b.cast("oa1b", oa1, odgb), y.odm);
  Value oo2 = b.collect("oo2c", b.fetch("oo2", Context::main, oad, ogd));
  Value onew = b.vector("onew", oo2, {Step::vrfOf("add_f", obv)});
  return b.commit("od", b.cast("onewb", onew, ogdb), y.odm);
}

llvm::Error build(StageBuilder &b, const Qwen3Shape &s, int64_t tokens, int64_t poolChunks,
                  bool first) {
  const char *stage = first ? "batch_attention_first" : "batch_attention";
  llvm::Expected<ba::Plan> plan = ba::planBatchAttention(stage, s, b.target(), tokens, poolChunks);
  if (!plan)
    return plan.takeError();
  const ba::Plan &p = *plan;
  describe(b, p, first, stage);
  const ba::Types y = ba::declareTypes(b, p);
  const ba::Args a = ba::declareArgs(b, p, y, /*stateIn=*/!first);

  // The small DMAs (q, the mask, the old state), then the page part by part (the scheduler
  // issues the gathers first: they and V's transposition are the critical path).
  Value qd = b.dma("qd", a.q, y.qdm);
  Value mkd = b.dma("mkd", a.mask, y.maskdm);
  OldState old;
  if (!first) {
    old.m = ba::loadState(b, p, y, a, a.max, 0, "mo");
    old.l = ba::loadState(b, p, y, a, a.sum, 1, "lo");
    old.o = b.dma("oo", a.out, y.odm);
  }
  ba::MaskVrf mk = ba::loadMask(b, y, mkd);
  ba::PageLoaded page = ba::loadPage(b, p, y, a, qd, mk.bias);
  Value vt = page.vt, sd = page.sd;
  Value mb = ba::pageReduce(b, y, sd, "reduce_max_f", "mb");
  if (first) {
    Value mv = ba::headToVrf(b, y, "mv", mb);
    ba::Weights w = ba::weights(b, y, sd, mv, mk.mask);
    Value ld = ba::pageReduce(b, y, w.ed, "reduce_add_f", "ld");
    Value od = ba::weightedValues(b, y, w.ebd, vt, "od");
    ba::storeState(b, p, y, a, ba::packState(b, p, y, mb, "mst"), a.max, 2, "msx");
    ba::storeState(b, p, y, a, ba::packState(b, p, y, ld, "lst"), a.sum, 3, "lsx");
    ba::storeOutput(b, od, y.odmst, a.out, "osx");
    return llvm::Error::success();
  }
  MaxAndAlpha m = foldMax(b, y, old.m, mb);
  ba::Weights w = ba::weights(b, y, sd, m.mv, mk.mask);
  Value lp = ba::pageReduce(b, y, w.ed, "reduce_add_f", "lp");
  Value ld = foldSum(b, y, old.l, lp, m.alv);
  Value obd = ba::weightedValues(b, y, w.ebd, vt, "obd");
  Value od = foldOut(b, p, y, old.o, obd, m.alv);
  ba::storeState(b, p, y, a, ba::packState(b, p, y, m.md, "mst"), a.max, 2, "msx");
  ba::storeState(b, p, y, a, ba::packState(b, p, y, ld, "lst"), a.sum, 3, "lsx");
  ba::storeOutput(b, od, y.odmst, a.out, "osx");
  return llvm::Error::success();
}

} // namespace

llvm::Error buildBatchAttentionFirstPool(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                         int64_t poolChunks) {
  return build(b, shape, tokens, poolChunks, /*first=*/true);
}

llvm::Error buildBatchAttentionPool(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens,
                                    int64_t poolChunks) {
  return build(b, shape, tokens, poolChunks, /*first=*/false);
}

llvm::Error buildBatchAttentionFirst(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  return buildBatchAttentionFirstPool(b, shape, tokens, 1);
}

llvm::Error buildBatchAttention(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  return buildBatchAttentionPool(b, shape, tokens, 1);
}

} // namespace rngd::placement::qwen3
