#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"
#include "dialects/tcp/IR/TcpPlan.h"
#include "dialects/tcp/IR/TcpVerify.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <algorithm>

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;

//===----------------------------------------------------------------------===//
// Operand and result types in the assembly formats (custom<DmType>(type($x)), ...): a type of
// another kind is refused with what the op expects and where the given value lives (MLIR's
// own check says only "invalid kind of Type specified").
//===----------------------------------------------------------------------===//

/// Where a value of tcp type `type` lives, as an error names it.
static StringRef whereItLives(Type type) {
  if (llvm::isa<HbmType>(type))
    return "a tensor in HBM";
  if (llvm::isa<DmType>(type))
    return "a tensor in Data Memory";
  if (llvm::isa<StreamType>(type))
    return "a stream of the Tensor Unit";
  if (llvm::isa<TrfType>(type))
    return "a tensor in the Tensor Register File";
  if (llvm::isa<VrfType>(type))
    return "a tensor in the Vector Register File";
  return "not a tcp tensor";
}

template <typename Expected>
static ParseResult parseKind(OpAsmParser &parser, Type &result, StringRef expected,
                             StringRef hint) {
  SMLoc loc = parser.getCurrentLocation();
  // `!tcp.dm<...>`, an alias, or the short form `<...>` the printer writes.
  if (parser.parseCustomTypeWithFallback(result, [&](Type &parsed) {
        parsed = Expected::parse(parser);
        return success(static_cast<bool>(parsed));
      }))
    return failure();
  if (llvm::isa<Expected>(result))
    return success();
  auto diag = parser.emitError(loc) << "expected " << expected << " here, but this value is "
                                    << result << ", " << whereItLives(result);
  if (!hint.empty())
    diag << "; " << hint;
  return failure();
}

static ParseResult parseHbmType(OpAsmParser &parser, Type &result) {
  return parseKind<HbmType>(parser, result, "a tensor in HBM (!tcp.hbm)", "");
}
static ParseResult parseDmType(OpAsmParser &parser, Type &result) {
  return parseKind<DmType>(parser, result, "a tensor in Data Memory (!tcp.dm)",
                           "only tcp.dma moves tensors between HBM and Data Memory");
}
static ParseResult parseStreamType(OpAsmParser &parser, Type &result) {
  return parseKind<StreamType>(parser, result, "a Tensor Unit stream (!tcp.stream)",
                               "tcp.fetch streams a Data Memory tensor");
}
static ParseResult parseTrfType(OpAsmParser &parser, Type &result) {
  return parseKind<TrfType>(parser, result, "a Tensor Register File tensor (!tcp.trf)",
                            "tcp.to_trf writes a stream into the TRF");
}
static ParseResult parseVrfType(OpAsmParser &parser, Type &result) {
  return parseKind<VrfType>(parser, result, "a Vector Register File tensor (!tcp.vrf)",
                            "tcp.to_vrf writes a stream into the VRF");
}
/// The short form `<...>`, as ODS prints a type of a known kind.
template <typename Expected>
static void printKind(OpAsmPrinter &printer, Type type) {
  printer.printStrippedAttrOrType(llvm::cast<Expected>(type));
}
static void printHbmType(OpAsmPrinter &p, Operation *, Type t) { printKind<HbmType>(p, t); }
static void printDmType(OpAsmPrinter &p, Operation *, Type t) { printKind<DmType>(p, t); }
static void printStreamType(OpAsmPrinter &p, Operation *, Type t) { printKind<StreamType>(p, t); }
static void printTrfType(OpAsmPrinter &p, Operation *, Type t) { printKind<TrfType>(p, t); }
static void printVrfType(OpAsmPrinter &p, Operation *, Type t) { printKind<VrfType>(p, t); }

#define GET_OP_CLASSES
#include "dialects/tcp/IR/TcpOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace rngd::tcp {

DmJoinOp dmJoinOf(Value v) {
  return v.hasOneUse() ? dyn_cast<DmJoinOp>(*v.user_begin()) : DmJoinOp();
}

