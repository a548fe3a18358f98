#include "compiler/pipelines/ParseKernel.h"

#include "compiler/pipelines/SourceChecks.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace rngd {

KernelParser::KernelParser(const llvm::SourceMgr &sources, mlir::MLIRContext *context)
    : sources_(sources), context_(context) {
  // Runs before the printing handler (handlers run newest first) and lets it print.
  handler_ = context->getDiagEngine().registerHandler([this](mlir::Diagnostic &diag) {
    llvm::SmallPtrSet<mlir::Type::ImplType *, 4> noted;
    for (const mlir::DiagnosticArgument &argument : diag.getArguments()) {
      if (argument.getKind() != mlir::DiagnosticArgument::DiagnosticArgumentKind::Type)
        continue;
      mlir::Type type = argument.getAsType();
      for (const auto &alias : state_.getTypeAliasDefs()) {
        if (alias.value != type || !noted.insert(type.getImpl()).second)
          continue;
        auto [line, column] = sources_.getLineAndColumn(alias.definition.loc.Start);
        llvm::StringRef file =
            sources_.getMemoryBuffer(sources_.getMainFileID())->getBufferIdentifier();
        diag.attachNote(mlir::FileLineColLoc::get(context_, file, line, column))
            << "the type !" << alias.name << " is defined here";
      }
    }
    return mlir::failure();
  });
}

KernelParser::~KernelParser() {
  if (handler_)
    context_->getDiagEngine().eraseHandler(*handler_);
}

mlir::OwningOpRef<mlir::ModuleOp> KernelParser::parse() {
  if (mlir::failed(checkSource(sources_, context_)))
    return nullptr;
  mlir::ParserConfig config(context_, /*verifyAfterParse=*/false);
  mlir::Block block;
  const llvm::MemoryBuffer *buffer = sources_.getMemoryBuffer(sources_.getMainFileID());
  auto fileLoc = mlir::FileLineColLoc::get(context_, buffer->getBufferIdentifier(), 0, 0);
  if (mlir::failed(mlir::parseAsmSourceFile(sources_, &block, config, &state_)))
    return nullptr;
  return mlir::detail::constructContainerOpForParserIfNecessary<mlir::ModuleOp>(
      &block, context_, fileLoc);
}

} // namespace rngd
