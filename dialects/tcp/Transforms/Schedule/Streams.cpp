// The list scheduler's DMA parts: how a weight stream is cut over its cluster's engines (so
// that its parts end together, or one start-up apart), when the cluster's spare engine may take
// a part, and the kernel's last DMA spread over the idle engines.
#include "DependenceGraph.h"
#include "dialects/tcp/Analysis/DmaParts.h"
#include "Engines.h"
#include "ListScheduler.h"

#include <limits>

namespace rngd::tcp::sched {

/// Whether unit `u`, the kernel's first weight stream, leaves `engine` to the streams after
/// it: the last of its cluster's stream engines, whose part of the next stream then starts at
/// once, so that stream's start-up overlaps this one and the change between the two leaves one
/// engine streaming instead of none.
bool ListScheduler::leaves(size_t u, int64_t engine) const {
  return static_cast<int64_t>(u) == leftBy_ && EngineGeometry(t_).leftByFirstStream(engine);
}

/// Whether `unit`, with besideStreams, runs on the spare engine `spare` alone: a DM to DM
/// copy (a stream with both sides in DM), or a load from HBM of less than kDmaSplitBytes a
/// cluster (a stream only for copying to every cluster), while a weight stream from HBM into
/// the spare's cluster is still to issue. It then moves beside the streams instead of queueing
/// before them on their engines, which would leave HBM idle while it runs.
bool ListScheduler::besideOnSpare(const Unit &unit, int64_t spare) const {
  if (!options_.besideStreams || !unit.plan || !unit.isStream())
    return false;
  EngineGeometry g(t_);
  // A stream's bytes into the spare's cluster.
  auto bytesInCluster = [&](const Unit &s) {
    int64_t bytes = 0;
    for (const DmaPart &p : s.parts)
      if (g.spareOf(p.engine) == spare)
        bytes += p.packets * s.plan->plan.packetBytes;
    return bytes;
  };
  const int64_t bytes = bytesInCluster(unit);
  const bool copy = unit.plan->dmSource && unit.plan->dmDest;
  const bool smallLoad = unit.plan->hbmSource && bytes < kDmaSplitBytes;
  if (bytes == 0 || !(copy || smallLoad))
    return false;
  return llvm::any_of(units_, [&](const Unit &o) {
    return !o.issued && o.isStream() && o.plan && o.plan->hbmSource &&
           bytesInCluster(o) >= kDmaSplitBytes;
  });
}

/// The earliest the spare engine `spare` may be needed again: the earliest any DMA not yet
/// issued that runs on it (a small one) could start, from its predecessors' projected ends and
/// the own cycles of those not yet issued (no contention counted, so never late). Result
/// stores of at most `tail` cycles do not count: for the cluster's last stream, they can run
/// on the engines it leaves idle while its tail (the work after it) runs.
int64_t ListScheduler::spareNeed(int64_t spare, int64_t tail) {
  if (estimatesAt_ != issueOrder_.size() || estimates_.empty()) {
    estimatesAt_ = issueOrder_.size();
    estimates_.assign(units_.size(), 0);
    for (size_t u = 0; u < units_.size(); ++u) {
      if (units_[u].issued && !(units_[u].isDma && units_[u].dmas.empty()))
        continue;
      int64_t e = clock_.now();
      for (size_t p : units_[u].preds) {
        // A DMA being issued has no parts in the clock yet: count it as not issued.
        bool timed = units_[p].issued && !(units_[p].isDma && units_[p].dmas.empty());
        e = std::max(e, timed ? projectedEnd(p) : estimates_[p] + ownCycles(t_, units_[p]));
      }
      estimates_[u] = e;
    }
  }
  int64_t need = INT64_MAX;
  for (size_t u = 0; u < units_.size(); ++u) {
    const Unit &unit = units_[u];
    if (unit.issued || !unit.isDma)
      continue;
    if (unit.isStream()) { // a copy or small load that will run on the spare
      if (besideOnSpare(unit, spare))
        need = std::min(need, estimates_[u]);
      continue;
    }
    if (unit.resultStore && ownCycles(t_, unit) <= tail)
      continue;
    if (llvm::any_of(unit.parts, [&](const DmaPart &p) { return p.engine == spare; }))
      need = std::min(need, estimates_[u]);
  }
  return need;
}

/// Whether the spare engine, once free, can stream from `at` (after a start-up) for at least
/// another start-up's worth of cycles before a small DMA needs it (spareNeed).
bool ListScheduler::spareUsable(int64_t spare, int64_t at, int64_t tail) {
  int64_t startup = t_.dmaStartupCycles;
  at = std::max(at, clock_.engineFree(spare));
  return spareNeed(spare, tail) - (at + startup) >= startup;
}

/// The kernel's last DMA to issue (typically the store of its result) spreads over its
/// cluster's engines that are idle: each part pays its own start-up, all at once, on a share
/// of the packets (500 + packets / 4 cycles instead of 500 + packets). Earlier DMAs stay
/// whole: one spread over every idle engine could hold up the next.
void ListScheduler::splitOverIdleEngines(Unit &unit) {
  if (unit.isStream() || unit.parts.empty() || (!unit.plan && !unit.indirect) ||
      llvm::any_of(units_, [&](const Unit &o) { return &o != &unit && o.isDma && !o.issued; }))
    return;
  auto chunks = idleSplitChunks(t_, clock_, unit.parts);
  if (!chunks)
    return;
  std::vector<DmaPart> parts =
      unit.plan ? dmaParts(*unit.plan, *chunks) : indirectDmaParts(*unit.indirect, *chunks);
  if (parts.empty())
    return;
  unit.parts = std::move(parts);
  unit.chunks = *chunks;
}

/// The iterations of one cluster piece of stream `u` (its parts [first, last), `n`
/// iterations of `perIteration` cycles) that each engine of the cluster takes: they end
/// together, or one start-up apart, engine by engine, when the spare streams too (three
/// engines then carry the cluster's share while the fourth starts its next part) and another
/// stream into the cluster follows (else the stagger would only delay this one).
llvm::SmallVector<int64_t> ListScheduler::pieceShares(size_t u, size_t first, size_t last,
                                                      int64_t n, double perIteration) {
  const Unit &unit = units_[u];
  EngineGeometry g(t_);
  int64_t base = g.base(unit.parts[first].engine);
  const int64_t spareEngine = g.spareOf(base);
  const double never = std::numeric_limits<double>::infinity();
  auto inCluster = [&](const DmaPart &p) { return g.spareOf(p.engine) == spareEngine; };
  bool followed = llvm::any_of(units_, [&](const Unit &o) {
    return &o != &unit && !o.issued && o.isStream() && llvm::any_of(o.parts, inCluster);
  });
  // The last stream into the cluster: the cycles of work after it that it starts.
  int64_t tail = followed ? 0 : pathToEnd_[u] - ownCycles(t_, unit);
  // A copy or small load beside the weight streams still to come takes the spare alone,
  // whenever it frees.
  const bool onSpare = besideOnSpare(unit, spareEngine);
  bool spareStreams = onSpare || spareUsable(spareEngine, clock_.now(), tail);
  // Each engine: when its data could start, how long after the common end it streams, and
  // until when it may (the spare: before a small DMA could need it).
  llvm::SmallVector<StreamWindow> windows;
  for (int64_t e = base; e < base + g.perCluster; ++e) {
    bool spare = e == spareEngine;
    StreamWindow w;
    w.ready = double(std::max(clock_.engineFree(e), clock_.now()) + t_.dmaStartupCycles);
    bool usable = spare ? spareStreams
                        : !onSpare && e - base < static_cast<int64_t>(last - first) &&
                              !leaves(u, e);
    w.after =
        followed && spareStreams && !onSpare ? double((e - base) * t_.dmaStartupCycles) : 0.0;
    w.cap = !usable ? w.ready : spare && !onSpare ? double(spareNeed(e, tail)) : never;
    windows.push_back(w);
  }
  double end = commonEnd(windows, n, perIteration);
  // With staggerBusySpare, also when the spare is busy now but frees three start-ups before
  // the parts would end: the next stream's parts then start one at a time, and the spare may
  // carry that stream's part while they do.
  if (options_.staggerBusySpare && followed && !spareStreams &&
      clock_.engineFree(spareEngine) + 3 * t_.dmaStartupCycles <= end) {
    for (int64_t e = base; e < base + g.perCluster; ++e)
      windows[e - base].after = double((e - base) * t_.dmaStartupCycles);
    end = commonEnd(windows, n, perIteration);
  }
  // Staggered ends only when every engine that could stream does; else (a short stream) some
  // would just end later than they could have.
  if (llvm::any_of(windows, [&](const StreamWindow &w) {
        return w.usable() && streamedCycles(w, end) == 0;
      })) {
    for (StreamWindow &w : windows)
      w.after = 0.0;
    end = commonEnd(windows, n, perIteration);
  }
  return wholeIterations(windows, end, n, perIteration);
}

/// Re-cuts a weight stream so that its parts end together (or one start-up apart, see
/// pieceShares): an engine that frees earlier (its previous work projected to end sooner)
/// takes more of the split loop's iterations. The cluster's spare engine, when idle, takes a
/// part too, ending before a small DMA could need it. Streams share HBM, so each runs at about
/// HBM's rate over the stream engines' total.
void ListScheduler::balanceStreams(size_t u) {
  Unit &unit = units_[u];
  if (!unit.plan || !unit.isStream())
    return;
  int64_t streams = 0;
  for (const DmaPart &part : unit.parts)
    streams += part.chunk > 0;
  double speed =
      std::min(1.0, double(t_.hbmBytesPerCycle) / double(streams * t_.dmaRequestBytes));
  llvm::SmallVector<int64_t> chunks;
  for (size_t first = 0; first < unit.parts.size();) {
    size_t last = first;
    while (last < unit.parts.size() && unit.parts[last].piece == unit.parts[first].piece)
      ++last;
    // Iterations and full-speed cycles per iteration of this piece.
    int64_t n = 0, dataCycles = 0;
    for (size_t p = first; p < last; ++p) {
      n += unit.parts[p].chunk;
      dataCycles += unit.parts[p].cycles - t_.dmaStartupCycles;
    }
    double perIteration = double(dataCycles) / double(n) / speed;
    chunks.append(pieceShares(u, first, last, n, perIteration));
    first = last;
  }
  unit.chunks = chunks;
  unit.parts = dmaParts(*unit.plan, chunks);
}

} // namespace rngd::tcp::sched
