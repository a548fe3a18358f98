// tcp-schedule: list scheduling of the kernel's commands over the in-order queue.
//
// Units are the DMAs and the Tensor Unit passes. A unit depends on an earlier one when their memory
// footprints conflict (RAW, WAR, WAW on overlapping HBM, DM, TRF or VRF ranges), when both use the
// Vector Engine from different contexts, or when one is a DMA and the other a pass that could break
// the 64-same-bank rule. The scheduler then repeatedly issues, among the units whose predecessors
// are issued, the one that would stall the queue least (a DMA counts as ready when its engine
// frees, so a busy engine's queue does not fill up with DMAs that later, more urgent ones would
// wait behind; ties: the longest path of dependent cycles to the kernel's end, then program order;
// a pass does not fill the queue ahead of a pass with a longer path that is ready before the
// filler's configuration loads end), after waits for each predecessor not yet waited for, for the
// previous pass of its context and, when all tags are taken, for the oldest DMA. Main's passes
// take its two register banks in turn and load their blocks before those waits, while the main
// pass before them runs (a sub pass loads those of units its running pass lists after them); a
// load writes only the register words that differ from what the bank holds. A weight stream's
// parts are sized so that they end together; the cluster's spare engine (the fourth, which
// carries the small DMAs) takes a part too while no small DMA could need it, and then, when
// another stream follows, the four parts end one start-up apart so that the engines start their
// next parts one at a time. Further runs also stagger the streams whose spare
// is busy but frees early, and let the kernel's first stream leave an engine per cluster to the
// next stream; the shortest schedule is kept. Times come from rngd::QueueClock, the clock the
// simulator runs, so the predicted makespan is what the simulator measures for the same command
// stream.
#include "dialects/tcp/IR/TcpBlocks.h"
#include "dialects/tcp/IR/TcpPass.h"
#include "dialects/tcp/IR/TcpVerify.h"
#include "dialects/tcp/Transforms/Passes.h"

#include "rngd/Isa.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <bitset>
#include <deque>
#include <memory>

namespace rngd::tcp {
#define GEN_PASS_DEF_TCPSCHEDULE
#include "dialects/tcp/Transforms/Passes.h.inc"
} // namespace rngd::tcp

using namespace mlir;
using namespace rngd;
using namespace rngd::tcp;

namespace {

constexpr size_t kMaxSlices = isa::kSliceBitmapWords * 64; // slices a pass bitmap names
using SliceSet = std::bitset<kMaxSlices>;

/// A byte range of one memory: an HBM argument's bytes, or the same per-slice range on a set of
/// slices. An HBM view that holds `run` bytes of every `period` (half of every row) has both
/// set: two such views of one period overlap only where their runs do.
struct Region {
  enum Space { Hbm, Dm, Trf, Vrf } space;
  int64_t arg = -1; // HBM: argument number
  SliceSet slices;  // DM/TRF/VRF
  int64_t lo = 0, hi = 0;
  int64_t period = 0, run = 0; // 0: every byte of [lo, hi)

