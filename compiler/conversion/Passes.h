// Conversion passes: convert-tcp-to-rngd.
#pragma once

#include "dialects/rngd/IR/RngdDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace rngd::conversion {

#define GEN_PASS_DECL
#include "compiler/conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/conversion/Passes.h.inc"

} // namespace rngd::conversion
