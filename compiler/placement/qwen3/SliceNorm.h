// The norm weight of a single-slice RMSNorm (decoder's h = RMSNorm(r), final_layer's RMSNorm of
// its input) in the VRF. When the weight (f32) does not fit one slice's VRF whole, it goes there
// in equal parts of whole flits, a power of two of them, beside rms (one VRF row): each part of
// the vector is multiplied by its part of the weight in turn and the products are joined
// (tcp.dm_join), as the projection stage does for x's RMSNorm. The products are element-wise,
// so the values are those of one pass over H.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/StageBuilder.h"

#include <string>
#include <vector>

namespace rngd::placement::qwen3::slicenorm {

/// Whether the norm weight (f32) fits one slice's VRF whole.
inline bool weightFitsWhole(const Qwen3Shape &s, const TargetModel &t) {
  return s.hidden * 4 <= t.vrfBytesPerSlice;
}

/// Whether rms (one VRF row) goes to the VRF after the vector times the weight: the whole
/// weight fits the VRF but not beside rms (it then takes the weight's bytes).
inline bool rmsAfterWeight(const Qwen3Shape &s, const TargetModel &t) {
  return weightFitsWhole(s, t) && s.hidden * 4 + t.vrfAllocationAlignment > t.vrfBytesPerSlice;
}

/// The parts of H whose norm weight the VRF holds in turn: 1 when the whole weight fits;
/// otherwise the fewest power of two of equal parts, each of whole f32 flits and sub accesses
/// (the weight is read on sub, the vector on main) and fitting beside rms.
inline llvm::Expected<int64_t> weightParts(llvm::StringRef stage, const Qwen3Shape &s,
                                           const TargetModel &t) {
  if (weightFitsWhole(s, t))
    return 1;
  const int64_t hidden = s.hidden, room = t.vrfBytesPerSlice - t.vrfAllocationAlignment;
  const int64_t perFlit = t.flitBytes / 4, perSubAccess = t.subFetchAccessBytes / 2;
  int64_t parts = 2;
  while (hidden % (parts * 2) == 0 && hidden / parts * 4 > room)
    parts *= 2;
  const int64_t part = hidden / parts;
  if (hidden % parts != 0 || part * 4 > room || part % perFlit != 0 || part % perSubAccess != 0)
    return placementError(stage, "the norm weight (f32) fits the VRF in equal parts of whole flits",
                          "hidden " + llvm::Twine(hidden) + " in " + llvm::Twine(parts) +
                              " parts of " + llvm::Twine(part * 4) + " bytes; the VRF holds " +
                              llvm::Twine(room) + " beside rms, flits of " +
                              llvm::Twine(perFlit) + " f32, sub accesses of " +
                              llvm::Twine(perSubAccess));
  return parts;
}

/// The SSA names and type aliases of the passes (in parts, each name gets "_" and the part's
/// index).
struct PartNames {
  std::string vectorView, weightView; // the parts of the vector and of the weight (DM views)
  std::string weightFetch, weightCollect, weightVrf;     // the weight's part into the VRF (sub)
  std::string productFetch, productCollect, product, productDm; // the vector's part times it
  std::string join, joined;     // tcp.dm_join of the products, and it re-spelt over H
  std::string alias, partAxis, innerAxis; // the types' alias stem, the axes [parts, part]
};

/// vector x weight (both bf16 over H on one slice of each cluster, `cluster` x `slice`) in
/// `parts` parts: f32 over H there, of type `productType`.
inline mlir::Value multiplyInParts(StageBuilder &b, const PartNames &n, int64_t hidden,
                                   int64_t parts, const Expr &cluster, const Expr &slice,
                                   mlir::Value vector, mlir::Value weight,
                                   mlir::Type productType) {
  using tcp::Context;
  const TargetModel &t = b.target();
  const int64_t part = hidden / parts;
  const int64_t perFlit = t.flitBytes / 4, perSubAccess = t.subFetchAccessBytes / 2;
  const Expr p = b.axis(n.partAxis, parts), i = b.axis(n.innerAxis, part);
  const std::string &a = n.alias;
  mlir::Type split = b.dm(a + "split", b.bf16(), cluster, slice, Expr::pair({p, i}));
  mlir::Type piece = b.dm(a + "piece", b.bf16(), cluster, slice, i);
  mlir::Type pieceSub = b.stream(a + "piecesub", b.f32(), cluster, slice, i / perSubAccess,
                                 i % perSubAccess);
  mlir::Type pieceVrf = b.vrf(a + "piecevrf", b.f32(), cluster, slice, i);
  mlir::Type pieceFlits =
      b.stream(a + "pieces", b.f32(), cluster, slice, i / perFlit, i % perFlit);
  mlir::Type pieceProduct = b.dm(a + "piecef", b.f32(), cluster, slice, i);
  mlir::Type joined = b.dm(a + "joined", b.f32(), cluster, slice, Expr::pair({p, i}));
  mlir::Value vs = b.reinterpret(n.vectorView + "split", vector, split);
  mlir::Value ws = b.reinterpret(n.weightView + "split", weight, split);
  std::vector<mlir::Value> products;
  for (int64_t j = 0; j < parts; ++j) {
    auto id = [&](const std::string &stem) { return stem + "_" + std::to_string(j); };
    mlir::Value vj = b.dmView(id(n.vectorView), vs, j * part, std::nullopt, piece);
    mlir::Value wj = b.dmView(id(n.weightView), ws, j * part, std::nullopt, piece);
    mlir::Value wf = b.fetch(id(n.weightFetch), Context::sub, wj, pieceSub);
    mlir::Value wv = b.toVrf(id(n.weightVrf), b.collect(id(n.weightCollect), wf), pieceVrf);
    mlir::Value vf = b.fetch(id(n.productFetch), Context::main, vj, pieceFlits);
    mlir::Value prod =
        b.vector(id(n.product), b.collect(id(n.productCollect), vf), {Step::vrfOf("mul_f", wv)});
    products.push_back(b.commit(id(n.productDm), prod, pieceProduct));
  }
  mlir::Value join = b.dmJoin(n.join, products, joined);
  return b.reinterpret(n.joined, join, productType);
}

/// vector x weight (bf16 over H on one slice of each cluster) in f32 (`productType`): the
/// whole weight into the VRF on sub (`weightSub`, `weightVrf`) and one pass over the vector's
/// `flits`, or `parts` parts of each (multiplyInParts).
inline mlir::Value multiplyByWeight(StageBuilder &b, const PartNames &n, int64_t hidden,
                                    int64_t parts, const Expr &cluster, const Expr &slice,
                                    mlir::Value vector, mlir::Value weight, mlir::Type flits,
                                    mlir::Type weightSub, mlir::Type weightVrf,
                                    mlir::Type productType) {
  using tcp::Context;
  if (parts > 1)
    return multiplyInParts(b, n, hidden, parts, cluster, slice, vector, weight, productType);
  mlir::Value wf = b.fetch(n.weightFetch, Context::sub, weight, weightSub);
  mlir::Value wv = b.toVrf(n.weightVrf, b.collect(n.weightCollect, wf), weightVrf);
  mlir::Value vf = b.fetch(n.productFetch, Context::main, vector, flits);
  mlir::Value vc = b.collect(n.productCollect, vf);
  return b.commit(n.productDm, b.vector(n.product, vc, {Step::vrfOf("mul_f", wv)}), productType);
}

} // namespace rngd::placement::qwen3::slicenorm