  bool overlaps(const Region &o) const {
    if (space != o.space || lo >= o.hi || o.lo >= hi)
      return false;
    if (space != Hbm)
      return (slices & o.slices).any();
    if (arg != o.arg)
      return false;
    if (period == 0 || period != o.period)
      return true;
    int64_t a = lo % period, b = o.lo % period;
    return (b - a + period) % period < run || (a - b + period) % period < o.run;
  }
};

using Footprint = SmallVector<Region, 4>;

bool overlaps(const Footprint &a, const Footprint &b) {
  for (const Region &x : a)
    for (const Region &y : b)
      if (x.overlaps(y))
        return true;
  return false;
}

SliceSet sliceSet(const SpatialLayout &spatial) {
  SliceSet set;
  for (int64_t s : spatial.activeSlices(defaultTarget()))
    if (s >= 0 && s < static_cast<int64_t>(kMaxSlices))
      set.set(static_cast<size_t>(s));
  return set;
}

int64_t offsetAttr(Value v, StringRef name) {
  Operation *def = v.getDefiningOp();
  auto attr = def ? def->getAttrOfType<IntegerAttr>(name) : IntegerAttr();
  return attr ? attr.getInt() : 0;
}

std::optional<Region> hbmRegion(Operation *op, Value v) {
  auto root = hbmRoot(v);
  auto layout = resolveHbm(op, cast<HbmType>(v.getType()));
  if (!root || !layout)
    return std::nullopt;
  Region r{Region::Hbm, root->arg.getArgNumber(), {}, root->byteOffset,
           root->byteOffset + layout->bytes()};
  // Periodic: a padded innermost factor (`[B, H # 256]`) under factors that hold every cell.
  const auto &factors = layout->elem.factors();
  if (!factors.empty() && factors.back().cells > factors.back().visible() &&
      std::all_of(factors.begin(), factors.end() - 1,
                  [](const mapping::Factor &f) { return f.cells == f.visible(); })) {
    r.period = factors.back().cells * layout->elemBytes;
    r.run = factors.back().visible() * layout->elemBytes;
  }
  return r;
}

Region dmRegion(Value v, const DmLayout &layout) {
  int64_t offset = offsetAttr(v, "tcp.dm_offset");
  return {Region::Dm, -1, sliceSet(layout.spatial), offset, offset + layout.bytesPerSlice()};
}

/// A pass's DM range: the tensor, widened to every byte its sequencer touches (a padded packet
/// may read past the tensor's last element).
Region sequencedRegion(Value v, const DmLayout &layout, const mapping::Sequencer &seq) {
  Region r = dmRegion(v, layout);
  int64_t lo = 0, hi = seq.accessBytes;
  for (const mapping::Loop &l : seq.loops)
    (l.stride < 0 ? lo : hi) += (l.size - 1) * l.stride;
  r.hi = std::max(r.hi, r.lo + hi);
  r.lo = std::min(r.lo, r.lo + lo);
  return r;
}

Region vrfRegion(Value v, const VrfLayout &layout) {
  int64_t offset = offsetAttr(v, "tcp.vrf_offset");
  return {Region::Vrf, -1, sliceSet(layout.spatial), offset, offset + layout.bytes()};
}

/// A TRF tensor's bytes in each slice: one range per lane (lane l of L starts at l * 64 KB / L
/// plus the tensor's offset), so tensors with different lane counts compare correctly.
void addTrfRegions(Footprint &f, Value v, const TrfLayout &layout) {
  int64_t offset = offsetAttr(v, "tcp.trf_offset");
  int64_t segment = defaultTarget().trfBytesPerSlice / layout.lanes();
  SliceSet slices = sliceSet(layout.spatial);
  for (int64_t l = 0; l < layout.lanes(); ++l) {
    int64_t lo = l * segment + offset;
    f.push_back({Region::Trf, -1, slices, lo, lo + layout.laneBytes()});
  }
}

struct Unit {
  Operation *op = nullptr; // the DMA op or the pass's end
  bool isDma = false;
  std::vector<DmaPart> parts; // a DMA's descriptors (dmaParts)
  std::optional<DmaOpPlan> plan; // a tcp.dma's plan, to re-cut its streams at issue
  std::optional<IndirectDmaPlan> indirect; // a gather's or scatter's, to split it at issue
  SmallVector<int64_t> chunks;   // the parts' sizes chosen at issue (streams, the last DMA)
  int64_t context = 0;        // pass context (0 main, 1 sub)
  int64_t bank = 0;           // the register bank of its context it loads and runs on
  int64_t cycles = 0;         // a pass's cycles
  struct Block {
    isa::Unit unit;
    std::vector<uint64_t> words; // its register words (passBlocks, packed)
  };
  SmallVector<Block> blocks;    // config blocks the pass loads, in lowering order
  SmallVector<int64_t> loadMasks; // per block: the words its load writes, 0 if none (issue)
  uint16_t execUnits = 0;       // the engines its exec lists (isa::UnitBit)
  SmallVector<ConfigUnit> earlyLoads; // blocks loaded before its waits (unused by the pass
                                      // running on its bank then)
  bool usesVector = false;
  bool holdsDma = false;
  bool resultStore = false; // a DMA writing HBM that no later unit waits for
  Footprint reads, writes;
  SmallVector<size_t> preds;
  // Scheduling results.
  bool issued = false, retired = false;
  QueueClock::Interval span;          // first start to last end (a DMA's: after finish())
  SmallVector<QueueClock::DmaId> dmas; // per DMA part, in the clock
  SmallVector<int64_t> tags, partStarts, partEnds; // per DMA part
  SmallVector<Wait> waits; // emitted before the unit
  // What set its start: its commands issued once the queue had waited for the end of unit
  // `after` ("waits") or right after unit `after`'s ("queue"); -1 with "start" for the
  // kernel's first command. A DMA part may then wait for its engine: partAfter
  // (ListScheduler::resolveEngineWaits) is the DMA unit whose part there ended when it started
  // (-1: it did not wait).
  int64_t after = -1;
  IssueReason why = IssueReason::start;
  SmallVector<int64_t> partAfter;
  int64_t issuedAt = 0;     // queue time after the unit's waits
  SmallVector<int64_t> prevOnEngine; // per DMA part: the previous DMA unit on its engine
};

/// The words of `next` that differ from `held` (all of them when nothing is held).
uint64_t changedWords(const std::vector<uint64_t> &held, const std::vector<uint64_t> &next) {
  uint64_t mask = 0;
  for (size_t w = 0; w < next.size(); ++w)
    if (held.size() != next.size() || held[w] != next[w])
      mask |= uint64_t(1) << w;
  return mask;
}

/// The longest same-bank run of a pass's DM sequencers (fetch and commit).
int64_t passSameBankRun(const TensorPassPlan &plan) {
  auto run = [](const mapping::Sequencer &seq) {
    std::vector<std::pair<int64_t, int64_t>> loops;
    for (const mapping::Loop &l : seq.loops)
      loops.push_back({l.size, l.stride});
    return sameBankRun(defaultTarget(), loops);
  };
  int64_t longest = run(plan.fetch.sequencer);
  if (plan.commit)
    longest = std::max(longest, run(plan.commit->sequencer));
  return longest;
}

LogicalResult dmaUnit(Operation *op, Unit &u) {
  u.op = op;
  u.isDma = true;
  if (auto dma = dyn_cast<DmaOp>(op)) {
    auto plan = planDma(dma);
    if (!plan)
      return failure();
    u.parts = dmaParts(*plan);
    u.plan = *plan;
    if (u.parts.empty())
      return dma.emitOpError("DMA engines: the DM side spans both clusters and no loop of its ")
             << "nest separates them; an engine reaches only its own cluster's DM";
    Value dst = dma.getDest() ? dma.getDest() : dma.getResult();
    auto side = [&](Value v, const std::optional<DmLayout> &dm, Footprint &f) -> LogicalResult {
      if (dm) {
        f.push_back(dmRegion(v, *dm));
        return success();
      }
      auto r = hbmRegion(op, v);
      if (!r)
        return failure();
      f.push_back(*r);
      return success();
    };
    return failure(failed(side(dma.getSource(), plan->dmSource, u.reads)) ||
                   failed(side(dst, plan->dmDest, u.writes)));
  }
  auto plan = planIndirectDma(op);
  if (!plan)
    return failure();
  bool scatter = plan->scatter;
  Value dmValue = plan->dmValue, hbmValue = plan->hbmValue, offsets = plan->offsetsValue;
  auto index = hbmRegion(op, offsets);
  auto hbm = hbmRegion(op, hbmValue);
  if (!index || !hbm)
    return failure();
  u.parts = indirectDmaParts(*plan); // each part reads the index tensor when it starts
  u.indirect = *plan;
  if (u.parts.empty())
    return op->emitOpError("DMA engines: the DM side spans both clusters and no loop inside ")
           << "the row loop separates them; an engine reaches only its own cluster's DM";
  Region dm = dmRegion(dmValue, scatter ? *plan->dma.dmSource : *plan->dma.dmDest);
  u.reads = {*index, scatter ? dm : *hbm};
  u.writes = {scatter ? *hbm : dm};
  return success();
}

LogicalResult passUnit(Operation *end, Unit &u) {
  auto plan = planTensorPass(end);
  if (!plan)
    return failure();
  TensorPassOps ops = plan->ops;
  u.op = end;
  u.context = static_cast<int64_t>(ops.fetch.getContext());
  u.cycles = tensorPassCycles(defaultTarget(), plan->shape);
  u.usesVector = ops.vector || ops.cast;
  u.holdsDma = passSameBankRun(*plan) >= defaultTarget().sameBankAccessLimit;
  auto blocks = passBlocks(end);
  if (!blocks)
    return failure();
  for (const PassBlock &b : blocks->blocks) {
    Unit::Block block{b.unit, {}};
    std::string why;
    if (!isa::packBlock(*isa::findUnit(b.unit), b.values, block.words, why))
      return emitError(b.loc) << why;
    u.blocks.push_back(std::move(block));
  }
  u.execUnits = blocks->execUnits;
  u.reads.push_back(
      sequencedRegion(ops.fetch.getSource(), plan->fetch.source, plan->fetch.sequencer));
  if (plan->contract)
    addTrfRegions(u.reads, ops.contract.getWeights(), plan->contract->weights);
  if (ops.vector)
    for (Value v : ops.vector.getVrfOperands()) {
      auto layout = resolveVrf(end, cast<VrfType>(v.getType()));
      if (!layout)
        return failure();
      u.reads.push_back(vrfRegion(v, *layout));
    }
  Value result = end->getResult(0);
  if (plan->commit)
    u.writes.push_back(
        sequencedRegion(result, plan->commit->result, plan->commit->sequencer));
  else if (plan->trf)
    addTrfRegions(u.writes, result, *plan->trf);
  else
    u.writes.push_back(vrfRegion(result, *plan->vrf));
  return success();
}

/// Unit j must not overlap unit i < j.
bool conflicts(const Unit &i, const Unit &j) {
  if (overlaps(j.reads, i.writes) || overlaps(j.writes, i.reads) || overlaps(j.writes, i.writes))
    return true;
  if (!i.isDma && !j.isDma && i.usesVector && j.usesVector && i.context != j.context)
    return true;
  if (i.isDma != j.isDma && ((!i.isDma && i.holdsDma) || (!j.isDma && j.holdsDma)))
    return true;
  return false;
}

/// Each unit's predecessors (the earlier units it conflicts with), and which units are result
/// stores (DMAs writing HBM that no later unit waits for).
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

class ListScheduler {
public:
  /// `staggerBusySpare`: see balanceStreams. `leaveEngine`: the kernel's first weight stream
  /// leaves each cluster's last stream engine to the streams after it (see leaves).
  /// `units` carry their predecessors (linkUnits).
  ListScheduler(std::vector<Unit> &units, bool staggerBusySpare, bool leaveEngine)
      : units_(units), clock_(defaultTarget()), staggerBusySpare_(staggerBusySpare) {
    if (leaveEngine)
      for (size_t u = 0; u < units_.size() && leftBy_ < 0; ++u)
        if (isStream(units_[u]))
          leftBy_ = static_cast<int64_t>(u);
  }

