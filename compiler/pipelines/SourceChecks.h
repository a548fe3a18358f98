// Checks on a kernel's text that run before MLIR parses it, for inputs that MLIR 19's parser
// cannot refuse safely: text nested deep enough to overflow its recursion, and SSA names that
// it would bind across regions before failing (docs/reliability.md, "Bad-input classes").
#pragma once

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

namespace rngd {

/// MLIR's parser recurses once per level of brackets, so text nested thousands deep overflows
/// the stack. The deepest a kernel or an rngd text may nest ((), [], {}, and <> after a name);
/// real kernels nest under 10.
constexpr unsigned kMaxNesting = 256;
/// Refuses the main buffer of `sources` when it nests deeper than kMaxNesting, with an error
/// at the bracket that goes past (comments and strings are skipped).
mlir::LogicalResult checkNesting(const llvm::SourceMgr &sources, mlir::MLIRContext *context);

/// MLIR 19 parses the region of a func.func (or builtin.module) in its parent's name scope, so
/// a use of %v before any definition (a forward reference) is bound to a %v defined later
/// inside a region that does not enclose the use. If the op owning that region then fails to
/// parse, the region is freed while the outer use still points into it, and the parser's own
/// clean-up writes to freed memory (heap corruption, an abort). Such a binding is never valid
/// IR (a value defined in a region is visible only inside it), so it is refused here, with an
/// error at the use and a note at the definition. Values are followed by a scan of the text:
/// results (`%a, %b:2 =`), block arguments (`^bb(%a: t):`) and region arguments of a symbol's
/// signature (`@f(%a: t) ... {`). `splitMarker`, when not empty, is the line prefix that
/// starts a new, independent input (rngd-opt's --split-input-file).
mlir::LogicalResult checkValueScopes(const llvm::SourceMgr &sources, mlir::MLIRContext *context,
                                     llvm::StringRef splitMarker = {});

/// Both checks, nesting first (the scope scan assumes bounded nesting). Run before parsing.
mlir::LogicalResult checkSource(const llvm::SourceMgr &sources, mlir::MLIRContext *context,
                                llvm::StringRef splitMarker = {});

} // namespace rngd
