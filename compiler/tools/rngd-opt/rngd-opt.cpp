// rngd-opt: run any rngdc pass or pipeline alone (MlirOptMain, so every --mlir-* flag works).
// The input's text is checked first, as rngdc checks it, for what MLIR's parser cannot refuse
// safely (compiler/pipelines/SourceChecks.h).
#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/SourceChecks.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace {

/// checkSource on the input file, each --split-input-file part by itself.
bool sourceIsSafe(const std::string &inputFile, llvm::StringRef splitMarker) {
  std::string error;
  auto input = mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "rngd-opt: " << error << "\n";
    return false;
  }
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
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
  if (!sourceIsSafe(inputFile, config.inputSplitMarker()))
    return 1;
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
}