  void run() {
    computeCriticalPaths();
    for (size_t n = 0; n < units_.size(); ++n) {
      // Among the units that could issue without stalling the queue, the one with the longest
      // path to the kernel's end; when every candidate stalls, the one that stalls least
      // (but see the streams below). Program order breaks ties.
      size_t best = units_.size();
      int64_t bestReady = 0;
      SmallVector<std::pair<size_t, int64_t>> candidates;
      for (size_t u = 0; u < units_.size(); ++u) {
        if (units_[u].issued || !llvm::all_of(units_[u].preds,
                                              [&](size_t p) { return units_[p].issued; }))
          continue;
        int64_t ready = std::max(readyAt(u), clock_.now());
        candidates.push_back({u, ready});
        if (best == units_.size() || ready < bestReady ||
            (ready == bestReady && pathToEnd_[u] > pathToEnd_[best])) {
          best = u;
          bestReady = ready;
        }
      }
      // A weight stream whose engines free within one DMA start-up goes first when its path is
      // longer: its command takes the queue a cycle per part, and every cycle it waits leaves
      // HBM idle at the end.
      const int64_t window = bestReady + defaultTarget().dmaStartupCycles;
      for (auto [u, ready] : candidates)
        if (ready <= window && isStream(units_[u]) && pathToEnd_[u] > pathToEnd_[best])
          best = u;
      // A pass that would fill the queue while a pass with a longer path is not ready yet
      // waits for that one if it is ready before the filler's configuration loads would end:
      // those loads would only hold it up.
      if (!units_[best].isDma) {
        int64_t loadsEnd = bestReady + loadCycles(units_[best]);
        size_t longer = best;
        for (auto [u, ready] : candidates)
          if (!units_[u].isDma && ready <= loadsEnd && pathToEnd_[u] > pathToEnd_[longer])
            longer = u;
        best = longer;
      }
      issue(best);
      issueOrder_.push_back(best);
    }
    // The kernel ends when everything it started has ended.
    SmallVector<size_t> open;
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

  int64_t makespan() const { return clock_.makespan(); }

  /// Sets each DMA part's `partAfter` from the final times: a part that started after its
  /// unit issued, when its engine's previous DMA ended there, waited for that DMA.
  void resolveEngineWaits() {
    for (Unit &unit : units_)
      for (size_t p = 0; p < unit.partStarts.size(); ++p) {
        int64_t prev = unit.prevOnEngine[p];
        bool held = prev >= 0 && unit.partStarts[p] > unit.issuedAt &&
                    endOnEngine(units_[prev], unit.parts[p].engine) == unit.partStarts[p];
        unit.partAfter.push_back(held ? prev : -1);
      }
  }

  /// When DMA unit `unit`'s part on `engine` ended (its last one there).
  static int64_t endOnEngine(const Unit &unit, int64_t engine) {
    int64_t end = -1;
    for (size_t p = 0; p < unit.parts.size() && p < unit.partEnds.size(); ++p)
      if (unit.parts[p].engine == engine)
        end = std::max(end, unit.partEnds[p]);
    return end;
  }
  const SmallVector<Wait> &finalWaits() const { return finalWaits_; }
  const std::vector<size_t> &issueOrder() const { return issueOrder_; }

private:
  /// A unit's own cycles: a pass with its configuration loads, a DMA's longest part.
  static int64_t ownCycles(const Unit &unit) {
    int64_t own = unit.cycles + loadCycles(unit);
    for (const DmaPart &part : unit.parts)
      own = std::max(own, part.cycles);
    return own;
  }

  /// The queue cycles of a pass's configuration loads if every word loaded (an upper bound:
  /// at issue only the words that change load).
  static int64_t loadCycles(const Unit &unit) {
    int64_t cycles = 0;
    for (const Unit::Block &b : unit.blocks)
      cycles += configLoadCycles(defaultTarget(), isa::wholeBlockMask(*isa::findUnit(b.unit)));
    return cycles;
  }

  static bool isStream(const Unit &unit) {
    return !unit.parts.empty() && unit.parts.front().stream;
  }

  /// Each unit's own cycles plus the longest chain of dependent units after it.
  void computeCriticalPaths() {
    pathToEnd_.assign(units_.size(), 0);
    for (size_t u = units_.size(); u-- > 0;) {
      const Unit &unit = units_[u];
      pathToEnd_[u] += ownCycles(unit);
      for (size_t p : unit.preds)
        pathToEnd_[p] = std::max(pathToEnd_[p], pathToEnd_[u]);
    }
  }

  /// What `u` must wait for before it issues.
  SmallVector<size_t> blockers(size_t u) const {
    const Unit &unit = units_[u];
    SmallVector<size_t> out;
    for (size_t p : unit.preds)
      if (!units_[p].retired)
        out.push_back(p);
    if (!unit.isDma && context_[unit.context] >= 0)
      out.push_back(static_cast<size_t>(context_[unit.context]));
    if (unit.isDma) { // free enough tags, oldest DMAs first
      size_t free = isa::kMaxTag + 1 - tagsTaken_;
      for (size_t i = 0; free < unit.parts.size() && i < tagsInFlight_.size(); ++i) {
        out.push_back(tagsInFlight_[i]);
        free += units_[tagsInFlight_[i]].tags.size();
      }
    }
    llvm::sort(out);
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// When unit `u` ends if nothing more were issued (a DMA's end can still move while later
  /// DMAs share its bandwidth).
  int64_t projectedEnd(size_t u) const {
    const Unit &unit = units_[u];
    if (!unit.isDma)
      return unit.span.end;
    int64_t end = 0;
    for (QueueClock::DmaId id : unit.dmas)
      end = std::max(end, clock_.dmaSpan(id).end);
    return end;
  }

  int64_t readyAt(size_t u) {
    int64_t ready = clock_.now();
    for (size_t b : blockers(u))
      ready = std::max(ready, projectedEnd(b));
    // A DMA starts once its engines take it: a stream when its first engine frees, any other
    // DMA when the engines its parts would take have.
    const Unit &unit = units_[u];
    if (unit.isDma && !unit.parts.empty()) {
      bool stream = isStream(unit);
      int64_t engines = stream ? INT64_MAX : 0;
      for (const DmaPart &part : unit.parts) {
        if (leaves(u, part.engine))
          continue;
        int64_t free = clock_.engineFree(stream ? part.engine : pickEngine(part.engine));
        engines = stream ? std::min(engines, free) : std::max(engines, free);
      }
      // A stream whose cluster's spare engine is idle issues one start-up early, so that the
      // spare streams while the others start.
      if (stream) {
        int64_t early = std::max(engines - defaultTarget().dmaStartupCycles, clock_.now());
        for (const DmaPart &part : unit.parts)
          if (clock_.engineFree(spareOf(part.engine)) <= early &&
              spareUsable(spareOf(part.engine), early)) {
            engines = early;
            break;
          }
      }
      ready = std::max(ready, engines);
    }
    return ready;
  }

  /// Whether unit `u`, the kernel's first weight stream, leaves `engine` to the streams after
  /// it: the last of its cluster's stream engines, whose part of the next stream then starts
  /// at once, so that stream's start-up overlaps this one and the change between the two
  /// leaves one engine streaming instead of none.
  bool leaves(size_t u, int64_t engine) const {
    const TargetModel &t = defaultTarget();
    int64_t perCluster = t.dmaEngines / t.clusters;
    return static_cast<int64_t>(u) == leftBy_ && engine % perCluster == perCluster - 2;
  }

  static int64_t spareOf(int64_t engine) {
    const TargetModel &t = defaultTarget();
    int64_t perCluster = t.dmaEngines / t.clusters;
    return engine / perCluster * perCluster + perCluster - 1;
  }

  /// The earliest the spare engine `spare` may be needed again: the earliest any DMA not yet
  /// issued that runs on it (a small one) could start, from its predecessors' projected ends
  /// and the own cycles of those not yet issued (no contention counted, so never late).
  /// Result stores of at most `tail` cycles do not count: for the cluster's last stream, they
  /// can run on the engines it leaves idle while its tail (the work after it) runs.
  int64_t spareNeed(int64_t spare, int64_t tail = 0) {
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
          e = std::max(e, timed ? projectedEnd(p) : estimates_[p] + ownCycles(units_[p]));
        }
        estimates_[u] = e;
      }
    }
    int64_t need = INT64_MAX;
    for (size_t u = 0; u < units_.size(); ++u) {
      const Unit &unit = units_[u];
      if (unit.issued || !unit.isDma || isStream(unit))
        continue;
      if (unit.resultStore && ownCycles(unit) <= tail)
        continue;
      if (llvm::any_of(unit.parts, [&](const DmaPart &p) { return p.engine == spare; }))
        need = std::min(need, estimates_[u]);
    }
    return need;
  }

