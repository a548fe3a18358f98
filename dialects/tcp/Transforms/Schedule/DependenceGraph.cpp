#include "DependenceGraph.h"
#include "dialects/tcp/Analysis/DmaParts.h"

namespace rngd::tcp::sched {

bool conflicts(const Unit &i, const Unit &j) {
  if (overlaps(j.reads, i.writes) || overlaps(j.writes, i.reads) || overlaps(j.writes, i.writes))
    return true;
  if (!i.isDma && !j.isDma && i.usesVector && j.usesVector && i.context != j.context)
    return true;
  if (i.isDma != j.isDma && ((!i.isDma && i.holdsDma) || (!j.isDma && j.holdsDma)))
    return true;
  return false;
}

void linkUnits(std::vector<Unit> &units) {
  for (size_t j = 0; j < units.size(); ++j)
    for (size_t i = 0; i < j; ++i)
      if (conflicts(units[i], units[j]))
        units[j].preds.push_back(i);
  for (Unit &unit : units)
    unit.resultStore = unit.isDma && llvm::any_of(unit.writes, [](const Region &r) {
                         return r.space == Region::Hbm;
                       });
  for (Unit &unit : units)
    for (size_t p : unit.preds)
      units[p].resultStore = false;
}

int64_t wholeLoadCycles(const TargetModel &t, const Unit &unit) {
  int64_t cycles = 0;
  for (const Unit::Block &b : unit.blocks)
    cycles += configLoadCycles(t, isa::wholeBlockMask(*isa::findUnit(b.unit)));
  return cycles;
}

int64_t ownCycles(const TargetModel &t, const Unit &unit) {
  int64_t own = unit.cycles + wholeLoadCycles(t, unit);
  for (const DmaPart &part : unit.parts)
    own = std::max(own, part.cycles);
  return own;
}

std::vector<int64_t> pathsToEnd(const TargetModel &t, const std::vector<Unit> &units) {
  std::vector<int64_t> path(units.size(), 0);
  for (size_t u = units.size(); u-- > 0;) {
    const Unit &unit = units[u];
    path[u] += ownCycles(t, unit);
    for (size_t p : unit.preds)
      path[p] = std::max(path[p], path[u]);
  }
  return path;
}

} // namespace rngd::tcp::sched
