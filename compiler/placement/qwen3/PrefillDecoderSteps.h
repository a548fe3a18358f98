// prefill_decoder's steps shared by its two files: the stage's arguments, the names' tags, the
// f32 add through the VRF that every partial-sum chain uses, and the MLP (gate/up, silu, down
// and their sums: PrefillDecoderMlp.cpp) that PrefillDecoder.cpp runs after o_proj and the norm.
#pragma once

#include "compiler/placement/qwen3/PrefillDecoderText.h"
#include "compiler/placement/qwen3/PrefillDecoderTypes.h"

#include <string>
#include <vector>

namespace rngd::placement::qwen3::prefill_decoder {

struct DecoderArgs {
  mlir::Value attn, x, oWeight, normWeight, gateWeight, upWeight, downWeight, y;
  // In a fused stage: a in DM as the attention part left it (attn is then none).
  mlir::Value attnDm;
};

inline std::string idx(int64_t a) { return num(a); }
inline std::string idx(int64_t a, int64_t b) { return num(a) + num(b); }

// The names' tag of x's part `k` (none when x is one part).
inline std::string xTag(const DecoderPlan &p, int64_t k) {
  return p.xParts > 1 ? "x" + num(k) : "";
}

// The MLP's passes run one after the other (with the weights split over the clusters, a
// cluster's run at once: one op a step, each cluster its pass).
inline int64_t passRuns(const DecoderPlan &p) {
  return p.split ? p.passes / p.clusters : p.passes;
}

// `acc` + `addend` through the VRF (the addend fetched first, into the VRF): one f32 add pass
// of the partial sums' chain. Returns the sum's stream, not yet committed.
mlir::Value addThroughVrf(StageBuilder &b, const std::string &tag, mlir::Value addend,
                          mlir::Value acc, mlir::Type stream, mlir::Type vrf);

// Partial-sum blocks appended op by op, in K (or L) order, reordered cluster by cluster when
// the weights split over the clusters (PrefillDecoder.cpp).
std::vector<mlir::Value> byCluster(const DecoderPlan &p, const std::vector<int64_t> &perPass,
                                   const std::vector<mlir::Value> &blocks);

// The plan and types of the MLP's passes, and of a shorter last one.
struct Passes {
  const DecoderPlan &plan;
  const DecoderTypes &types;
  DecoderPlan tailPlan;
  DecoderTypes tailTypes;
};

// The MLP pass by pass over L on the normalised halves `hn`, down over x's parts in turn, each
// piece's sums plus the residual halves `r`: y's pieces in [half, piece, part] order.
std::vector<mlir::Value> mlp(StageBuilder &b, const Passes &passes, const DecoderArgs &a,
                             const std::vector<mlir::Value> &hn,
                             const std::vector<mlir::Value> &r);

} // namespace rngd::placement::qwen3::prefill_decoder
