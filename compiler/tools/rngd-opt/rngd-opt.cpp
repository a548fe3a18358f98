// rngd-opt: run any rngdc pass or pipeline alone (MlirOptMain, so every --mlir-* flag works).
#include "compiler/pipelines/Pipelines.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  rngd::registerDialects(registry);
  rngd::registerPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "rngd-opt: rngdc passes and dialects\n", registry));
}
