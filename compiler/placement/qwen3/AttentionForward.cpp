// `attention_forward`: folds a later chunk of the KV cache into each q head's online-softmax
// state (max_hbm, sum_hbm, out_hbm: read and written); the placement and the chunk's passes are
// attention_forward_first's (DecodeAttentionPlan.h; kernels/qwen3/attention_forward.mlir was
// the hand-placed original).
#include "compiler/placement/qwen3/DecodeAttentionPlan.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

using mlir::Type;
using mlir::Value;
using tcp::Context;
namespace da = decode_attention;

constexpr const char *kStage = "attention_forward";

void describe(StageBuilder &b, const Qwen3Shape &s, const da::Plan &p) {
  const std::string sqrtD = "sqrt(" + da::num(s.headDim) + ")";
  b.describe("`attention_forward` stage: folds a later " + da::num(p.chunkKeys) +
             "-key chunk into the online-softmax state\n(max_hbm, sum_hbm, out_hbm: read and "
             "written).\n"
             "  s   = bf16((q . k) / " +
             sqrtD +
             ")           scores [N, G, T]\n"
             "  m'  = max(max_t s, m_old)                 (the mask does not enter the max)\n"
             "  a   = exp(m_old - m')\n"
             "  e   = min(exp(s - m'), mask)\n"
             "  l   = a l_old + (sum_t e + 6.25e-8)\n"
             "  o   = bf16(bf16(a o_old) + bf16(bf16(e) . V))\n"
             "The placement and the chunk's reductions are attention_forward_first's; the state "
             "lives on\nthe XH slices of each head (m', a and l in the VRF as needed, o's fold "
             "with G innermost).");
  b.describe(da::describePlacement(s, p, b.target()));
  if (p.padState)
    b.describe(da::describeStatePad(s, p, b.target()));
}

// The state's own types: o_old scaled by a (G innermost: a's VRF operand holds G) and the
// chunk's o in the VRF.
struct StateTypes {
  Type odg, odgb, ogd, ogdb, oload, ovrf;
};

StateTypes declareStateTypes(StageBuilder &b, const da::Types &y, const da::Plan &p) {
  const Expr &d = y.d, &g = y.g, &c = y.cluster, &hs = y.headSlices;
  const int64_t F32 = p.flitF32, SUB = p.subBf16;
  Type f = b.f32(), bf = b.bf16();
  StateTypes z;
  z.odg = b.stream("odg", f, c, hs, Expr::pair({d / F32, g}), d % F32);
  z.odgb = b.stream("odgb", bf, c, hs, Expr::pair({d / F32, g}), d % F32);
  z.ogd = b.stream("ogd", f, c, hs, Expr::pair({g, d / F32}), d % F32);
  z.ogdb = b.stream("ogdb", bf, c, hs, Expr::pair({g, d / F32}), d % F32);
  z.oload = b.stream("oload", f, c, hs, Expr::pair({g, d / SUB}), d % SUB);
  z.ovrf = b.vrf("ovrf", f, c, hs, Expr::pair({g, d}));
  return z;
}

// A pass on main over a head's values (one per q head), committed to DM.
Value headPass(StageBuilder &b, const da::Types &y, const std::string &fetched,
               const std::string &collected, const std::string &name, const std::string &result,
               Value in, const std::vector<Step> &steps) {
  Value f = b.fetch(fetched, Context::main, in, y.red);
  Value c = b.collect(collected, f);
  Value v = b.vector(name, c, steps);
  return b.commit(result, v, y.reddm);
}

struct MaxAndAlpha {
  Value md, mv, alv; // m' (DM, VRF) and a = exp(m_old - m') in the VRF
};

// m' = max(m_chunk, m_old); a = exp(m_old - m').
MaxAndAlpha foldMax(StageBuilder &b, const da::Types &y, const da::Args &a, Value mb) {
  MaxAndAlpha r;
  Value mo = da::loadState(b, y, a, a.max, 0, "mo");
  Value mov = da::headToVrf(b, y, "mo1", "mo1c", "mov", mo);
  r.md = headPass(b, y, "mn", "mnc", "mx", "md", mb, {Step::vrfOf("max_f", mov)});
  r.mv = da::headToVrf(b, y, "m2", "m2c", "mv", r.md);
  Value ald = headPass(b, y, "al", "alc", "alx", "ald", mo,
                       {Step::vrfOf("sub_f", r.mv), Step::op("exp_f")});
  r.alv = da::headToVrf(b, y, "al2", "al2c", "alv", ald);
  return r;
}

// l = a l_old + l_chunk.
Value foldSum(StageBuilder &b, const da::Types &y, const da::Args &a, Value lsd, Value alv) {
  Value lsr = b.reinterpret("lsr", lsd, y.reddm);
  Value lsv = da::headToVrf(b, y, "l3", "l3c", "lsv", lsr);
  Value lo = da::loadState(b, y, a, a.sum, 1, "lo");
  Value lad = headPass(b, y, "l4", "l4c", "la", "lad", lo, {Step::vrfOf("mul_f", alv)});
  return headPass(b, y, "l5", "l5c", "lsum", "ld", lad, {Step::vrfOf("add_f", lsv)});
}

// o = bf16(bf16(a o_old) + o_chunk).
Value foldOut(StageBuilder &b, const da::Types &y, const StateTypes &z, const da::Args &a,
              Value obd, Value alv) {
  Value ob1 = b.fetch("ob1", Context::sub, obd, z.oload);
  Value ob1c = b.collect("ob1c", ob1);
  Value obv = b.toVrf("obv", ob1c, z.ovrf);
  Value oo = b.dma("oo", a.out, y.odm);
  Value oo1 = b.fetch("oo1", Context::main, oo, z.odg);
  Value oo1c = b.collect("oo1c", oo1);
  Value oa1 = b.vector("oa1", oo1c, {Step::vrfOf("mul_f", alv)});
  Value oa1b = b.cast("oa1b", oa1, z.odgb);
  Value oad = b.commit("oad", oa1b, y.odm);
  Value oo2 = b.fetch("oo2", Context::main, oad, z.ogd);
  Value oo2c = b.collect("oo2c", oo2);
  Value onew = b.vector("onew", oo2c, {Step::vrfOf("add_f", obv)});
  Value onewb = b.cast("onewb", onew, z.ogdb);
  return b.commit("od", onewb, y.odm);
}

} // namespace

llvm::Error buildAttentionForward(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  llvm::Expected<da::Plan> plan = da::planDecodeAttention(kStage, s, b.target());
  if (!plan)
    return plan.takeError();
  const da::Plan &p = *plan;
  describe(b, s, p);
  const da::Types y = da::declareTypes(b, s, p);
  const StateTypes z = declareStateTypes(b, y, p);
  const da::Args a = da::declareArgs(b, y, /*stateIn=*/true);

  Value vt = da::loadV(b, y, a);
  Value sd = da::scores(b, y, a, s.headDim);
  Value mb = da::chunkMax(b, y, sd, "mb");
  MaxAndAlpha m = foldMax(b, y, a, mb);
  da::Weights w = da::weights(b, y, a, sd, m.mv);
  Value lsd = da::chunkSum(b, y, p, w.ed, "lsd");
  Value ld = foldSum(b, y, a, lsd, m.alv);
  Value obd = da::weightedValues(b, y, w.ebd, vt, "obd");
  Value od = foldOut(b, y, z, a, obd, m.alv);
  da::storeState(b, y, a, m.md, y.padHs, a.max, 2, "mst");
  da::storeState(b, y, a, ld, y.padHs, a.sum, 3, "lst");
  b.dmaInto(od, a.out);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
