// The list scheduler's issue loop. Repeatedly issues, among the units whose predecessors are
// issued, the one chooseNext picks, after waits for each predecessor not yet waited for, for
// the previous pass of its context and, when too few tags are free for a DMA's parts (as it is
// finally cut, cutParts), for the oldest DMAs.
#include "ListScheduler.h"
#include "dialects/tcp/Analysis/DmaParts.h"

#include "Choice.h"
#include "DependenceGraph.h"
#include "Engines.h"

#include <limits>

namespace rngd::tcp::sched {

ListScheduler::ListScheduler(const TargetModel &t, std::vector<Unit> &units,
                             SchedulerOptions options)
    : t_(t), units_(units), options_(options), clock_(t),
      lastOnEngine_(static_cast<size_t>(t.dmaEngines), -1) {
  if (options.leaveEngine)
    for (size_t u = 0; u < units_.size() && leftBy_ < 0; ++u)
      if (units_[u].isStream())
        leftBy_ = static_cast<int64_t>(u);
}

void ListScheduler::run() {
  pathToEnd_ = pathsToEnd(t_, units_);
  std::vector<Candidate> candidates;
  for (size_t n = 0; n < units_.size(); ++n) {
    candidates.clear();
    std::vector<int64_t> unlocks;
    if (options_.unlockDmas)
      unlocks = dmaUnlocks();
    for (size_t u = 0; u < units_.size(); ++u) {
      const Unit &unit = units_[u];
      if (unit.issued || !llvm::all_of(unit.preds, [&](size_t p) { return units_[p].issued; }))
        continue;
      Candidate c{u, std::max(readyAt(u), clock_.now()), pathToEnd_[u], unit.isDma,
                  unit.isStream(), unit.isDma ? 0 : wholeLoadCycles(t_, unit)};
      c.ownCycles = ownCycles(t_, unit);
      if (!unlocks.empty())
        c.unlock = unlocks[u];
      candidates.push_back(c);
    }
    size_t best =
        candidates[chooseNext(candidates, t_.dmaStartupCycles,
                              ChoiceRules{options_.shortStreamsFirst, options_.unlockDmas,
                                          options_.criticalDmasFirst})]
            .unit;
    issue(best);
    issueOrder_.push_back(best);
  }
  // The kernel ends when everything it started has ended.
  llvm::SmallVector<size_t> open;
  for (size_t u = 0; u < units_.size(); ++u)
    if (!units_[u].retired)
      open.push_back(u);
  int64_t heldBy = -1;
  finalWaits_ = retire(open, heldBy);
  // Every DMA's times are final now.
  clock_.finish();
  for (Unit &unit : units_) {
    if (!unit.isDma)
      continue;
    for (size_t p = 0; p < unit.dmas.size(); ++p) {
      QueueClock::Interval span = clock_.dmaSpan(unit.dmas[p]);
      unit.partStarts.push_back(span.start);
      unit.partEnds.push_back(span.end);
      unit.span.start = p == 0 ? span.start : std::min(unit.span.start, span.start);
      unit.span.end = std::max(unit.span.end, span.end);
    }
  }
  resolveEngineWaits();
}

/// Per pass not yet issued: the fewest cycles of passes not yet issued (its own included) that
/// some DMA not yet issued waits for, among the DMAs it leads to through passes only; INT64_MAX
/// when it leads to none (or only through another DMA not yet issued).
std::vector<int64_t> ListScheduler::dmaUnlocks() const {
  const int64_t none = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> best(units_.size(), none);
  std::vector<char> in(units_.size());
  for (size_t d = 0; d < units_.size(); ++d) {
    if (units_[d].issued || !units_[d].isDma)
      continue;
    // The passes not yet issued that d waits for, transitively; none of its waits a DMA.
    std::fill(in.begin(), in.end(), 0);
    llvm::SmallVector<size_t> stack(units_[d].preds.begin(), units_[d].preds.end());
    bool viaDma = false;
    int64_t cycles = 0;
    while (!stack.empty() && !viaDma) {
      size_t p = stack.pop_back_val();
      if (units_[p].issued || in[p])
        continue;
      viaDma = units_[p].isDma;
      in[p] = 1;
      cycles += ownCycles(t_, units_[p]);
      stack.append(units_[p].preds.begin(), units_[p].preds.end());
    }
    if (viaDma)
      continue;
    for (size_t p = 0; p < units_.size(); ++p)
      if (in[p])
        best[p] = std::min(best[p], cycles);
  }
  return best;
}

/// Sets each DMA part's `partAfter` from the final times: a part that started after its unit
/// issued, when its engine's previous DMA ended there, waited for that DMA.
void ListScheduler::resolveEngineWaits() {
  for (Unit &unit : units_)
    for (size_t p = 0; p < unit.partStarts.size(); ++p) {
      int64_t prev = unit.prevOnEngine[p];
      bool held = prev >= 0 && unit.partStarts[p] > unit.issuedAt &&
                  endOnEngine(units_[prev], unit.parts[p].engine) == unit.partStarts[p];
      unit.partAfter.push_back(held ? prev : -1);
    }
}

int64_t ListScheduler::endOnEngine(const Unit &unit, int64_t engine) {
  int64_t end = -1;
  for (size_t p = 0; p < unit.parts.size() && p < unit.partEnds.size(); ++p)
    if (unit.parts[p].engine == engine)
      end = std::max(end, unit.partEnds[p]);
  return end;
}

/// What `u` must wait for before it issues.
llvm::SmallVector<size_t> ListScheduler::blockers(size_t u) const {
  const Unit &unit = units_[u];
  llvm::SmallVector<size_t> out;
  for (size_t p : unit.preds)
    if (!units_[p].retired)
      out.push_back(p);
  if (!unit.isDma && context_[unit.context] >= 0)
    out.push_back(static_cast<size_t>(context_[unit.context]));
  // Free enough tags for its parts as they are now (a re-cut at issue may need more, cutParts):
  // its other blockers' tags, then the oldest DMAs'.
  if (unit.isDma)
    out.append(tags_.toFree(unit.parts.size(), out));
  llvm::sort(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// When unit `u` ends if nothing more were issued (a DMA's end can still move while later DMAs
/// share its bandwidth).
int64_t ListScheduler::projectedEnd(size_t u) const {
  const Unit &unit = units_[u];
  if (!unit.isDma)
    return unit.span.end;
  int64_t end = 0;
  for (QueueClock::DmaId id : unit.dmas)
    end = std::max(end, clock_.dmaSpan(id).end);
  return end;
}

int64_t ListScheduler::readyAt(size_t u) {
  int64_t ready = clock_.now();
  for (size_t b : blockers(u))
    ready = std::max(ready, projectedEnd(b));
  // A DMA starts once its engines take it: a stream when its first engine frees, any other
  // DMA when the engines its parts would take have.
  const Unit &unit = units_[u];
  if (unit.isDma && !unit.parts.empty()) {
    bool stream = unit.isStream();
    EngineGeometry g(t_);
    int64_t engines = stream ? INT64_MAX : 0;
    for (const DmaPart &part : unit.parts) {
      if (leaves(u, part.engine))
        continue;
      int64_t engine = stream ? part.engine : pickEngine(t_, clock_, part.engine);
      if (besideOnSpare(unit, g.spareOf(part.engine)))
        engine = g.spareOf(part.engine);
      int64_t free = clock_.engineFree(engine);
      engines = stream ? std::min(engines, free) : std::max(engines, free);
    }
    // A stream whose cluster's spare engine is idle issues one start-up early, so that the
    // spare streams while the others start.
    if (stream) {
      int64_t early = std::max(engines - t_.dmaStartupCycles, clock_.now());
      for (const DmaPart &part : unit.parts)
        if (clock_.engineFree(g.spareOf(part.engine)) <= early &&
            spareUsable(g.spareOf(part.engine), early)) {
          engines = early;
          break;
        }
    }
    ready = std::max(ready, engines);
  }
  return ready;
}

/// Waits for each unit in `which` (each part of a DMA), earliest end first; returns the wait
/// commands. `heldBy` becomes the last unit whose end held the queue (else unchanged).
llvm::SmallVector<Wait> ListScheduler::retire(const llvm::SmallVector<size_t> &which,
                                              int64_t &heldBy) {
  struct Pending {
    int64_t end;
    size_t unit;
    int64_t part; // -1: the unit's context
  };
  llvm::SmallVector<Pending> waits;
  for (size_t w : which) {
    const Unit &unit = units_[w];
    if (unit.isDma)
      for (size_t p = 0; p < unit.tags.size(); ++p)
        waits.push_back({clock_.dmaSpan(unit.dmas[p]).end, w, static_cast<int64_t>(p)});
    else
      waits.push_back({unit.span.end, w, -1});
  }
  // No DMA is issued among these waits, so the projected ends are the real ones.
  llvm::stable_sort(waits, [](const Pending &a, const Pending &b) { return a.end < b.end; });
  llvm::SmallVector<Wait> out;
  for (const Pending &w : waits) {
    Unit &unit = units_[w.unit];
    if (w.end > clock_.now() + t_.commandIssueCycles)
      heldBy = static_cast<int64_t>(w.unit);
    if (w.part >= 0) {
      clock_.waitDma(unit.dmas[w.part]);
      int64_t tag = unit.tags[w.part];
      out.push_back(Wait::forTag(tag));
      tags_.release(tag);
    } else {
      clock_.wait(w.end);
      out.push_back(Wait::forContext(unit.context == 0 ? Queue::main : Queue::sub));
      context_[unit.context] = -1;
    }
    unit.retired = true;
  }
  for (size_t w : which)
    tags_.retired(w);
  return out;
}

/// A pass's configuration loads. It takes the next bank of its context and loads the blocks
/// of units the pass running on that bank does not use before it waits (the queue would only
/// idle), the others after (returned). Main's passes take its two banks in turn, so a main
/// pass loads everything while the one before it runs. A load writes only the register words
/// that differ from what the bank holds (none: no load).
llvm::SmallVector<uint64_t> ListScheduler::loadBlocks(size_t u) {
  Unit &unit = units_[u];
  unit.bank = banks_.take(unit.context);
  int64_t slot = RegisterBanks::slot(unit.context, unit.bank);
  int64_t running = banks_.exchangeLast(slot, static_cast<int64_t>(u));
  uint16_t inUse =
      running >= 0 && units_[running].span.end > clock_.now() ? units_[running].execUnits : 0;
  llvm::SmallVector<uint64_t> early, late;
  for (const Unit::Block &block : unit.blocks) {
    uint64_t mask = banks_.load(slot, block.unit, block.words);
    unit.loadMasks.push_back(static_cast<int64_t>(mask));
    if (mask == 0)
      continue;
    if (inUse & isa::execBit(block.unit)) {
      late.push_back(mask);
      continue;
    }
    early.push_back(mask);
    unit.earlyLoads.push_back({static_cast<uint32_t>(block.unit)});
  }
  int64_t cycles = 0;
  for (uint64_t mask : early)
    cycles += configLoadCycles(t_, mask);
  if (running < 0 && hoistLoads(u, cycles))
    return late;
  for (uint64_t mask : early)
    clock_.load(mask);
  return late;
}

/// The first pass on a bank (its registers free since the kernel's start) whose loads would
/// hold the queue past its own waits moves them before the waits of the latest unit issued
/// whose waits idle the queue that long: there they cost no time, the queue reaching the end
/// of those waits when it did without them.
bool ListScheduler::hoistLoads(size_t u, int64_t cycles) {
  if (cycles == 0)
    return false;
  // Its own waits would hide the loads: leave them there.
  int64_t ownEnd = clock_.now(), waits = 0;
  for (size_t b : blockers(u)) {
    ownEnd = std::max(ownEnd, projectedEnd(b));
    waits += units_[b].isDma ? static_cast<int64_t>(units_[b].tags.size()) : 1;
  }
  if (clock_.now() + cycles + waits * t_.commandIssueCycles <= ownEnd)
    return false;
  for (size_t earlier : llvm::reverse(issueOrder_)) {
    Unit &host = units_[earlier];
    if (host.waitSlack < cycles)
      continue;
    host.waitSlack -= cycles;
    units_[u].loadsBefore = static_cast<int64_t>(earlier);
    return true;
  }
  return false;
}

/// DMA `u`'s parts once its waits are done: a weight stream re-cut over its clusters' engines
/// (balanceStreams), the kernel's last DMA over the idle ones (splitOverIdleEngines). Both
/// depend on the time, so they follow the waits, and can make more parts than the waits freed
/// tags for (blockers counts the parts as built). Then the queue also waits for the oldest
/// DMAs in flight until every part has a tag, and the DMA is cut again from its parts as built
/// (those waits moved the time), until the tags suffice. The waits join the unit's; `heldBy`
/// as in retire.
void ListScheduler::cutParts(size_t u, int64_t &heldBy) {
  Unit &unit = units_[u];
  const std::vector<DmaPart> built = unit.parts;
  const llvm::SmallVector<int64_t> builtChunks = unit.chunks;
  for (;;) {
    balanceStreams(u);
    splitOverIdleEngines(unit);
    llvm::SmallVector<size_t> more = tags_.toFree(unit.parts.size());
    if (more.empty())
      break;
    unit.waits.append(retire(more, heldBy));
    unit.parts = built;
    unit.chunks = builtChunks;
  }
  // Nothing left in flight and still too few tags (a DMA of more parts than there are tags; a
  // descriptor's 4-bit engine field keeps real targets' DMAs to 16): keep the parts as built.
  if (tags_.free() < static_cast<int64_t>(unit.parts.size())) {
    unit.parts = built;
    unit.chunks = builtChunks;
  }
}

void ListScheduler::issue(size_t u) {
  Unit &unit = units_[u];
  llvm::SmallVector<uint64_t> late;
  if (!unit.isDma)
    late = loadBlocks(u);
  int64_t heldBy = -1;
  const int64_t beforeWaits = clock_.now();
  unit.waits = retire(blockers(u), heldBy);
  unit.issued = true;
  if (unit.isDma)
    cutParts(u, heldBy);
  unit.issuedAt = clock_.now();
  unit.waitSlack = unit.issuedAt - beforeWaits -
                   static_cast<int64_t>(unit.waits.size()) * t_.commandIssueCycles;
  if (heldBy >= 0) {
    unit.after = heldBy;
    unit.why = IssueReason::waits;
  } else if (!issueOrder_.empty()) {
    unit.after = static_cast<int64_t>(issueOrder_.back());
    unit.why = IssueReason::queue;
  }
  if (unit.isDma) {
    for (DmaPart &part : unit.parts) {
      if (!unit.isStream() && unit.chunks.empty())
        part.engine = pickEngine(t_, clock_, part.engine);
      int64_t &last = lastOnEngine_[static_cast<size_t>(part.engine)];
      unit.prevOnEngine.push_back(last);
      last = static_cast<int64_t>(u);
      unit.tags.push_back(tags_.take());
      unit.dmas.push_back(clock_.dma(part.engine, part.cycles, part.traffic));
    }
    tags_.inFlight(u, unit.parts.size());
    return;
  }
  for (uint64_t mask : late)
    clock_.load(mask);
  unit.span = clock_.exec(unit.context, unit.cycles);
  context_[unit.context] = static_cast<int64_t>(u);
}

} // namespace rngd::tcp::sched