  /// Whether the spare engine, once free, can stream from `at` (after a start-up) for at least
  /// another start-up's worth of cycles before a small DMA needs it (spareNeed).
  bool spareUsable(int64_t spare, int64_t at, int64_t tail = 0) {
    int64_t startup = defaultTarget().dmaStartupCycles;
    at = std::max(at, clock_.engineFree(spare));
    return spareNeed(spare, tail) - (at + startup) >= startup;
  }

  /// Waits for each unit in `which` (each part of a DMA), earliest end first; returns the
  /// wait commands. `heldBy` becomes the last unit whose end held the queue (else unchanged).
  SmallVector<Wait> retire(const SmallVector<size_t> &which, int64_t &heldBy) {
    struct Pending {
      int64_t end;
      size_t unit;
      int64_t part; // -1: the unit's context
    };
    SmallVector<Pending> waits;
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
    SmallVector<tcp::Wait> out;
    for (const Pending &w : waits) {
      Unit &unit = units_[w.unit];
      if (w.end > clock_.now() + defaultTarget().commandIssueCycles)
        heldBy = static_cast<int64_t>(w.unit);
      if (w.part >= 0) {
        clock_.waitDma(unit.dmas[w.part]);
        int64_t tag = unit.tags[w.part];
        out.push_back(tcp::Wait::forTag(tag));
        freeTags_.push_back(tag);
        --tagsTaken_;
      } else {
        clock_.wait(w.end);
        out.push_back(tcp::Wait::forContext(unit.context == 0 ? Queue::main : Queue::sub));
        context_[unit.context] = -1;
      }
      unit.retired = true;
    }
    for (size_t w : which)
      llvm::erase(tagsInFlight_, w);
    return out;
  }

