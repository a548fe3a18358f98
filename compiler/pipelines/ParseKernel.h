// Parsing a kernel's text for the tools: the checks MLIR's parser needs first (SourceChecks.h),
// then the parse, keeping where each type alias is defined, so that an error about a type
// that the text spells with an alias also points at the alias's own line.
#pragma once

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>

namespace rngd {

class KernelParser {
public:
  /// Diagnostics of `context` gain the alias notes while this lives; register the handler
  /// that prints them before constructing it.
  KernelParser(const llvm::SourceMgr &sources, mlir::MLIRContext *context);
  ~KernelParser();

  /// The main buffer as a module, unverified; null (after an error) when it does not parse or
  /// fails a source check.
  mlir::OwningOpRef<mlir::ModuleOp> parse();

private:
  const llvm::SourceMgr &sources_;
  mlir::MLIRContext *context_;
  mlir::AsmParserState state_;
  std::optional<mlir::DiagnosticEngine::HandlerID> handler_;
};

} // namespace rngd
