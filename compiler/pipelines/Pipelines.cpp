#include "compiler/pipelines/Pipelines.h"

#include "compiler/conversion/Passes.h"
#include "dialects/rngd/IR/RngdDialect.h"
#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/Transforms/Passes.h"

#include "rngd/machine/TargetModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
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

mlir::LogicalResult setModuleTarget(mlir::ModuleOp module, llvm::StringRef requested) {
  mlir::Attribute attr = module->getAttr(tcp::kTargetAttrName);
  auto named = llvm::dyn_cast_or_null<mlir::StringAttr>(attr);
  if (attr && !named)
    return mlir::success(); // not a name: the verifier reports it
  if (!requested.empty() && !findTarget(requested.str()))
    return module.emitError("--target ")
           << requested << " is not a target rngdc knows (" << targetNames() << ")";
  if (named && !requested.empty() && named.getValue() != requested)
    return module.emitError("the module is for target ")
           << named.getValue() << " but --target says " << requested;
  if (!named)
    module->setAttr(tcp::kTargetAttrName,
                    mlir::StringAttr::get(module.getContext(), requested.empty()
                                                                   ? defaultTarget().name
                                                                   : requested.str()));
  return mlir::success();
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