  void issue(size_t u) {
    Unit &unit = units_[u];
    // A pass loads the blocks of units the running pass on its register bank does not use
    // before it waits (the queue would only idle), the others after. Main's passes take its
    // two banks in turn, so a main pass loads everything while the one before it runs. A load
    // writes only the register words that differ from what the bank holds (none: no load).
    SmallVector<uint64_t> late;
    if (!unit.isDma) {
      if (unit.context == 0) {
        unit.bank = nextMainBank_;
        nextMainBank_ = (nextMainBank_ + 1) % isa::kMainBanks;
      }
      int64_t bank = unit.context == 0 ? unit.bank : isa::kMainBanks;
      int64_t running = lastOnBank_[bank];
      lastOnBank_[bank] = static_cast<int64_t>(u);
      uint16_t inUse = running >= 0 && units_[running].span.end > clock_.now()
                           ? units_[running].execUnits
                           : 0;
      for (const Unit::Block &block : unit.blocks) {
        uint64_t mask = changedWords(registers_[bank][static_cast<size_t>(block.unit) & 15],
                                     block.words);
        unit.loadMasks.push_back(static_cast<int64_t>(mask));
        registers_[bank][static_cast<size_t>(block.unit) & 15] = block.words;
        if (mask == 0)
          continue;
        if (inUse & isa::execBit(block.unit)) {
          late.push_back(mask);
          continue;
        }
        clock_.load(mask);
        unit.earlyLoads.push_back({static_cast<uint32_t>(block.unit)});
      }
    }
    int64_t heldBy = -1;
    unit.waits = retire(blockers(u), heldBy);
    unit.issuedAt = clock_.now();
    if (heldBy >= 0) {
      unit.after = heldBy;
      unit.why = IssueReason::waits;
    } else if (!issueOrder_.empty()) {
      unit.after = static_cast<int64_t>(issueOrder_.back());
      unit.why = IssueReason::queue;
    }
    unit.issued = true;
    if (unit.isDma) {
      balanceStreams(u);
      splitOverIdleEngines(unit);
      for (DmaPart &part : unit.parts) {
        if (!isStream(unit) && unit.chunks.empty())
          part.engine = pickEngine(part.engine);
        unit.prevOnEngine.push_back(lastOnEngine_[part.engine & 15]);
        lastOnEngine_[part.engine & 15] = static_cast<int64_t>(u);
        unit.tags.push_back(nextTag());
        ++tagsTaken_;
        unit.dmas.push_back(clock_.dma(part.engine, part.cycles, part.traffic));
      }
      tagsInFlight_.push_back(u);
      return;
    }
    for (uint64_t mask : late)
      clock_.load(mask);
    unit.span = clock_.exec(unit.context, unit.cycles);
    context_[unit.context] = static_cast<int64_t>(u);
  }

