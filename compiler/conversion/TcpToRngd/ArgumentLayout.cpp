#include "compiler/conversion/TcpToRngd/ArgumentLayout.h"

#include "dialects/tcp/IR/TcpLayout.h"
#include "dialects/tcp/IR/TcpDialect.h"

using namespace mlir;

namespace rngd::conversion {

std::optional<ArgumentLayout> layoutArguments(func::FuncOp func) {
  const TargetModel &t = tcp::getTarget(func);
  ArgumentLayout layout;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<tcp::HbmType>(func.getArgument(i).getType());
    auto kind = func.getArgAttrOfType<StringAttr>(i, "tcp.arg");
    auto name = func.getArgAttrOfType<StringAttr>(i, "tcp.name");
    if (!type || !kind || !name) {
      func.emitOpError("argument #") << i << " needs an HBM tensor type with tcp.arg and "
                                     << "tcp.name attributes";
      return std::nullopt;
    }
    auto hbm = tcp::resolveHbm(func, type);
    if (!hbm)
      return std::nullopt;
    ArgumentSlot slot;
    slot.name = name.str();
    slot.kind = kind.str();
    slot.mapping = mapping::Mapping::spelling(type.getElem().getText().str());
    for (const auto &f : hbm->elem.factors()) // the row-major dims of the buffer
      slot.shape.push_back(f.cells);
    slot.offset = (layout.totalBytes + t.hbmArgumentAlignment - 1) / t.hbmArgumentAlignment *
                  t.hbmArgumentAlignment;
    slot.bytes = hbm->bytes();
    layout.totalBytes = slot.offset + slot.bytes;
    layout.slots.push_back(slot);
  }
  layout.totalBytes = (layout.totalBytes + t.hbmArgumentAlignment - 1) /
                      t.hbmArgumentAlignment * t.hbmArgumentAlignment;
  return layout;
}

} // namespace rngd::conversion
