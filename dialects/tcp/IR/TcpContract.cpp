// tcp.contract: deriving the Contraction Engine's loops from the stream, TRF and result types.
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

#include <set>

using namespace mlir;

namespace rngd::tcp {

int64_t ContractPlan::iterations() const {
  int64_t n = 1;
  for (const Loop &l : loops)
    n *= l.size;
  return n;
}

namespace {

/// Merges adjacent loops of the same region whose three strides all nest.
void mergeContractLoops(std::vector<ContractPlan::Loop> &loops, int64_t &window) {
  for (size_t i = 0; i + 1 < loops.size();) {
    ContractPlan::Loop &o = loops[i], &n = loops[i + 1];
    bool sameRegion = (static_cast<int64_t>(i) < window) == (static_cast<int64_t>(i) + 1 < window);
    if (sameRegion && o.stream == n.stream * n.size && o.trf == n.trf * n.size &&
        o.acc == n.acc * n.size) {
      n.size *= o.size;
      loops.erase(loops.begin() + i);
      if (static_cast<int64_t>(i) < window)
        --window;
      continue;
    }
    ++i;
  }
}

std::string factorList(const std::vector<mapping::Factor> &factors) {
  return mapping::Mapping::fromFactors(factors).str();
}

} // namespace

std::optional<ContractPlan> planContract(ContractOp op) {
  const TargetModel &t = getTarget(op);
  auto in = resolveStream(op, op.getInput().getType());
  auto w = resolveTrf(op, op.getWeights().getType());
  auto out = resolveStream(op, op.getResult().getType());
  if (!in || !w || !out)
    return std::nullopt;
  ContractPlan plan;
  plan.in = *in;
  plan.out = *out;
  plan.weights = *w;
  Type a = op.getInput().getType().getElementType();
  Type b = op.getWeights().getType().getElementType();
  Type c = op.getResult().getType().getElementType();
  bool floatPair = a.isBF16() && b.isBF16() && c.isF32();
  bool intPair = a.isSignlessInteger(8) && b.isSignlessInteger(8) && c.isSignlessInteger(32);
  if (!floatPair && !intPair) {
    op.emitOpError("multiplier: ") << a << " x " << b << " -> " << c
                                   << " is not a supported type pair (bf16 x bf16 -> f32, "
                                      "i8 x i8 -> i32)";
    return std::nullopt;
  }
  plan.integer = intPair;
  if (passContext(op) != Context::main) {
    op.emitOpError("context: the Contraction Engine runs on the main context only");
    return std::nullopt;
  }
  // The stream may reach more slices than hold weights (a ring broadcast covers whole rings);
  // only the TRF tensor's slices contract into the result.
  if (!slicesWithin(t, w->spatial, in->spatial) || !sameSlices(t, out->spatial, w->spatial)) {
    op.emitOpError("each slice contracts its own stream with its own TRF: the TRF tensor and "
                   "the result must occupy the same slices, all of them reached by the stream");
    return std::nullopt;
  }
  int64_t eb = in->elemBytes;
  if (in->packetBytes() != t.flitBytes) {
    op.emitOpError("stream adapter: packets must be full ")
        << t.flitBytes << "-byte flits, got " << in->packetBytes() << " bytes";
    return std::nullopt;
  }

  // The stream adapter pairs consecutive flits: the innermost time factor splits in two.
  plan.pack = op.getPack();
  std::vector<mapping::Factor> time = in->time.factors(), packet = in->packet.factors();
  if (plan.pack == 2) {
    auto split = time.empty() ? std::nullopt : mapping::splitFactor(time.back(), 2);
    if (!split) {
      op.emitOpError("stream adapter: pack 2 pairs consecutive flits, so the innermost time "
                     "factor ")
          << (time.empty() ? "(none)" : "`" + time.back().str() + "`")
          << " must have an even, unpadded count";
      return std::nullopt;
    }
    time.back() = split->first;
    if (time.back().count == 1)
      time.pop_back();
    packet.insert(packet.begin(), split->second);
  }
  plan.packetElems = plan.pack * t.flitBytes / eb;
  plan.lanes = w->lanes();

  // The packet is reduced whole: it must be a contiguous run of every lane's TRF row.
  int64_t expected = 1;
  for (auto it = packet.rbegin(); it != packet.rend(); ++it) {
    auto place = mapping::placeFactor(w->elem, *it);
    if (!place || place->absent || place->stride != expected) {
      op.emitOpError("packet reducer: the packet ")
          << factorList(packet) << " must be contiguous in the TRF element mapping "
          << w->elem.str() << " (factor `" << it->str() << "`)";
      return std::nullopt;
    }
    expected *= it->count;
  }

  // Iteration: stream time factors, then TRF-only factors broadcast in time (innermost).
  std::set<std::string> streamAxes;
  for (const auto &m : {in->time, in->packet})
    for (const std::string &axis : m.axes())
      streamAxes.insert(axis);
  struct Step {
    mapping::Factor factor;
    bool kept;
    ContractPlan::Loop loop;
  };
  std::vector<Step> steps;
  int64_t packets = 1;
  for (auto it = time.rbegin(); it != time.rend(); ++it) {
    auto place = mapping::placeFactor(w->elem, *it);
    if (!place) {
      op.emitOpError("time factor `")
          << it->str() << "` is split over several TRF element factors of " << w->elem.str();
      return std::nullopt;
    }
    steps.insert(steps.begin(), {*it, place->absent, {it->count, packets, place->stride * eb, 0}});
    packets *= it->count;
  }
  std::vector<int64_t> trfStrides = w->elem.strides();
  for (size_t i = 0; i < w->elem.factors().size(); ++i) {
    const mapping::Factor &g = w->elem.factors()[i];
    if (!g.isConstant() && !streamAxes.count(g.axis))
      steps.push_back({g, true, {g.count, 0, trfStrides[i] * eb, 0}});
  }

  // The time reducer accumulates from the first contracted factor on; kept factors inside that
  // window are its slots, kept factors before it are output loops.
  plan.window = static_cast<int64_t>(steps.size());
  for (size_t i = 0; i < steps.size(); ++i)
    if (!steps[i].kept) {
      plan.window = static_cast<int64_t>(i);
      break;
    }
  plan.slots = 1;
  for (int64_t i = static_cast<int64_t>(steps.size()) - 1; i >= plan.window; --i)
    if (steps[i].kept) {
      steps[i].loop.acc = plan.slots;
      plan.slots *= steps[i].factor.count;
    }
  std::vector<mapping::Factor> kept;
  for (const Step &s : steps)
    if (s.kept)
      kept.push_back(s.factor);
  plan.sequential = op.getSequential();
  if (plan.sequential) // the lane folder emits the lanes one after another, innermost in time
    for (const mapping::Factor &f : w->lane.factors())
      kept.push_back(f);
  mapping::Mapping keptTime = mapping::Mapping::fromFactors(kept);
  if (!sameOrder(keptTime, out->time)) {
    op.emitOpError("time reducer: the result's time must be the kept factors in order")
        << (plan.sequential ? " followed by the lanes, " : ", ")
        << (kept.empty() ? std::string("1") : keptTime.str()) << ", got " << out->time.str();
    return std::nullopt;
  }
  if (plan.slots * plan.packetElems > t.timeReducerCells) {
    op.emitOpError("time reducer: ")
        << plan.slots << " accumulator slots x " << plan.packetElems
        << "-element packets exceed the accumulator's " << t.timeReducerCells << " cells";
    return std::nullopt;
  }

  // Lane folder: interleaved puts the lanes (padded to 8) in the packet; sequential sends one
  // value per flit (`1 # 8`).
  std::vector<mapping::Factor> lanes = w->lane.factors();
  if (lanes.size() == 1)
    lanes[0].cells = t.trfLanes;
  if (plan.sequential) {
    if (out->packet.size() != t.trfLanes || !out->packet.axes().empty()) {
      op.emitOpError("lane folder (sequential): the result packet is `1 # ")
          << t.trfLanes << "`, got " << out->packet.str();
      return std::nullopt;
    }
  } else if (out->packet.size() != t.trfLanes ||
             !sameOrder(out->packet, mapping::Mapping::fromFactors(lanes))) {
    op.emitOpError("lane folder: the result packet must be the TRF lanes ")
        << w->lane.str() << " padded to " << t.trfLanes << " cells, got " << out->packet.str();
    return std::nullopt;
  }

  for (const Step &s : steps)
    plan.loops.push_back(s.loop);
  mergeContractLoops(plan.loops, plan.window);
  if (static_cast<int64_t>(plan.loops.size()) > t.maxSequencerEntries) {
    op.emitOpError("contraction loops: needs ")
        << plan.loops.size() << " loops, limit " << t.maxSequencerEntries;
    return std::nullopt;
  }
  for (const ContractPlan::Loop &l : plan.loops)
    if (l.size > t.maxSequencerEntrySize) {
      op.emitOpError("contraction loops: a loop of ")
          << l.size << " iterations exceeds " << t.maxSequencerEntrySize;
      return std::nullopt;
    }
  return plan;
}

} // namespace rngd::tcp

using namespace rngd::tcp;

LogicalResult ContractOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.collect"})))
    return failure();
  if (failed(verifySingleUse(*this, getResult())))
    return failure();
  return success(planContract(*this).has_value());
}
