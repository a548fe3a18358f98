// The C++ side of the tcp attributes' parameters (TcpAttrs.td): a wait command, and the
// bracketed lists the schedule's fields are written as. TcpDialect.h includes it after the
// generated enums, before the generated attribute classes.
#pragma once

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/Hashing.h"

namespace rngd::tcp {

/// One wait command of a schedule: for a DMA tag (`tag N`) or for the pass running on a
/// context (`main`, `sub`).
struct Wait {
  Queue on = Queue::tdma;
  int64_t tag = 0; // tdma only

  static Wait forTag(int64_t tag) { return {Queue::tdma, tag}; }
  static Wait forContext(Queue context) { return {context, 0}; }
  bool operator==(const Wait &o) const { return on == o.on && tag == o.tag; }
};
inline llvm::hash_code hash_value(const Wait &w) { return llvm::hash_combine(w.on, w.tag); }

/// A configuration unit of the ISA (the value of an `isa::Unit`), written by its ISA name.
/// Kept apart from rngd/Isa.h so that the dialect's users do not see a namespace `isa`
/// beside llvm::isa.
struct ConfigUnit {
  uint32_t id = 0;
  bool operator==(const ConfigUnit &o) const { return id == o.id; }
};
inline llvm::hash_code hash_value(const ConfigUnit &u) { return llvm::hash_value(u.id); }

// One element of a bracketed list: an integer, a wait, or a configuration unit's ISA name.
mlir::ParseResult parseListElement(mlir::AsmParser &parser, int64_t &value);
mlir::ParseResult parseListElement(mlir::AsmParser &parser, Wait &value);
mlir::ParseResult parseListElement(mlir::AsmParser &parser, ConfigUnit &value);
void printListElement(mlir::AsmPrinter &printer, int64_t value);
void printListElement(mlir::AsmPrinter &printer, const Wait &value);
void printListElement(mlir::AsmPrinter &printer, ConfigUnit value);

/// `[a, b, ...]`, possibly empty.
template <typename T>
mlir::FailureOr<llvm::SmallVector<T>> parseBracketList(mlir::AsmParser &parser) {
  llvm::SmallVector<T> items;
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, [&] {
        return parseListElement(parser, items.emplace_back());
      }))
    return mlir::failure();
  return items;
}

template <typename T>
void printBracketList(mlir::AsmPrinter &printer, llvm::ArrayRef<T> items) {
  printer << '[';
  llvm::interleave(items, printer, [&](const T &item) { printListElement(printer, item); }, ", ");
  printer << ']';
}

/// `true` or `false`.
mlir::FailureOr<bool> parseFlag(mlir::AsmParser &parser);

} // namespace rngd::tcp
