// rngd-opt: run any rngdc pass or pipeline alone (MlirOptMain, so every --mlir-* flag works).
// The input's text is checked first, as rngdc checks it, for what MLIR's parser cannot refuse
// safely (compiler/pipelines/SourceChecks.h).
#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/SourceChecks.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace {

/// checkSource on the input's text, each --split-input-file part by itself.
bool sourceIsSafe(const llvm::MemoryBuffer &input, llvm::StringRef splitMarker) {
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef()),
                             llvm::SMLoc());
  mlir::MLIRContext context;
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &context);
  return mlir::succeeded(rngd::checkSource(sources, &context, splitMarker));
}

} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  rngd::registerDialects(registry);
  rngd::registerPasses();
  auto [inputFile, outputFile] =
      mlir::registerAndParseCLIOptions(argc, argv, "rngd-opt: rngdc passes and dialects\n",
                                       registry);
  auto config = mlir::MlirOptMainConfig::createFromCLOptions();
  std::string error;
  auto input = mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "rngd-opt: " << error << "\n";
    return 1;
  }
  if (!sourceIsSafe(*input, config.inputSplitMarker()))
    return 1;
  auto output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "rngd-opt: " << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
