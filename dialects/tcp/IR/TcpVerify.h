// Checks shared by the tcp op verifiers.
#pragma once

#include "mlir/IR/Operation.h"

#include <initializer_list>

namespace rngd::tcp {

/// A stream value flows into exactly one engine.
mlir::LogicalResult verifySingleUse(mlir::Operation *op, mlir::Value stream);

/// Pipeline order: `input` comes from one of the named stream ops.
mlir::LogicalResult verifyProducer(mlir::Operation *op, mlir::Value input,
                                   std::initializer_list<llvm::StringRef> producers);

} // namespace rngd::tcp
