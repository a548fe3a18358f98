// tcp.vector: syntax, verification and the Vector Engine plan (steps, VRF operand indexing,
// intra- and inter-slice reductions).
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/bit.h"

using namespace mlir;

namespace rngd::tcp {

namespace {

bool needsOperand(StepKind k) {
  return k == StepKind::BinaryF || k == StepKind::BinaryI || k == StepKind::FmaF;
}

/// Way4 (f32) ALUs, reducers included; the others (Stash aside) are Way8 fixed point.
bool isFloatAlu(isa::Alu alu) {
  isa::AluWay way = isa::aluWay(static_cast<int64_t>(alu));
  return way == isa::AluWay::Float || way == isa::AluWay::Reduce;
}

const char *aluName(isa::Alu alu) { return isa::aluName(static_cast<int64_t>(alu)); }

/// Element type a step reads (f32 or i32).
bool readsFloat(StepKind k) {
  return k != StepKind::BinaryI && k != StepKind::ToF32;
}

/// VRF operand indexing for a stream with `time`/`packet` reading VRF tensor `vrf`:
/// element e of flit f is at (f % period) * flitStride + e * elemStride bytes.
bool deriveVrfIndexing(Operation *op, const mapping::Mapping &time,
                       const mapping::Mapping &packet, const VrfLayout &vrf, VectorPlan &plan) {
  auto fail = [&](const Twine &why) {
    op->emitOpError("VRF operand ") << vrf.elem.str() << ": " << why;
    return false;
  };
  // Packet: all lanes read one value (broadcast) or consecutive values.
  bool anyPresent = false, allAbsent = true;
  int64_t expected = 1;
  for (auto it = packet.factors().rbegin(); it != packet.factors().rend(); ++it) {
    auto place = mapping::placeFactor(vrf.elem, *it);
    if (!place)
      return fail("packet factor `" + it->str() + "` is split over several VRF factors");
    if (place->absent)
      continue;
    allAbsent = false;
    anyPresent = true;
    if (place->stride != expected)
      return fail("the packet must be broadcast or contiguous in the VRF tensor");
    expected *= it->cells;
  }
  plan.vrfElemStride = allAbsent ? 0 : vrf.elemBytes;
  (void)anyPresent;
  // Time: the factors the VRF holds must be the innermost ones; outer factors it lacks repeat.
  const auto &factors = time.factors();
  int64_t n = static_cast<int64_t>(factors.size());
  int64_t firstPresent = n;
  std::vector<mapping::FactorPlace> places;
  for (const mapping::Factor &f : factors) {
    auto place = mapping::placeFactor(vrf.elem, f);
    if (!place)
      return fail("time factor `" + f.str() + "` is split over several VRF factors");
    places.push_back(*place);
  }
  for (int64_t i = 0; i < n; ++i)
    if (!places[i].absent) {
      firstPresent = i;
      break;
    }
  if (firstPresent == n) {
    plan.vrfFlitStride = 0;
    plan.vrfPeriod = 0;
    return true;
  }
  int64_t stride = places[n - 1].absent ? -1 : places[n - 1].stride;
  int64_t span = 1;
  for (int64_t i = n - 1; i >= firstPresent; --i) {
    if (places[i].absent || places[i].stride != stride * span)
      return fail("the time factors the VRF tensor holds must be innermost and contiguous "
                  "(factor `" +
                  factors[i].str() + "`)");
    span *= factors[i].count;
  }
  plan.vrfFlitStride = stride * vrf.elemBytes;
  plan.vrfPeriod = firstPresent > 0 ? span : 0;
  return true;
}

/// Innermost factors of `time` whose product is `slots`, as a mapping.
std::optional<mapping::Mapping> innermost(const mapping::Mapping &time, int64_t slots) {
  std::vector<mapping::Factor> tail;
  int64_t product = 1;
  for (auto it = time.factors().rbegin(); it != time.factors().rend() && product < slots; ++it) {
    tail.insert(tail.begin(), *it);
    product *= it->cells;
  }
  if (product != slots)
    return std::nullopt;
  return mapping::Mapping::fromFactors(tail);
}

} // namespace

std::optional<VectorPlan> planVector(VectorOp op) {
  const TargetModel &t = getTarget(op);
  auto in = resolveStream(op, op.getInput().getType());
  auto out = resolveStream(op, op.getResult().getType());
  if (!in || !out)
    return std::nullopt;
  VectorPlan plan;
  plan.in = *in;
  plan.out = *out;
  Type inElem = op.getInput().getType().getElementType();
  Type outElem = op.getResult().getType().getElementType();
  if (!inElem.isF32() && !inElem.isSignlessInteger(32)) {
    op.emitOpError("the Vector Engine computes on i32 or f32 streams, got ") << inElem;
    return std::nullopt;
  }
  if (op.getSteps().empty()) {
    op.emitOpError("a vector invocation needs at least one step");
    return std::nullopt;
  }
  bool isFloat = inElem.isF32();
  int64_t previousStage = 0;
  StringRef previousName;
  isa::Alu previousAlu = isa::Alu::Stash;
  bool mul0Used = false, stashed = false, intraSeen = false, interSeen = false;
  int immediates = 0, vrfReads = 0;
  mapping::Mapping time = in->time, packet = in->packet;
  for (auto [i, stepAttr] : llvm::enumerate(op.getSteps())) {
    StringRef name = cast<StringAttr>(stepAttr).getValue();
    const VectorStepInfo *info = findVectorStep(name);
    VectorStepPlan step;
    step.info = info;
    step.alu = info->alu;
    if (info->alu == isa::Alu::FpMul0 && mul0Used)
      step.alu = isa::Alu::FpMul1;
    if (step.alu == isa::Alu::FpMul0)
      mul0Used = true;
    int64_t stage = static_cast<int64_t>(step.alu);
    if (info->kind != StepKind::Stash) {
      if (stage == previousStage) {
        op.emitOpError("ALU ") << aluName(step.alu) << " is used twice; each ALU runs at most once per "
                               << "vector invocation (split into two passes)";
        return std::nullopt;
      }
      if (stage < previousStage) {
        op.emitOpError("stage order: `")
            << name << "` (" << aluName(step.alu) << ") cannot follow `" << previousName
            << "` (" << aluName(previousAlu) << ") in one invocation";
        return std::nullopt;
      }
      previousStage = stage;
      previousName = name;
      previousAlu = step.alu;
    }
    if (readsFloat(info->kind) != isFloat) {
      op.emitOpError("step `") << name << "` computes on " << (readsFloat(info->kind) ? "f32" : "i32")
                               << " but the value there is " << (isFloat ? "f32" : "i32");
      return std::nullopt;
    }
    if (info->kind == StepKind::ToF32)
      isFloat = true;
    if (info->kind == StepKind::ToI32)
      isFloat = false;

    Attribute operand = op.getOperands()[i];
    if (needsOperand(info->kind)) {
      if (auto s = dyn_cast<StringAttr>(operand)) {
        if (s.getValue() == "stash") {
          if (!stashed) {
            op.emitOpError("step `")
                << name << "` reads the stash before any `stash` step of its flits (a reduce "
                << "starts new flits)";
            return std::nullopt;
          }
          step.operand = VectorStepPlan::Operand::Stash;
        } else {
          step.operand = VectorStepPlan::Operand::Vrf;
          ++vrfReads;
          auto vrf = resolveVrf(op, cast<VrfType>(op.getVrfOperands()[0].getType()));
          if (!vrf)
            return std::nullopt;
          if (!sameSlices(getTarget(op), vrf->spatial, in->spatial)) {
            op.emitOpError("each slice reads its own VRF: the VRF operand must occupy the "
                           "stream's slices");
            return std::nullopt;
          }
          if (vrf->elemBytes != 4 ||
              cast<VrfType>(op.getVrfOperands()[0].getType()).getElementType().isF32() != isFloat) {
            op.emitOpError("VRF operand element type must match the value (")
                << (isFloat ? "f32" : "i32") << ")";
            return std::nullopt;
          }
          plan.hasVrf = true;
          if (!deriveVrfIndexing(op, time, packet, *vrf, plan))
            return std::nullopt;
        }
      } else {
        step.operand = VectorStepPlan::Operand::Immediate;
        ++immediates;
        if (auto f = dyn_cast<FloatAttr>(operand))
          step.imm = llvm::bit_cast<uint32_t>(static_cast<float>(f.getValueAsDouble()));
        else
          step.imm = static_cast<uint32_t>(cast<IntegerAttr>(operand).getInt());
      }
    }
    if (info->kind == StepKind::FmaF) {
      ++immediates;
      step.addend = llvm::bit_cast<uint32_t>(
          static_cast<float>(cast<FloatAttr>(op.getAddends()[i]).getValueAsDouble()));
    }
    if (info->kind == StepKind::Stash)
      stashed = true;

    if (info->kind == StepKind::ReduceF) {
      intraSeen = true;
      stashed = false; // the reducer emits new flits: nothing is stashed for them
      plan.reduceSlots = out->time.size();
      auto tail = innermost(in->time, plan.reduceSlots);
      if (plan.reduceSlots > t.vectorReduceSlots || !tail || !sameOrder(*tail, out->time)) {
        op.emitOpError("intra-slice reduce: the result's time must be the innermost input time "
                       "factors (at most ")
            << t.vectorReduceSlots << " slots), got " << out->time.str() << " from "
            << in->time.str();
        return std::nullopt;
      }
      plan.reduceTree = out->packet.str() != in->packet.str();
      if (plan.reduceTree && (out->packet.size() * 4 != t.commitStrideAlignment ||
                              !out->packet.axes().empty())) {
        op.emitOpError("intra-slice reduce: a full packet reduction yields packet `1 # 2` (one "
                       "value, 8 bytes), got ")
            << out->packet.str();
        return std::nullopt;
      }
      time = out->time;
      packet = out->packet;
    }
    if (info->kind == StepKind::InterF) {
      interSeen = true;
      const auto &a = in->spatial.slice.factors(), &b = out->spatial.slice.factors();
      int64_t group = 1;
      std::vector<std::string> used = in->time.axes();
      for (const std::string &axis : in->spatial.slice.axes())
        used.push_back(axis);
      bool ok = a.size() == b.size() && sameOrder(in->spatial.cluster, out->spatial.cluster);
      for (size_t k = a.size(); ok && k-- > 0;) {
        if (a[k] == b[k])
          break;
        bool fresh = !b[k].isConstant() && !llvm::is_contained(used, b[k].axis);
        ok = fresh && a[k].count == b[k].count && a[k].cells == b[k].cells;
        group *= a[k].count;
      }
      if (!ok || group < 2 || (group & (group - 1)) != 0 || group > t.slicesPerCluster) {
        op.emitOpError("inter-slice reduce: the result's slice mapping must replace the "
                       "innermost slice factors (a power-of-two group) by fresh axes of the "
                       "same size, got ")
            << out->spatial.slice.str() << " from " << in->spatial.slice.str();
        return std::nullopt;
      }
      plan.interGroup = group;
    }
    if (isFloatAlu(step.alu))
      ++plan.floatAlus;
    else if (info->kind != StepKind::Stash)
      ++plan.intAlus;
    plan.steps.push_back(step);
  }
  if (immediates > t.vectorImmediates) {
    op.emitOpError("operands: ") << immediates << " immediates; an invocation has "
                                 << t.vectorImmediates;
    return std::nullopt;
  }
  if (vrfReads > 1) {
    op.emitOpError("operands: ") << vrfReads << " VRF reads; an invocation has one register "
                                 << "file port";
    return std::nullopt;
  }
  if ((isFloat ? !outElem.isF32() : !outElem.isSignlessInteger(32))) {
    op.emitOpError("the steps produce ") << (isFloat ? "f32" : "i32") << " but the result is "
                                         << outElem;
    return std::nullopt;
  }
  if (!intraSeen && (!sameOrder(in->time, out->time) || !sameOrder(in->packet, out->packet))) {
    op.emitOpError("without an intra-slice reduce the result keeps the input's time and packet");
    return std::nullopt;
  }
  if (!interSeen && !sameSpatial(in->spatial, out->spatial)) {
    op.emitOpError("without an inter-slice reduce the result keeps the input's slices");
    return std::nullopt;
  }
  return plan;
}

} // namespace rngd::tcp

