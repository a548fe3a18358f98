// The dialects, passes and pipelines that rngd-opt, rngdc and tests share.
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

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

/// MLIR's parser recurses once per level of brackets, so text nested thousands deep overflows
/// the stack. The deepest a kernel or an rngd text may nest ((), [], {}, and <> after a name);
/// real kernels nest under 10.
constexpr unsigned kMaxNesting = 256;
/// Refuses the main buffer of `sources` when it nests deeper than kMaxNesting, with an error
/// at the bracket that goes past (comments and strings are skipped). Run before parsing.
mlir::LogicalResult checkNesting(const llvm::SourceMgr &sources, mlir::MLIRContext *context);

} // namespace rngd
