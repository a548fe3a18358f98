// tcp passes: tcp-allocate-memory, tcp-schedule.
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace rngd::tcp {

/// A tcp-schedule choice tried both ways (`best`: the shorter schedule) or forced.
enum class ScheduleChoice { best, always, never };

#define GEN_PASS_DECL
#include "dialects/tcp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/tcp/Transforms/Passes.h.inc"

} // namespace rngd::tcp