using namespace rngd::tcp;

// %v = tcp.vector %c [add_f 1.0, mul_f vrf(%w), fma_f 0.5 + 1.0, stash] : !in (-> !out)?
ParseResult VectorOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  SmallVector<OpAsmParser::UnresolvedOperand> vrfs;
  SmallVector<Type> vrfTypes;
  Type inType, outType;
  SmallVector<Attribute> steps, operands, addends;
  Builder &b = parser.getBuilder();
  if (parser.parseOperand(input))
    return failure();
  auto parseNumber = [&](bool isFloat, Attribute &out) -> ParseResult {
    if (isFloat) {
      double v = 0;
      if (parser.parseFloat(v))
        return failure();
      out = b.getF32FloatAttr(static_cast<float>(v));
      return success();
    }
    int32_t v = 0;
    if (parser.parseInteger(v))
      return failure();
    out = b.getI32IntegerAttr(v);
    return success();
  };
  auto parseStep = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    const VectorStepInfo *info = findVectorStep(name);
    if (!info)
      return parser.emitError(loc, "unknown vector step `") << name << "`";
    steps.push_back(b.getStringAttr(name));
    Attribute operand = b.getUnitAttr(), addend = b.getUnitAttr();
    if (needsOperand(info->kind)) {
      if (succeeded(parser.parseOptionalKeyword("stash"))) {
        operand = b.getStringAttr("stash");
      } else if (succeeded(parser.parseOptionalKeyword("vrf"))) {
        OpAsmParser::UnresolvedOperand vrf;
        Type vrfType;
        if (parser.parseLParen() || parser.parseOperand(vrf) || parser.parseColon() ||
            parser.parseType(vrfType) || parser.parseRParen())
          return failure();
        vrfs.push_back(vrf);
        vrfTypes.push_back(vrfType);
        operand = b.getStringAttr("vrf");
      } else if (parseNumber(info->kind != StepKind::BinaryI, operand)) {
        return failure();
      }
    }
    if (info->kind == StepKind::FmaF && (parser.parsePlus() || parseNumber(true, addend)))
      return failure();
    operands.push_back(operand);
    addends.push_back(addend);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseStep) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(inType))
    return failure();
  outType = inType;
  if (succeeded(parser.parseOptionalArrow()) && parser.parseType(outType))
    return failure();
  if (parser.resolveOperand(input, inType, result.operands) ||
      parser.resolveOperands(vrfs, vrfTypes, parser.getCurrentLocation(), result.operands))
    return failure();
  result.addAttribute("steps", b.getArrayAttr(steps));
  result.addAttribute("operands", b.getArrayAttr(operands));
  result.addAttribute("addends", b.getArrayAttr(addends));
  result.addTypes(outType);
  return success();
}

