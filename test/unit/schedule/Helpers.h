// Small synthetic units for the scheduler's tests: DMAs and passes built by hand, with the
// footprints, parts and blocks the scheduler reads (no tcp ops).
#pragma once

#include "dialects/tcp/Transforms/Schedule/DependenceGraph.h"
#include "dialects/tcp/Analysis/DmaParts.h"
#include "dialects/tcp/Transforms/Schedule/ListScheduler.h"

namespace rngd::tcp::sched::test {

constexpr int64_t kAllSlices = 511;

/// A DM range on every slice.
inline Region dm(int64_t lo, int64_t hi) {
  return Region::onSlices(Region::Dm, 0, kAllSlices, lo, hi);
}

/// A DMA of one part on `engine` taking `cycles`.
inline Unit dma(Footprint reads, Footprint writes, int64_t engine, int64_t cycles) {
  Unit u;
  u.isDma = true;
  DmaPart part;
  part.engine = engine;
  part.cycles = cycles;
  part.packets = 1;
  u.parts.push_back(part);
  u.reads = std::move(reads);
  u.writes = std::move(writes);
  return u;
}

/// A pass on `context` (0 main, 1 sub) taking `cycles`, loading a fetch block whose first
/// word is `fetchBase` (the other words zero).
inline Unit pass(Footprint reads, Footprint writes, int64_t context, int64_t cycles,
                 uint64_t fetchBase = 0) {
  Unit u;
  u.context = context;
  u.cycles = cycles;
  const isa::UnitSpec &spec = *isa::findUnit(isa::Unit::Fetch);
  std::vector<uint64_t> words(isa::wordCount(spec), 0);
  words[0] = fetchBase;
  u.blocks.push_back({isa::Unit::Fetch, words});
  u.execUnits = isa::execBit(isa::Unit::Fetch);
  u.reads = std::move(reads);
  u.writes = std::move(writes);
  return u;
}

/// Links the units and schedules them (default: the plain run, no stagger, no leaving).
inline int64_t schedule(std::vector<Unit> &units, const TargetModel &t = defaultTarget(),
                        SchedulerOptions options = {}) {
  linkUnits(units);
  ListScheduler scheduler(t, units, options);
  scheduler.run();
  return scheduler.makespan();
}

/// Issue positions of the units (program index -> position).
inline std::vector<size_t> positions(const std::vector<Unit> &units,
                                     const std::vector<size_t> &order) {
  std::vector<size_t> pos(units.size());
  for (size_t i = 0; i < order.size(); ++i)
    pos[order[i]] = i;
  return pos;
}

} // namespace rngd::tcp::sched::test
