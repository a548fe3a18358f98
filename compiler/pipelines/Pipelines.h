// The dialects, passes and pipelines that rngd-opt, rngdc and tests share.
#pragma once

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace rngd {

void registerDialects(mlir::DialectRegistry &registry);
void registerPasses();

/// tcp-allocate-memory, tcp-schedule: a verified kernel becomes a scheduled one.
void buildSchedulePipeline(mlir::OpPassManager &pm);
/// convert-tcp-to-rngd.
void buildLoweringPipeline(mlir::OpPassManager &pm);

} // namespace rngd
