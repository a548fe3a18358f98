// tcp.to_trf and tcp.to_vrf: passes that end in a register file.
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

using namespace mlir;

namespace rngd::tcp {

/// The stream's [time, packet] order must be the register tensor's element order.
static bool checkOrder(Operation *op, const StreamLayout &stream, const mapping::Mapping &order,
                       StringRef what, StringRef orderText) {
  mapping::Mapping streamOrder = concat(stream.time, stream.packet);
  if (sameOrder(streamOrder, order))
    return true;
  op->emitOpError("the stream's [time, packet] order ")
      << streamOrder.str() << " (" << streamOrder.size() << " cells) must equal the " << what
      << " order " << orderText << " (" << order.size() << " cells)";
  return false;
}

std::optional<TrfLayout> planToTrf(ToTrfOp op) {
  auto stream = resolveStream(op, op.getInput().getType());
  auto trf = resolveTrf(op, op.getResult().getType());
  if (!stream || !trf)
    return std::nullopt;
  if (!sameSlices(getTarget(op), stream->spatial, trf->spatial)) {
    op.emitOpError("each slice writes its own TRF: the stream and the TRF tensor must occupy "
                   "the same slices");
    return std::nullopt;
  }
  mapping::Mapping order = concat(trf->lane, trf->elem);
  if (!checkOrder(op, *stream, order, "TRF [lane, elem]", order.str()))
    return std::nullopt;
  if (auto region = op.getRegion()) {
    const TargetModel &t = getTarget(op);
    int64_t half = t.trfBytesPerSlice / trf->lanes() / 2;
    if (*region != "first" && *region != "second") {
      op.emitOpError("TRF region must be \"first\" or \"second\", got \"") << *region << "\"";
      return std::nullopt;
    }
    if (trf->laneBytes() > half) {
      op.emitOpError("TRF capacity: ")
          << trf->laneBytes() << " bytes per lane exceed the " << half << " bytes of a half "
          << "region with " << trf->lanes() << " lanes";
      return std::nullopt;
    }
  }
  return trf;
}

std::optional<VrfLayout> planToVrf(ToVrfOp op) {
  auto stream = resolveStream(op, op.getInput().getType());
  auto vrf = resolveVrf(op, op.getResult().getType());
  if (!stream || !vrf)
    return std::nullopt;
  if (!sameSlices(getTarget(op), stream->spatial, vrf->spatial)) {
    op.emitOpError("each slice writes its own VRF: the stream and the VRF tensor must occupy "
                   "the same slices");
    return std::nullopt;
  }
  if (!checkOrder(op, *stream, vrf->elem, "VRF element", vrf->elem.str()))
    return std::nullopt;
  return vrf;
}

TrfJoinOp joinOf(Value v) {
  return v.hasOneUse() ? dyn_cast<TrfJoinOp>(*v.user_begin()) : TrfJoinOp();
}

} // namespace rngd::tcp

using namespace rngd::tcp;

LogicalResult ToTrfOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.collect"})))
    return failure();
  if (getInput().getType().getElementType() != getResult().getType().getElementType())
    return emitOpError("the TRF stores the stream's element type (")
           << getInput().getType().getElementType() << "), not "
           << getResult().getType().getElementType();
  return success(planToTrf(*this).has_value());
}

LogicalResult ToVrfOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.collect"})))
    return failure();
  Type elem = getResult().getType().getElementType();
  if (getInput().getType().getElementType() != elem)
    return emitOpError("the VRF stores the stream's element type (")
           << getInput().getType().getElementType() << "), not " << elem;
  if (!elem.isF32() && !elem.isSignlessInteger(32))
    return emitOpError("the VRF holds Vector Engine operands: i32 or f32, got ") << elem;
  return success(planToVrf(*this).has_value());
}

LogicalResult TrfJoinOp::verify() {
  auto even = resolveTrf(*this, getEven().getType());
  auto odd = resolveTrf(*this, getOdd().getType());
  auto result = resolveTrf(*this, getResult().getType());
  if (!even || !odd || !result)
    return failure();
  for (Value half : {getEven(), getOdd()}) {
    if (!half.getDefiningOp<ToTrfOp>())
      return emitOpError("joins two tensors that tcp.to_trf loads (their places are the "
                         "result's lanes)");
    if (!half.hasOneUse())
      return emitOpError("a joined tensor is read only as part of the result");
    if (half.getDefiningOp<ToTrfOp>().getRegion())
      return emitOpError("a joined tensor takes the result's place: no region of its own");
  }
  if (getEven() == getOdd())
    return emitOpError("joins two different tensors");
  Type elem = getResult().getType().getElementType();
  if (getEven().getType().getElementType() != elem || getOdd().getType().getElementType() != elem)
    return emitOpError("the two halves and the result have one element type");
  const TargetModel &t = getTarget(*this);
  if (!sameSlices(t, even->spatial, odd->spatial) || !sameSlices(t, even->spatial, result->spatial))
    return emitOpError("the two halves and the result occupy the same slices");
  if (even->lanes() != odd->lanes() || result->lanes() != 2 * even->lanes())
    return emitOpError("the result has the lanes of both halves: ")
           << even->lanes() << " + " << odd->lanes() << " lanes, the result " << result->lanes();
  if (even->laneBytes() != odd->laneBytes() || result->laneBytes() != even->laneBytes())
    return emitOpError("every lane holds as many bytes: ")
           << even->laneBytes() << ", " << odd->laneBytes() << " and the result's "
           << result->laneBytes();
  return success();
}