  /// The kernel's last DMA to issue (typically the store of its result) spreads over its
  /// cluster's engines that are idle: each part pays its own start-up, all at once, on a share
  /// of the packets (500 + packets / 4 cycles instead of 500 + packets). Earlier DMAs stay
  /// whole: one spread over every idle engine could hold up the next.
  void splitOverIdleEngines(Unit &unit) {
    if (isStream(unit) || unit.parts.empty() ||
        llvm::any_of(units_, [&](const Unit &o) { return &o != &unit && o.isDma && !o.issued; }))
      return;
    const TargetModel &t = defaultTarget();
    const int64_t perCluster = t.dmaEngines / t.clusters;
    SmallVector<int64_t> chunks;
    bool split = false;
    for (const DmaPart &part : unit.parts) {
      int64_t base = part.engine / perCluster * perCluster, n = part.cutIterations;
      SmallVector<int64_t> idle;
      for (int64_t e = base; e < base + perCluster; ++e)
        if (clock_.engineFree(e) <= clock_.now())
          idle.push_back(e);
      if (n == 0)
        return; // a piece with no loop to cut: leave the DMA whole
      int64_t count = std::min<int64_t>(static_cast<int64_t>(idle.size()), n);
      // Fewer packets per part must save more than the extra commands cost.
      if (count >= 2 && part.packets - part.packets / count > count) {
        split = true;
      } else { // whole, on the engine pickEngine would give it
        idle.assign(1, pickEngine(part.engine));
        count = 1;
      }
      SmallVector<int64_t> sizes(perCluster, 0);
      for (int64_t c = 0; c < count; ++c)
        sizes[idle[c] - base] = (c + 1) * n / count - c * n / count;
      chunks.append(sizes.begin(), sizes.end());
    }
    if (!split)
      return;
    std::vector<DmaPart> parts =
        unit.plan ? dmaParts(*unit.plan, chunks) : indirectDmaParts(*unit.indirect, chunks);
    if (parts.empty())
      return;
    unit.parts = std::move(parts);
    unit.chunks = chunks;
  }

