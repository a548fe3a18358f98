// Writing a schedule into the IR: each unit's #tcp.schedule and the function's
// #tcp.final_waits, which the lowering, the critical path and the schedule JSON read.
#pragma once

#include "ListScheduler.h"

namespace rngd::tcp::sched {

/// Sets `tcp.schedule` on every unit's op (orders and `after` are issue positions) and
/// `tcp.final_waits` on `func`.
void emitSchedule(mlir::func::FuncOp func, const std::vector<Unit> &units,
                  const ListScheduler &scheduler);

} // namespace rngd::tcp::sched
