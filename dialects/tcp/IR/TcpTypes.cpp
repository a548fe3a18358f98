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
/// Parses `key = "mapping"` and checks the mapping's syntax (sizes need the module's axes,
/// which op verifiers check).
ParseResult parseMappingField(AsmParser &parser, StringRef key, std::string &out) {
  if (parser.parseKeyword(key) || parser.parseEqual())
    return failure();
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&out))
    return failure();
  rngd::mapping::Error err;
  if (!rngd::mapping::Mapping::checkSyntax(out, err))
    return parser.emitError(loc, "invalid ") << key << " mapping \"" << out << "\": " << err.str();
  return success();
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
                          SmallVectorImpl<std::string> &values) {
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
  std::string elem;
  if (parser.parseLess() || parseElementType(parser, elementType) || parser.parseComma())
    return {};
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&elem))
    return {};
  rngd::mapping::Error err;
  if (!rngd::mapping::Mapping::checkSyntax(elem, err)) {
    parser.emitError(loc, "invalid HBM element mapping \"") << elem << "\": " << err.str();
    return {};
  }
  if (parser.parseGreater())
    return {};
  return HbmType::get(parser.getContext(), elementType,
                      MappingAttr::get(parser.getContext(), elem));
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
  SmallVector<std::string> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "elem"}, v))
    return {};
  auto m = [&](int i) { return MappingAttr::get(parser.getContext(), v[i]); };
  return DmType::get(parser.getContext(), elementType, m(0), m(1), m(2));
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
  SmallVector<std::string> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "time", "packet"}, v))
    return {};
  auto m = [&](int i) { return MappingAttr::get(parser.getContext(), v[i]); };
  return StreamType::get(parser.getContext(), elementType, m(0), m(1), m(2), m(3));
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
  SmallVector<std::string> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "lane", "elem"}, v))
    return {};
  auto m = [&](int i) { return MappingAttr::get(parser.getContext(), v[i]); };
  return TrfType::get(parser.getContext(), elementType, m(0), m(1), m(2), m(3));
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
  SmallVector<std::string> v;
  if (parseTypeBody(parser, elementType, {"cluster", "slice", "elem"}, v))
    return {};
  auto m = [&](int i) { return MappingAttr::get(parser.getContext(), v[i]); };
  return VrfType::get(parser.getContext(), elementType, m(0), m(1), m(2));
}

void VrfType::print(AsmPrinter &p) const {
  printTypeBody(p, getElementType(),
                {{"cluster", getCluster()}, {"slice", getSlice()}, {"elem", getElem()}});
}

LogicalResult VrfType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                              MappingAttr, MappingAttr, MappingAttr) {
  return checkElementType(emitError, elementType);
}