  /// Re-cuts a weight stream so that its parts end together (or one start-up apart, see
  /// below): an engine that frees earlier (its previous work projected to end sooner) takes
  /// more of the split loop's iterations. The cluster's spare engine, when idle, takes a part
  /// too, ending before a small DMA could need it. Streams share HBM, so each runs at about
  /// HBM's rate over the stream engines' total.
  void balanceStreams(size_t u) {
    Unit &unit = units_[u];
    if (!unit.plan || !isStream(unit))
      return;
    const TargetModel &t = defaultTarget();
    const int64_t perCluster = t.dmaEngines / t.clusters;
    int64_t streams = 0;
    for (const DmaPart &part : unit.parts)
      streams += part.chunk > 0;
    double speed = std::min(1.0, double(t.hbmBytesPerCycle) /
                                     double(streams * t.dmaRequestBytes));
    SmallVector<int64_t> chunks;
    for (size_t first = 0; first < unit.parts.size();) {
      size_t last = first;
      while (last < unit.parts.size() && unit.parts[last].piece == unit.parts[first].piece)
        ++last;
      // Iterations and full-speed cycles per iteration of this piece.
      int64_t n = 0, dataCycles = 0;
      for (size_t p = first; p < last; ++p) {
        n += unit.parts[p].chunk;
        dataCycles += unit.parts[p].cycles - t.dmaStartupCycles;
      }
      double perIteration = double(dataCycles) / double(n) / speed;
      // Each engine of the cluster: when its data could start, how long after the common end
      // T it streams, and until when it may (the spare: before a small DMA could need it).
      // The parts end one start-up apart, engine by engine, when the spare streams too (three
      // engines then carry the cluster's share while the fourth starts its next part) and
      // another stream into the cluster follows (else the stagger would only delay this one).
      int64_t base = unit.parts[first].engine / perCluster * perCluster;
      const int64_t spareEngine = spareOf(base);
      const double never = std::numeric_limits<double>::infinity();
      auto inCluster = [&](const DmaPart &p) { return spareOf(p.engine) == spareEngine; };
      bool followed = llvm::any_of(units_, [&](const Unit &o) {
        return &o != &unit && !o.issued && isStream(o) && llvm::any_of(o.parts, inCluster);
      });
      // The last stream into the cluster: the cycles of work after it that it starts.
      int64_t tail = followed ? 0 : pathToEnd_[u] - ownCycles(unit);
      bool spareStreams = spareUsable(spareEngine, clock_.now(), tail);
      SmallVector<double> ready, after, cap;
      for (int64_t e = base; e < base + perCluster; ++e) {
        bool spare = e == spareEngine;
        ready.push_back(double(std::max(clock_.engineFree(e), clock_.now()) +
                               t.dmaStartupCycles));
        bool usable = spare ? spareStreams
                            : e - base < static_cast<int64_t>(last - first) && !leaves(u, e);
        after.push_back(followed && spareStreams ? double((e - base) * t.dmaStartupCycles)
                                                 : 0.0);
        cap.push_back(!usable ? ready.back() : spare ? double(spareNeed(e, tail)) : never);
      }
      // The common end T: the engines' iterations up to T (each from its ready time to the
      // earlier of T + after and its cap) add up to n.
      auto window = [&](size_t i, double end) {
        return std::max(0.0, std::min(end + after[i], cap[i]) - ready[i]);
      };
      auto iterations = [&](double end) {
        double sum = 0;
        for (size_t i = 0; i < ready.size(); ++i)
          sum += window(i, end) / perIteration;
        return sum;
      };
      auto solve = [&] {
        double lo = *llvm::min_element(ready) - *llvm::max_element(after);
        double hi = *llvm::max_element(ready) + n * perIteration;
        for (int k = 0; k < 100; ++k) {
          double mid = (lo + hi) / 2;
          (iterations(mid) < double(n) ? lo : hi) = mid;
        }
        return hi;
      };
      double hi = solve();
      // With `staggerBusySpare_`, also when the spare is busy now but frees three start-ups
      // before the parts would end: the next stream's parts then start one at a time, and the
      // spare may carry that stream's part while they do.
      if (staggerBusySpare_ && followed && !spareStreams &&
          clock_.engineFree(spareEngine) + 3 * t.dmaStartupCycles <= hi) {
        for (int64_t e = base; e < base + perCluster; ++e)
          after[e - base] = double((e - base) * t.dmaStartupCycles);
        hi = solve();
      }
      // Staggered ends only when every engine that could stream does; else (a short stream)
      // some would just end later than they could have.
      for (size_t i = 0; i < ready.size(); ++i)
        if (cap[i] > ready[i] && window(i, hi) == 0) {
          after.assign(after.size(), 0.0);
          hi = solve();
          break;
        }
      // Whole iterations: floors, then the rest to the largest remainders.
      SmallVector<int64_t> size;
      SmallVector<double> rest;
      int64_t given = 0;
      for (size_t i = 0; i < ready.size(); ++i) {
        double share = window(i, hi) / perIteration;
        size.push_back(static_cast<int64_t>(std::floor(share)));
        rest.push_back(cap[i] <= ready[i] ? -1.0 : share - std::floor(share)); // -1: unusable
        given += size.back();
      }
      for (; given < n; ++given) {
        size_t best = 0;
        for (size_t i = 1; i < rest.size(); ++i)
          if (rest[i] > rest[best])
            best = i;
        ++size[best];
        rest[best] = -1;
      }
      for (; given > n; --given) // rounding never gives more, but stay exact
        for (int64_t &sz : llvm::reverse(size))
          if (sz > 0) {
            --sz;
            break;
          }
      chunks.append(size.begin(), size.end());
      first = last;
    }
    unit.chunks = chunks;
    unit.parts = dmaParts(*unit.plan, chunks);
  }

  /// A cluster's fourth (spare) engine carries the small DMAs; such a DMA takes whichever
  /// engine of the cluster frees first (the spare on ties), so small DMAs do not queue behind
  /// each other once the weight streams are done. Stream parts keep their engine.
  int64_t pickEngine(int64_t engine) const {
    const TargetModel &t = defaultTarget();
    if (engine != spareOf(engine))
      return engine;
    int64_t best = engine;
    for (int64_t e = engine - t.dmaEngines / t.clusters + 1; e < engine; ++e)
      if (clock_.engineFree(e) < clock_.engineFree(best))
        best = e;
    return best;
  }

  int64_t nextTag() {
    if (!freeTags_.empty()) {
      int64_t tag = freeTags_.front();
      freeTags_.erase(freeTags_.begin());
      return tag;
    }
    return unusedTag_++;
  }

