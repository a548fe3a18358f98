// The dependence graph of a kernel's units: which earlier units each must wait for, which DMAs
// are result stores, and each unit's longest path of dependent cycles to the kernel's end.
#pragma once

#include "Units.h"

namespace rngd::tcp::sched {

/// Whether unit `later` must not overlap the earlier unit `earlier`: their footprints conflict
/// (RAW, WAR or WAW on overlapping HBM, DM, TRF or VRF bytes), both are passes using the Vector
/// Engine from different contexts, or one is a DMA and the other a pass that could break the
/// same-bank rule (Unit::holdsDma).
bool conflicts(const Unit &earlier, const Unit &later);

/// Sets each unit's predecessors (the earlier units it conflicts with) and which units are
/// result stores (DMAs writing HBM that no later unit waits for).
void linkUnits(std::vector<Unit> &units);

/// A unit's own cycles: a pass with all its configuration loads, a DMA's longest part.
int64_t ownCycles(const TargetModel &t, const Unit &unit);

/// The queue cycles of a pass's configuration loads if every word loaded (an upper bound: at
/// issue only the words that change load).
int64_t wholeLoadCycles(const TargetModel &t, const Unit &unit);

/// Each unit's own cycles plus the longest chain of dependent units after it (units linked).
std::vector<int64_t> pathsToEnd(const TargetModel &t, const std::vector<Unit> &units);

} // namespace rngd::tcp::sched
