// `attention_forward_first`: the first chunk of the KV cache starts each q head's online-softmax
// state (max, sum, unnormalised output); the placement and the chunk's passes are shared with
// attention_forward (DecodeAttentionPlan.h; kernels/qwen3/attention_forward_first.mlir was the
// hand-placed original).
#include "compiler/placement/qwen3/DecodeAttentionPlan.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

using mlir::Type;
using mlir::Value;
using tcp::Context;
namespace da = decode_attention;

constexpr const char *kStage = "attention_forward_first";

// m's copy for its store packs G values per slice. Sub's commit moves one access a packet, so
// the copy runs there (off main's softmax chain) when G values are one access, else on main.
Context mCopyContext(const Qwen3Shape &s, const TargetModel &t) {
  return s.groups() * 4 == t.subFetchAccessBytes ? Context::sub : Context::main;
}

void describe(StageBuilder &b, const Qwen3Shape &s, const da::Plan &p) {
  const std::string sqrtD = "sqrt(" + da::num(s.headDim) + ")";
  b.describe("`attention_forward_first` stage: the first " + da::num(p.chunkKeys) +
             "-key chunk of online softmax.\n"
             "  s   = bf16((q . k) / " +
             sqrtD +
             ")           scores [N, G, T]\n"
             "  m   = max_t s                             (the mask does not enter the max)\n"
             "  e   = min(exp(s - m), mask)               mask in {0, 1}\n"
             "  l   = sum_t e + 6.25e-8\n"
             "  o   = bf16(e) . V                         (unnormalised; the decoder divides by "
             "l)\n"
             "Outputs: max_hbm = m, sum_hbm = l (f32 [N, G]), out_hbm = o (bf16 [N, G, D]).");
  b.describe(da::describePlacement(s, p, b.target()));
  if (p.padState)
    b.describe(da::describeStatePad(s, p, b.target()));
  const bool onSub = mCopyContext(s, b.target()) == Context::sub;
  const std::string packed =
      p.padState ? "padded to an f32 flit (state_pad's GE)"
                 : "packed to the " + da::num(s.groups() * 4) + " bytes of its G values";
  b.describe(wrapParagraph("\nm is copied for its store, " + packed + ", on " +
                           (onSub ? "sub" : "main") +
                           " (a sub-context commit moves " +
                           da::num(b.target().subFetchAccessBytes) + " bytes a packet)."));
}

} // namespace

llvm::Error buildAttentionForwardFirst(StageBuilder &b, const Qwen3Shape &s, int64_t) {
  llvm::Expected<da::Plan> plan = da::planDecodeAttention(kStage, s, b.target());
  if (!plan)
    return plan.takeError();
  const da::Plan &p = *plan;
  describe(b, s, p);
  const da::Types y = da::declareTypes(b, s, p);
  Type m8 = b.stream("mstore", b.f32(), y.cluster, y.headSlices, Expr::one(), y.gState);
  Type m8dm = b.dm("mstoredm", b.f32(), y.cluster, y.headSlices, y.gState);
  const da::Args a = da::declareArgs(b, y, /*stateIn=*/false);

  Value vt = da::loadV(b, y, a);
  Value sd = da::scores(b, y, a, s.headDim);
  Value md = da::chunkMax(b, y, sd, "md");
  Value mv = da::headToVrf(b, y, "m2", "m2c", "mv", md);
  da::Weights w = da::weights(b, y, a, sd, mv);
  Value ld = da::chunkSum(b, y, p, w.ed, "ld");
  Value od = da::weightedValues(b, y, w.ebd, vt, "od");

  Value ms = b.fetch("ms", mCopyContext(s, b.target()), md, m8);
  Value msc = b.collect("msc", ms);
  Value mdd = b.commit("mdd", msc, m8dm);
  da::storeState(b, y, a, mdd, y.padHs, a.max, 0, "mst");
  da::storeState(b, y, a, ld, y.padL, a.sum, 1, "lst");
  b.dmaInto(od, a.out);
  return llvm::Error::success();
}

} // namespace rngd::placement::qwen3