  std::vector<Unit> &units_;
  std::vector<int64_t> pathToEnd_; // critical path from each unit to the kernel's end
  QueueClock clock_;
  int64_t context_[2] = {-1, -1};      // unit running on main / sub, not yet waited for
  int64_t lastOnBank_[isa::kMainBanks + 1] = {-1, -1, -1}; // last pass per bank: main's, sub's
  std::vector<uint64_t> registers_[isa::kMainBanks + 1][16]; // per bank and unit: its words
  int64_t nextMainBank_ = 0;           // the bank of the next main pass
  int64_t lastOnEngine_[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                               -1, -1, -1, -1, -1, -1, -1, -1}; // DMA unit last given each engine
  SmallVector<size_t> tagsInFlight_;   // DMA units not yet waited for, in issue order
  size_t tagsTaken_ = 0;               // their parts' tags
  SmallVector<int64_t> freeTags_;      // retired tags, reused oldest first
  int64_t unusedTag_ = 0;
  SmallVector<Wait> finalWaits_;
  std::vector<size_t> issueOrder_;
  std::vector<int64_t> estimates_; // spareNeed's earliest starts, as of estimatesAt_ issues
  bool staggerBusySpare_;
  int64_t leftBy_ = -1; // the first weight stream when it leaves an engine (leaves)
  size_t estimatesAt_ = 0;
};

SmallVector<int64_t> engines(const Unit &unit) {
  SmallVector<int64_t> out;
  for (const DmaPart &part : unit.parts)
    out.push_back(part.engine);
  return out;
}

LogicalResult scheduleFunction(func::FuncOp func, StringRef staggerBusySpare,
                               StringRef leaveEngine, int64_t &makespan) {
  std::vector<Unit> units;
  for (Operation &op : func.getBody().front()) {
    if (isDmaUnit(&op)) {
      units.emplace_back();
      if (failed(dmaUnit(&op, units.back())))
        return failure();
    } else if (isPassEnd(&op)) {
      units.emplace_back();
      if (failed(passUnit(&op, units.back())))
        return failure();
    }
  }
  // Up to four runs: with and without staggering the streams whose spare is busy (the next
  // stream may then find its spare taken by a small DMA), each with and without the first
  // weight stream leaving an engine to the next; which helps depends on the kernel, so the
  // shortest schedule is kept (ties: the earlier run, the plain one first).
  linkUnits(units);
  auto tries = [](StringRef option, bool on) {
    return option == "best" || (option == "always") == on;
  };
  std::deque<std::vector<Unit>> runs; // a deque: each scheduler holds a reference to its run
  std::vector<std::unique_ptr<ListScheduler>> schedulers;
  for (bool leave : {false, true})
    for (bool stagger : {false, true})
      if (tries(leaveEngine, leave) && tries(staggerBusySpare, stagger)) {
        runs.push_back(units);
        schedulers.push_back(std::make_unique<ListScheduler>(runs.back(), stagger, leave));
      }
  size_t best = 0;
  for (size_t r = 0; r < schedulers.size(); ++r) {
    schedulers[r]->run();
    if (schedulers[r]->makespan() < schedulers[best]->makespan())
      best = r;
  }
  ListScheduler &scheduler = *schedulers[best];
  const std::vector<Unit> &chosen = runs[best];
  MLIRContext *ctx = func.getContext();
  std::vector<int64_t> orderOf(chosen.size());
  for (size_t i = 0; i < scheduler.issueOrder().size(); ++i)
    orderOf[scheduler.issueOrder()[i]] = static_cast<int64_t>(i);
  int64_t order = 0;
  for (size_t u : scheduler.issueOrder()) {
    const Unit &unit = chosen[u];
    SmallVector<int64_t> partAfter;
    for (int64_t a : unit.partAfter)
      partAfter.push_back(a < 0 ? -1 : orderOf[a]);
    Queue context = unit.isDma ? Queue::tdma : unit.context == 0 ? Queue::main : Queue::sub;
    auto schedule = ScheduleAttr::get(
        ctx, order++, context, unit.span.start, unit.span.end, unit.waits, unit.why,
        unit.after >= 0 ? orderOf[unit.after] : -1, engines(unit), unit.tags, unit.chunks,
        unit.partStarts, unit.partEnds, partAfter, unit.isDma ? 0 : unit.bank,
        unit.loadMasks, unit.earlyLoads, unit.holdsDma);
    unit.op->setAttr(kScheduleAttrName, schedule);
  }
  func->setAttr(kFinalWaitsAttrName, FinalWaitsAttr::get(ctx, scheduler.finalWaits()));
  makespan = scheduler.makespan();
  return success();
}

struct SchedulePass : public rngd::tcp::impl::TcpScheduleBase<SchedulePass> {
  using TcpScheduleBase::TcpScheduleBase;
  void runOnOperation() override {
    for (auto [name, value] : {std::pair<StringRef, StringRef>{"stagger-busy-spare",
                                                               staggerBusySpare},
                               {"leave-engine", leaveEngine}})
      if (value != "best" && value != "always" && value != "never") {
        getOperation().emitError("tcp-schedule: ")
            << name << " must be best, always or never, got '" << value << "'";
        return signalPassFailure();
      }
    int64_t makespan = 0;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(scheduleFunction(func, staggerBusySpare, leaveEngine, makespan)))
        return signalPassFailure();
    getOperation()->setAttr("tcp.makespan", Builder(getOperation()).getI64IntegerAttr(makespan));
  }
};

} // namespace