std::optional<HbmRoot> hbmRoot(Value v) {
  int64_t offset = 0;
  while (auto view = v.getDefiningOp<ViewOp>()) {
    offset += view.getOffset() * elementBytes(view.getSource().getType().getElementType());
    v = view.getSource();
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  return HbmRoot{arg, offset};
}

StringRef argumentKind(Value v) {
  auto root = hbmRoot(v);
  if (!root)
    return "";
  BlockArgument arg = root->arg;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func)
    return "";
  auto kind = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tcp.arg");
  return kind ? kind.getValue() : "";
}

/// Whether a DMA before `op` in its block writes every byte `op` reads through `v` (a view of
/// an "out" argument that the kernel fills first: a fused stage's hand-off).
static bool writtenBefore(Operation *op, Value v) {
  auto read = hbmRoot(v);
  auto layout = resolveHbm(op, llvm::cast<HbmType>(v.getType()));
  if (!read || !layout)
    return false;
  // Cells up to the last each view holds (a view's padding past it is not read or written).
  auto extent = [](const HbmLayout &l) { return l.elem.heldEnd() * l.elemBytes; };
  const int64_t begin = read->byteOffset, end = begin + extent(*layout);
  std::vector<std::pair<int64_t, int64_t>> writes; // byte ranges of the argument written
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    auto dma = dyn_cast<DmaOp>(prev);
    if (!dma || !dma.getDest())
      continue;
    auto written = hbmRoot(dma.getDest());
    auto wl = resolveHbm(prev, llvm::cast<HbmType>(dma.getDest().getType()));
    if (written && wl && written->arg == read->arg)
      writes.push_back({written->byteOffset, written->byteOffset + extent(*wl)});
  }
  llvm::sort(writes);
  int64_t covered = begin;
  for (auto [from, to] : writes)
    if (from <= covered)
      covered = std::max(covered, to);
  return covered >= end;
}

LogicalResult verifyReadsArgument(Operation *op, Value v, StringRef what) {
  StringRef kind = argumentKind(v);
  if (kind.empty())
    return op->emitOpError(what) << " must be a kernel argument";
  if (kind == "out" && !writtenBefore(op, v))
    return op->emitOpError("reads argument #")
           << hbmRoot(v)->arg.getArgNumber()
           << " of kind \"out\", whose contents are undefined before the kernel writes them";
  return success();
}

LogicalResult verifyWritesArgument(Operation *op, Value v, StringRef what) {
  StringRef kind = argumentKind(v);
  if (kind.empty())
    return op->emitOpError(what) << " must be a kernel argument";
  if (kind == "in")
    return op->emitOpError("writes argument #") << hbmRoot(v)->arg.getArgNumber()
                                                << " of kind \"in\"; declare it \"out\" or "
                                                   "\"inout\"";
  return success();
}

/// A stream value feeds exactly one op.
LogicalResult verifySingleUse(Operation *op, Value stream) {
  if (stream.hasOneUse())
    return success();
  if (stream.use_empty())
    return op->emitOpError("stream result is never used: a Tensor Unit pass ends in tcp.commit, "
                           "tcp.to_trf or tcp.to_vrf");
  return op->emitOpError("stream result has ")
         << std::distance(stream.use_begin(), stream.use_end())
         << " uses; a stream flows into exactly one engine";
}

/// Pipeline order: `input` must come from one of the named stream ops.
LogicalResult verifyProducer(Operation *op, Value input,
                             std::initializer_list<StringRef> producers) {
  Operation *def = input.getDefiningOp();
  for (StringRef name : producers)
    if (def && def->getName().getStringRef() == name)
      return success();
  auto diag = op->emitOpError("pipeline order: input must come from ");
  llvm::interleave(producers, diag, [&](StringRef n) { diag << "`" << n << "`"; }, " or ");
  diag << ", got " << (def ? "`" + def->getName().getStringRef().str() + "`" : "a block argument");
  return diag;
}

} // namespace rngd::tcp

