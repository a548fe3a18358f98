// `prefill_attention_decoder`: prefill_attention_first and prefill_decoder as one kernel. The
// decoder part is built under prefixed names (its axes M..., its aliases and values m...). The
// attention part writes a to the attn output as it does alone (the host checks it there), and
// a passes to the decoder part in DM: one DMA lays it out as the decoder's o_proj reads it, its
// layout spelt over the attention's axes. One kernel lets the decoder's weights stream while
// the attention computes, where two kernels would each begin by waiting for HBM. With the
// attention in several passes of its heads, or o_proj reading a in passes, the decoder part
// reads a back from attn instead.
#include "compiler/placement/Qwen3StageList.h"
#include "compiler/placement/qwen3/Stages.h"

namespace rngd::placement::qwen3 {

namespace {

constexpr const char *kStage = "prefill_attention_decoder";
constexpr const char *kPart = kFusedDecoderAxisPrefix; // the decoder part's ("m" its names)

/// The parts of `axis` (`size` values) among the attention's declared axes, major first
/// (those it leaves out hold one value): the decoder's T is [TB, TT, TQ], its Q [N, G, D].
llvm::Expected<std::vector<std::pair<std::string, int64_t>>>
partsOf(const mapping::AxisEnv &env, const std::string &axis, int64_t size,
        const std::vector<std::string> &names) {
  std::vector<std::pair<std::string, int64_t>> parts;
  int64_t product = 1;
  for (const std::string &n : names)
    if (std::optional<int64_t> s = env.size(n)) {
      parts.push_back({n, *s});
      product *= *s;
    }
  if (product != size)
    return placementError(kStage, "a handed over in DM",
                          axis + " = " + std::to_string(size) + " is not the product of the " +
                              "attention's axes for it (" + std::to_string(product) + ")");
  return parts;
}

} // namespace

llvm::Error buildPrefillAttentionDecoder(StageBuilder &b, const Qwen3Shape &shape, int64_t tokens) {
  // attn as prefill_decoder reads it, [Q / F, T, Q % F] (F values a flit): the host reads the
  // stage's a by T and Q, as it reads prefill_decoder's.
  const int64_t F = b.target().flitBytes / 2;
  Expr tAxis = b.axis("T", tokens), qAxis = b.axis("Q", shape.qDim());
  mlir::Value attn =
      b.output("attn", b.hbm("attnh", b.bf16(), Expr::pair({qAxis / F, tAxis, qAxis % F})));
  mlir::Value a;
  const bool inDm = prefillDecoderTakesAInDm(shape, b.target(), tokens);
  if (llvm::Error e =
          buildPrefillAttentionFirstInto(b, shape, tokens, attn, inDm ? &a : nullptr))
    return e;
  b.describe("Fused: the decoder's part below reads a " +
             std::string(a ? "in DM, laid out for it by one DMA" : "back from attn") +
             " (its axes prefixed M, its names m).");
  if (!a) { // a through the attn output
    b.beginPart(kPart, "m", {{"attn", attn}});
    return buildPrefillDecoder(b, shape, tokens);
  }
  const mapping::AxisEnv env = b.axisEnv();
  auto t = partsOf(env, "T", tokens, {"TB", "TT", "TQ"});
  if (!t)
    return t.takeError();
  auto q = partsOf(env, "Q", shape.qDim(), {"N", "G", "D"});
  if (!q)
    return q.takeError();
  b.beginPart(kPart, "m", {});
  return buildPrefillDecoderAfter(b, shape, tokens, a,
                                  {{std::string(kPart) + "T", *t}, {std::string(kPart) + "Q", *q}});
}

} // namespace rngd::placement::qwen3
