#include "compiler/pipelines/Pipelines.h"

#include "compiler/conversion/Passes.h"
#include "dialects/rngd/IR/RngdDialect.h"
#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"

namespace rngd {

void registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<tcp::TcpDialect, rngd::RngdDialect, mlir::func::FuncDialect>();
}

void buildSchedulePipeline(mlir::OpPassManager &pm) {
  pm.addPass(tcp::createTcpAllocateMemory());
  pm.addPass(tcp::createTcpSchedule());
}

void buildLoweringPipeline(mlir::OpPassManager &pm) {
  pm.addPass(conversion::createConvertTcpToRngd());
}

void registerPasses() {
  tcp::registerTcpPasses();
  conversion::registerConversionPasses();
  mlir::PassPipelineRegistration<>(
      "rngd-compile", "allocate, schedule and lower a tcp kernel to rngd",
      [](mlir::OpPassManager &pm) {
        buildSchedulePipeline(pm);
        buildLoweringPipeline(pm);
      });
}

} // namespace rngd