//===----------------------------------------------------------------------===//
// DmaOp
//===----------------------------------------------------------------------===//

// %r = tcp.dma %src : T -> U          (to a new DM tensor)
// tcp.dma %src into %dst : T -> U     (into an HBM buffer)
ParseResult DmaOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source, dest;
  bool hasDest = false;
  Type sourceType, destType;
  if (parser.parseOperand(source))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("into"))) {
    hasDest = true;
    if (parser.parseOperand(dest))
      return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(sourceType) || parser.parseArrow() || parser.parseType(destType))
    return failure();
  if (parser.resolveOperand(source, sourceType, result.operands))
    return failure();
  if (hasDest) {
    if (parser.resolveOperand(dest, destType, result.operands))
      return failure();
  } else {
    result.addTypes(destType);
  }
  return success();
}

void DmaOp::print(OpAsmPrinter &p) {
  p << " " << getSource();
  if (getDest())
    p << " into " << getDest();
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " : " << getSource().getType() << " -> "
    << (getDest() ? getDest().getType() : getResult().getType());
}

LogicalResult DmaOp::verify() {
  if (!getDest() == !getResult())
    return emitOpError("needs exactly one destination: `into` an HBM buffer or a DM result");
  Type destType = getDest() ? getDest().getType() : getResult().getType();
  Type srcElem = llvm::isa<HbmType>(getSource().getType())
                     ? cast<HbmType>(getSource().getType()).getElementType()
                     : cast<DmType>(getSource().getType()).getElementType();
  Type dstElem = llvm::isa<HbmType>(destType) ? cast<HbmType>(destType).getElementType()
                                        : cast<DmType>(destType).getElementType();
  if (srcElem != dstElem)
    return emitOpError("DMA moves bytes unchanged: element types differ (")
           << srcElem << " -> " << dstElem << ")";
  if (llvm::isa<HbmType>(getSource().getType()) &&
      failed(verifyReadsArgument(*this, getSource(), "HBM source")))
    return failure();
  if (getDest() && failed(verifyWritesArgument(*this, getDest(), "HBM destination")))
    return failure();
  auto plan = planDma(*this);
  return plan ? success() : failure();
}

//===----------------------------------------------------------------------===//
// Tensor Unit stream ops
//===----------------------------------------------------------------------===//

LogicalResult FetchOp::verify() {
  const TargetModel &t = getTarget(*this);
  Type from = getSource().getType().getElementType();
  Type to = getResult().getType().getElementType();
  if (from != to && !(from.isBF16() && to.isF32()))
    return emitOpError("fetch cast from ") << from << " to " << to
                                           << " is not supported (only bf16 -> f32)";
  auto source = resolveDm(*this, getSource().getType());
  auto stream = resolveStream(*this, getResult().getType());
  if (!source || !stream)
    return failure();
  if (!sameSpatial(source->spatial, stream->spatial))
    return emitOpError("each slice fetches its own DM: the stream's cluster/slice mappings (\"")
           << stream->spatial.cluster.str() << "\", \"" << stream->spatial.slice.str()
           << "\") must equal the source's (\"" << source->spatial.cluster.str() << "\", \""
           << source->spatial.slice.str() << "\")";
  if (stream->packetBytes() > t.flitBytes)
    return emitOpError("packet size: ")
           << stream->packetBytes() << " bytes per packet exceed one " << t.flitBytes
           << "-byte flit (multi-flit packets are unsupported)";
  if (failed(verifySingleUse(*this, getResult())))
    return failure();
  return success(planFetch(*this).has_value());
}

LogicalResult CollectOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.fetch", "tcp.switch"})))
    return failure();
  return verifySingleUse(*this, getResult());
}


