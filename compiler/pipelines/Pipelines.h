// The dialects, passes and pipelines that rngd-opt, rngdc and tests share.
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace rngd {

void registerDialects(mlir::DialectRegistry &registry);
void registerPasses();

/// tcp-allocate-memory, tcp-schedule: a verified kernel becomes a scheduled one.
void buildSchedulePipeline(mlir::OpPassManager &pm);
/// convert-tcp-to-rngd.
void buildLoweringPipeline(mlir::OpPassManager &pm);

/// Puts the target on the module (`tcp.target`): `requested`'s (e.g. rngdc --target), else the
/// one the module names, else the default. An unknown `requested` target, or a module that names
/// another target than `requested`, is an error at the module. Run before verifying, so the
/// checks follow the target.
mlir::LogicalResult setModuleTarget(mlir::ModuleOp module, llvm::StringRef requested);

} // namespace rngd
