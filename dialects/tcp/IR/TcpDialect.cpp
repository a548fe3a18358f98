#include "dialects/tcp/IR/TcpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace rngd::tcp;

#include "dialects/tcp/IR/TcpDialect.cpp.inc"
#include "dialects/tcp/IR/TcpEnums.cpp.inc"

namespace {
/// Type aliases come from the dialect's table (setTypeAlias); nothing else is aliased.
struct TcpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Type type, raw_ostream &os) const override {
    StringRef name = static_cast<const TcpDialect *>(getDialect())->getTypeAlias(type);
    if (name.empty())
      return AliasResult::NoAlias;
    os << name;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TcpDialect::setTypeAlias(Type type, StringRef name) { typeAliases[type] = name.str(); }

StringRef TcpDialect::getTypeAlias(Type type) const {
  auto it = typeAliases.find(type);
  return it == typeAliases.end() ? StringRef() : StringRef(it->second);
}

void rngd::tcp::nameResultsFromLocation(Operation *op, OpAsmSetValueNameFn setNameFn) {
  auto name = llvm::dyn_cast<NameLoc>(op->getLoc());
  if (name && op->getNumResults() > 0)
    setNameFn(op->getResult(0), name.getName().getValue());
}

void TcpDialect::initialize() {
  addInterfaces<TcpAsmInterface>();
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/tcp/IR/TcpOps.cpp.inc"
      >();
}

/// `tcp.arg = "in" | "out" | "inout"` on entry arguments, which must be HBM tensors.
LogicalResult TcpDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                                   unsigned argIndex, NamedAttribute attr) {
  if (attr.getName() == "tcp.name") {
    // An identifier, as the executable's argument table requires: a letter or `_`, then
    // letters, digits or `_`.
    auto name = dyn_cast<StringAttr>(attr.getValue());
    auto word = [](char c) { return llvm::isAlnum(c) || c == '_'; };
    if (!name || name.getValue().empty() || llvm::isDigit(name.getValue().front()) ||
        !llvm::all_of(name.getValue(), word))
      return op->emitError("argument #") << argIndex << ": tcp.name must be an identifier "
                                         << "(a letter or _, then letters, digits or _), got "
                                         << attr.getValue();
    return success();
  }
  if (attr.getName() != "tcp.arg")
    return op->emitError("unknown tcp argument attribute `") << attr.getName()
                                                              << "` (expected tcp.arg, tcp.name)";
  auto kind = dyn_cast<StringAttr>(attr.getValue());
  if (!kind || (kind.getValue() != "in" && kind.getValue() != "out" &&
                kind.getValue() != "inout"))
    return op->emitError("argument #") << argIndex << ": tcp.arg must be \"in\", \"out\" or "
                                       << "\"inout\", got " << attr.getValue();
  Region &region = op->getRegion(regionIndex);
  if (region.empty() || region.front().getNumArguments() <= argIndex)
    return success();
  Type type = region.front().getArgument(argIndex).getType();
  if (!llvm::isa<HbmType>(type))
    return op->emitError("argument #") << argIndex << ": kernel arguments are HBM tensors, got "
                                       << type;
  return success();
}
