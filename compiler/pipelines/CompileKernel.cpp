#include "compiler/pipelines/CompileKernel.h"

#include "compiler/emit/EmitExecutable.h"
#include "compiler/emit/ScheduleJson.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

namespace rngd {

mlir::LogicalResult compileKernel(mlir::ModuleOp module, llvm::StringRef target,
                                  CompiledKernel &out) {
  if (mlir::failed(setModuleTarget(module, target)) || mlir::failed(mlir::verify(module)))
    return mlir::failure();
  mlir::PassManager schedule(module.getContext());
  buildSchedulePipeline(schedule);
  if (mlir::failed(schedule.run(module)))
    return mlir::failure();
  out.scheduleJson = emit::scheduleJson(module);
  mlir::PassManager lower(module.getContext());
  buildLoweringPipeline(lower);
  if (mlir::failed(lower.run(module)))
    return mlir::failure();
  auto executables = llvm::to_vector(module.getOps<ExecutableOp>());
  if (executables.size() != 1)
    return module.emitError("lowering made ") << executables.size()
                                              << " rngd.executable ops, expected one";
  std::optional<Executable> exe = emit::toExecutable(executables[0]);
  if (!exe)
    return mlir::failure();
  std::string why;
  if (!writeExecutable(*exe, out.executable, why))
    return module.emitError(why);
  return mlir::success();
}

} // namespace rngd