void VectorOp::print(OpAsmPrinter &p) {
  p << " " << getInput() << " [";
  for (auto [i, step] : llvm::enumerate(getSteps())) {
    p << (i ? ", " : "") << cast<StringAttr>(step).getValue();
    Attribute operand = getOperands()[i];
    if (auto s = dyn_cast<StringAttr>(operand)) {
      if (s.getValue() == "stash")
        p << " stash";
      else
        p << " vrf(" << getVrfOperands()[0] << " : " << getVrfOperands()[0].getType() << ")";
    } else if (auto f = dyn_cast<FloatAttr>(operand)) {
      p << " ";
      p.printFloat(f.getValue());
    } else if (auto n = dyn_cast<IntegerAttr>(operand)) {
      p << " " << n.getInt();
    }
    if (auto f = dyn_cast<FloatAttr>(getAddends()[i])) {
      p << " + ";
      p.printFloat(f.getValue());
    }
  }
  p << "]";
  p.printOptionalAttrDict((*this)->getAttrs(), {"steps", "operands", "addends"});
  p << " : " << getInput().getType();
  if (getResult().getType() != getInput().getType())
    p << " -> " << getResult().getType();
}

LogicalResult VectorOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.collect", "tcp.contract"})))
    return failure();
  size_t n = getSteps().size();
  if (getOperands().size() != n || getAddends().size() != n)
    return emitOpError("each vector step needs one operand and one addend entry");
  for (Attribute step : getSteps())
    if (!llvm::isa<StringAttr>(step) || !findVectorStep(cast<StringAttr>(step).getValue()))
      return emitOpError("unknown vector step ") << step;
  if (getVrfOperands().size() > 1)
    return emitOpError("operands: ") << getVrfOperands().size()
                                     << " VRF tensors; an invocation has one register file port";
  if (failed(verifySingleUse(*this, getResult())))
    return failure();
  return success(planVector(*this).has_value());
}