LogicalResult CastOp::verify() {
  if (failed(verifyProducer(*this, getInput(), {"tcp.collect", "tcp.contract", "tcp.vector"})))
    return failure();
  StreamType in = getInput().getType(), out = getResult().getType();
  bool toBf16 = in.getElementType().isF32() && out.getElementType().isBF16();
  bool toI8 = in.getElementType().isSignlessInteger(32) && out.getElementType().isSignlessInteger(8);
  if (!toBf16 && !toI8)
    return emitOpError("the Cast Engine converts f32 -> bf16 or i32 -> i8, got ")
           << in.getElementType() << " -> " << out.getElementType();
  if (in.getCluster() != out.getCluster() || in.getSlice() != out.getSlice() ||
      in.getTime() != out.getTime() || in.getPacket() != out.getPacket())
    return emitOpError("cast changes only the element type; the mappings must be equal");
  if (passContext(*this) != Context::main)
    return emitOpError("context: the Cast Engine is available on the main context only");
  return verifySingleUse(*this, getResult());
}

LogicalResult CommitOp::verify() {
  if (failed(verifyProducer(*this, getInput(),
                            {"tcp.collect", "tcp.contract", "tcp.vector", "tcp.cast",
                             "tcp.transpose"})))
    return failure();
  Type in = getInput().getType().getElementType(), out = getResult().getType().getElementType();
  if (getCast()) {
    if (!in.isF32() || !out.isBF16())
      return emitOpError("the commit adapter casts f32 -> bf16, got ") << in << " -> " << out;
    if (passContext(*this) != Context::main)
      return emitOpError("context: the commit adapter casts on the main context only");
  } else if (in != out) {
    return emitOpError("commit writes the stream's element type (")
           << in << "), but the result holds " << out << " (add {cast} for f32 -> bf16)";
  }
  return success(planCommit(*this).has_value());
}

LogicalResult ViewOp::verify() {
  auto source = resolveHbm(*this, getSource().getType());
  auto result = resolveHbm(*this, getResult().getType());
  if (!source || !result)
    return failure();
  if (getSource().getType().getElementType() != getResult().getType().getElementType())
    return emitOpError("a view keeps the element type");
  int64_t offset = getOffset(), end = offset + result->elem.heldEnd();
  if (offset < 0 || end > source->elem.size())
    return emitOpError("cells [") << offset << ", " << end << ") are outside the source's "
                                  << source->elem.size() << " cells";
  if (!hbmRoot(getResult()))
    return emitOpError("views a kernel argument (or a view of one)");
  return success();
}

LogicalResult ReinterpretOp::verify() {
  auto source = resolveDm(*this, getSource().getType());
  auto result = resolveDm(*this, getResult().getType());
  if (!source || !result)
    return failure();
  if (getSource().getType().getElementType() != getResult().getType().getElementType())
    return emitOpError("a reinterpretation keeps the element type");
  if (!sameSlices(getTarget(*this), source->spatial, result->spatial))
    return emitOpError("a reinterpretation keeps the tensor on the same slices");
  if (source->bytesPerSlice() != result->bytesPerSlice())
    return emitOpError("a reinterpretation keeps the bytes per slice: ")
           << source->bytesPerSlice() << " vs " << result->bytesPerSlice();
  return success();
}

/// A DM or VRF window's rules: the element type and the slices kept (or, shifted by
/// `sliceShift`, a subset of the source's), and its cells from `offset` (up to the last it
/// holds when `held`, else all, padding included) inside the source's.
template <typename Op, typename Resolve>
static LogicalResult verifyWindow(Op op, Resolve resolve, bool held,
                                  std::optional<int64_t> sliceShift = std::nullopt) {
  auto source = resolve(op, op.getSource().getType());
  auto result = resolve(op, op.getResult().getType());
  if (!source || !result)
    return failure();
  if (op.getSource().getType().getElementType() != op.getResult().getType().getElementType())
    return op.emitOpError("a view keeps the element type");
  const TargetModel &t = getTarget(op);
  if (!sliceShift && !sameSlices(t, source->spatial, result->spatial))
    return op.emitOpError("a view keeps the tensor on the same slices");
  if (sliceShift) {
    std::vector<int64_t> held = source->spatial.activeSlices(t);
    for (int64_t s : result->spatial.activeSlices(t)) {
      if (!std::binary_search(held.begin(), held.end(), s + *sliceShift))
        return op.emitOpError("view slice ") << s << " + " << *sliceShift << " = "
                                             << s + *sliceShift
                                             << " is not a slice the source occupies";
      if ((s + *sliceShift) / t.slicesPerCluster != s / t.slicesPerCluster)
        return op.emitOpError("view slice ") << s << " + " << *sliceShift
                                             << " leaves its cluster (" << t.slicesPerCluster
                                             << " slices each)";
    }
  }
  int64_t offset = op.getOffset();
  int64_t end = offset + (held ? result->elem.heldEnd() : result->elem.size());
  if (offset < 0 || end > source->elem.size())
    return op.emitOpError("cells [") << offset << ", " << end << ") are outside the source's "
                                     << source->elem.size() << " cells";
  return success();
}

