#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/IR/TcpLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace rngd::tcp;

#define GET_TYPEDEF_CLASSES
#include "dialects/tcp/IR/TcpTypes.cpp.inc"

void TcpDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/tcp/IR/TcpTypes.cpp.inc"
      >();
}

namespace {
/// Parses `key = "mapping"`, the text parsed once into its attribute (sizes need the
/// module's axes, which op verifiers check).
ParseResult parseMappingField(AsmParser &parser, StringRef key, MappingAttr &out) {
  if (parser.parseKeyword(key) || parser.parseEqual())
    return failure();
  out = parseMappingText(parser, (key + " ").str());
  return success(static_cast<bool>(out));
}

ParseResult parseElementType(AsmParser &parser, Type &type) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (elementBytes(type) == 0)
    return parser.emitError(loc, "element type must be bf16, f32, i32 or i8, got ") << type;
  return success();
}

/// `<elementType, key = "mapping", ...>` with the keys in order.
ParseResult parseTypeBody(AsmParser &parser, Type &elementType, ArrayRef<StringRef> keys,
                          SmallVectorImpl<MappingAttr> &values) {
  values.resize(keys.size());
  if (parser.parseLess() || parseElementType(parser, elementType))
    return failure();
  for (auto [key, value] : llvm::zip(keys, values))
    if (parser.parseComma() || parseMappingField(parser, key, value))
      return failure();
  return parser.parseGreater();
}

void printTypeBody(AsmPrinter &p, Type elementType,
                   ArrayRef<std::pair<StringRef, MappingAttr>> fields) {
  p << "<" << elementType;
  for (auto [key, value] : fields)
    p << ", " << key << " = \"" << value.getText() << "\"";
  p << ">";
}

LogicalResult checkElementType(function_ref<InFlightDiagnostic()> emitError, Type type) {
  if (elementBytes(type) == 0)
    return emitError() << "element type must be bf16, f32, i32 or i8, got " << type;
  return success();
}
} // namespace

// !tcp.hbm<bf16, "[T, N, D]">
Type HbmType::parse(AsmParser &parser) {
  Type elementType;
  if (parser.parseLess() || parseElementType(parser, elementType) || parser.parseComma())
    return {};
  MappingAttr elem = parseMappingText(parser, "HBM element ");
  if (!elem || parser.parseGreater())
    return {};
  return HbmType::get(parser.getContext(), elementType, elem);
}

void HbmType::print(AsmPrinter &p) const {
  p << "<" << getElementType() << ", \"" << getElem().getText() << "\">";
}

LogicalResult HbmType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                              MappingAttr) {
  return checkElementType(emitError, elementType);
}

// !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4 # 256", elem = "H % 4">
Type DmType::parse(AsmParser &parser) {
  Type elementType;
  SmallVector<MappingAttr> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "elem"}, v))
    return {};
  return DmType::get(parser.getContext(), elementType, v[0], v[1], v[2]);
}

void DmType::print(AsmPrinter &p) const {
  printTypeBody(p, getElementType(),
                {{"cluster", getCluster()}, {"slice", getSlice()}, {"elem", getElem()}});
}

LogicalResult DmType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                             MappingAttr, MappingAttr, MappingAttr) {
  return checkElementType(emitError, elementType);
}

// !tcp.stream<f32, cluster = "...", slice = "...", time = "...", packet = "...">
Type StreamType::parse(AsmParser &parser) {
  Type elementType;
  SmallVector<MappingAttr> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "time", "packet"}, v))
    return {};
  return StreamType::get(parser.getContext(), elementType, v[0], v[1], v[2], v[3]);
}

void StreamType::print(AsmPrinter &p) const {
  printTypeBody(p, getElementType(),
                {{"cluster", getCluster()}, {"slice", getSlice()}, {"time", getTime()},
                 {"packet", getPacket()}});
}

LogicalResult StreamType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                                 MappingAttr, MappingAttr, MappingAttr, MappingAttr) {
  return checkElementType(emitError, elementType);
}

// !tcp.trf<bf16, cluster = "...", slice = "...", lane = "...", elem = "...">
Type TrfType::parse(AsmParser &parser) {
  Type elementType;
  SmallVector<MappingAttr> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "lane", "elem"}, v))
    return {};
  return TrfType::get(parser.getContext(), elementType, v[0], v[1], v[2], v[3]);
}

void TrfType::print(AsmPrinter &p) const {
  printTypeBody(p, getElementType(),
                {{"cluster", getCluster()}, {"slice", getSlice()}, {"lane", getLane()},
                 {"elem", getElem()}});
}

LogicalResult TrfType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                              MappingAttr, MappingAttr, MappingAttr, MappingAttr) {
  return checkElementType(emitError, elementType);
}

// !tcp.vrf<f32, cluster = "...", slice = "...", elem = "...">
Type VrfType::parse(AsmParser &parser) {
  Type elementType;
  SmallVector<MappingAttr> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "elem"}, v))
    return {};
  return VrfType::get(parser.getContext(), elementType, v[0], v[1], v[2]);
}

void VrfType::print(AsmPrinter &p) const {
  printTypeBody(p, getElementType(),
                {{"cluster", getCluster()}, {"slice", getSlice()}, {"elem", getElem()}});
}

LogicalResult VrfType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                              MappingAttr, MappingAttr, MappingAttr) {
  return checkElementType(emitError, elementType);
}
