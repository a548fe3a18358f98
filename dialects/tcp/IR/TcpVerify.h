// Checks shared by the tcp op verifiers.
#pragma once

#include "mlir/IR/Operation.h"

#include <initializer_list>
#include <optional>

namespace rngd::tcp {

/// A stream value flows into exactly one engine.
mlir::LogicalResult verifySingleUse(mlir::Operation *op, mlir::Value stream);

/// Pipeline order: `input` comes from one of the named stream ops.
mlir::LogicalResult verifyProducer(mlir::Operation *op, mlir::Value input,
                                   std::initializer_list<llvm::StringRef> producers);

/// The kernel argument an HBM value is (or is a view of), and the view's byte offset in it.
struct HbmRoot {
  mlir::BlockArgument arg;
  int64_t byteOffset = 0;
};
std::optional<HbmRoot> hbmRoot(mlir::Value v);

/// The `tcp.arg` kind of an entry argument ("in", "out", "inout"), or "" if `v` is not one.
llvm::StringRef argumentKind(mlir::Value v);

/// `v` is a kernel argument the op may read (not "out") / write (not "in").
mlir::LogicalResult verifyReadsArgument(mlir::Operation *op, mlir::Value v, llvm::StringRef what);
mlir::LogicalResult verifyWritesArgument(mlir::Operation *op, mlir::Value v,
                                         llvm::StringRef what);

} // namespace rngd::tcp
