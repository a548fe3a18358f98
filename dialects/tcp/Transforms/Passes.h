// tcp passes: tcp-allocate-memory, tcp-schedule.
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace rngd::tcp {

#define GEN_PASS_DECL
#include "dialects/tcp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/tcp/Transforms/Passes.h.inc"

} // namespace rngd::tcp