LogicalResult DmViewOp::verify() {
  auto resolve = [](Operation *op, DmType type) { return resolveDm(op, type); };
  std::optional<int64_t> shift = getSlices();
  if (shift && (*shift < 0 || *shift >= getTarget(*this).totalSlices()))
    return emitOpError("slices ") << *shift << " is outside 0.."
                                  << getTarget(*this).totalSlices() - 1;
  if (failed(verifyWindow(*this, resolve, /*held=*/true, shift)))
    return failure();
  for (Operation *user : getResult().getUsers()) {
    if (!llvm::isa<FetchOp, DmaOp, DmaScatterOp>(user) || user->getOperand(0) != getResult())
      return user->emitOpError("takes a DM view other than as the tensor it reads (a view is "
                               "fetched, copied or scattered, never written)");
    if (shift && llvm::isa<FetchOp>(user))
      return user->emitOpError("fetches a view on other slices than its source's (a pass reads "
                               "the slices it runs on; copy it with tcp.dma)");
  }
  return success();
}

LogicalResult VrfViewOp::verify() {
  auto resolve = [](Operation *op, VrfType type) { return resolveVrf(op, type); };
  return verifyWindow(*this, resolve, /*held=*/false);
}

LogicalResult DmJoinOp::verify() {
  auto result = resolveDm(*this, getResult().getType());
  if (!result)
    return failure();
  int64_t count = static_cast<int64_t>(getParts().size());
  if (count < 2)
    return emitOpError("joins two or more parts, got ") << count;
  Type type = getParts().front().getType();
  for (auto [k, part] : llvm::enumerate(getParts())) {
    if (part.getType() != type)
      return emitOpError("the parts have one type: part ") << k << " is " << part.getType()
                                                            << ", part 0 " << type;
    if (!part.getDefiningOp<CommitOp>() && !part.getDefiningOp<DmaOp>())
      return emitOpError("part ") << k << " is a tcp.commit or tcp.dma result (its place is "
                                     "part of the result's)";
    if (!part.hasOneUse())
      return emitOpError("part ") << k << " is read only as part of the result";
    for (Value other : getParts().take_front(k))
      if (other == part)
        return emitOpError("part ") << k << " is joined twice";
  }
  auto partLayout = resolveDm(*this, cast<DmType>(type));
  if (!partLayout)
    return failure();
  if (cast<DmType>(type).getElementType() != getResult().getType().getElementType())
    return emitOpError("the parts and the result have one element type");
  if (!sameSlices(getTarget(*this), partLayout->spatial, result->spatial))
    return emitOpError("the parts and the result occupy the same slices");
  const auto &factors = result->elem.factors();
  if (factors.empty() || factors.front().cells != count)
    return emitOpError("the result's outermost element factor counts the parts: ")
           << count << " parts, factor `" << (factors.empty() ? "" : factors.front().text)
           << "` of " << (factors.empty() ? 0 : factors.front().cells) << " cells";
  auto rest = mapping::Mapping::fromFactors({factors.begin() + 1, factors.end()});
  if (!sameOrder(rest, partLayout->elem))
    return emitOpError("after its outermost factor the result's elements are a part's: `")
           << rest.str() << "` vs `" << partLayout->elem.str() << "`";
  return success();
}
