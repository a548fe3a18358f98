// DMA tags when a DMA's parts are re-cut as it issues (ListScheduler::cutParts): the kernel's
// last DMA spread over the idle engines and a weight stream lent its cluster's spare engine can
// end with more parts than the waits before them freed tags for. The scheduler then waits for
// the oldest DMAs in flight until every part has a tag of 0..63 that no DMA in flight holds.
#include "Helpers.h"

#include "dialects/tcp/Analysis/DmaParts.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>

using namespace rngd;
using namespace rngd::tcp;
using namespace rngd::tcp::sched;
using namespace rngd::tcp::sched::test;

namespace {

/// Replays the schedule's waits and tags in issue order, as the runtime would: every tag is
/// one of the ISA's, taken only while no DMA in flight holds it, every tag wait names a DMA in
/// flight, and a unit issues only after its DMA predecessors' tags were all waited for.
/// Returns the highest tag used.
int64_t replayTags(const std::vector<Unit> &units, const ListScheduler &scheduler) {
  std::map<int64_t, size_t> holder;   // tag -> DMA unit in flight holding it
  std::vector<size_t> open(units.size()); // per DMA unit: its parts not yet waited for
  int64_t highest = -1;
  auto wait = [&](const Wait &w) {
    if (w.on != Queue::tdma)
      return;
    auto it = holder.find(w.tag);
    REQUIRE(it != holder.end()); // a wait for a tag no DMA in flight holds
    --open[it->second];
    holder.erase(it);
  };
  for (size_t u : scheduler.issueOrder()) {
    const Unit &unit = units[u];
    for (const Wait &w : unit.waits)
      wait(w);
    for (size_t p : unit.preds)
      if (units[p].isDma)
        CHECK(open[p] == 0); // issued after its predecessor's every part was waited for
    REQUIRE(unit.tags.size() == (unit.isDma ? unit.parts.size() : 0));
    for (int64_t tag : unit.tags) {
      REQUIRE(tag >= 0);
      REQUIRE(tag <= isa::kMaxTag);
      REQUIRE(holder.count(tag) == 0); // reused while a DMA in flight holds it
      holder[tag] = u;
      highest = std::max(highest, tag);
    }
    open[u] = unit.tags.size();
  }
  for (const Wait &w : scheduler.finalWaits())
    wait(w);
  CHECK(holder.empty()); // the kernel ends after every DMA
  return highest;
}

/// `count` one-part DMAs of 600 cycles that no unit waits for, from one HBM range to disjoint
/// ones, on cluster 1 (engines 4..7): they keep their tags to the kernel's end.
void addResultStores(std::vector<Unit> &units, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    units.push_back(dma({Region::hbm(0, 0, 64)}, {Region::hbm(2, i * 64, i * 64 + 64)}, 7, 600));
}

/// A DMA of `plan` as buildUnits makes it (its parts as built, re-cut at issue).
Unit plannedDma(const DmaOpPlan &plan, Footprint reads, Footprint writes) {
  Unit u;
  u.isDma = true;
  u.plan = plan;
  u.parts = dmaParts(plan);
  u.reads = std::move(reads);
  u.writes = std::move(writes);
  return u;
}

/// The tags of the DMA units issued first, in issue order, `count` of them.
llvm::SmallVector<Wait> oldestTags(const std::vector<Unit> &units, const ListScheduler &s,
                                   size_t count) {
  llvm::SmallVector<Wait> out;
  for (size_t u : s.issueOrder())
    for (int64_t tag : units[u].tags)
      if (out.size() < count)
        out.push_back(Wait::forTag(tag));
  return out;
}

} // namespace

TEST_CASE("tags to free: the units the DMA waits for anyway count, then the oldest others") {
  TagPool tags(8);
  for (size_t unit = 0; unit < 4; ++unit) { // four DMAs of two parts: every tag taken
    tags.take();
    tags.take();
    tags.inFlight(unit, 2);
  }
  REQUIRE(tags.free() == 0);
  CHECK(tags.toFree(2) == llvm::SmallVector<size_t>{0});
  // Waiting for unit 2 anyway (a predecessor) frees two tags: nothing more for two parts...
  CHECK(tags.toFree(2, {2}).empty());
  // ...and for four, the oldest other unit.
  CHECK(tags.toFree(4, {2}) == llvm::SmallVector<size_t>{0});
  CHECK(tags.toFree(6, {0, 5}) == llvm::SmallVector<size_t>{1, 2});
  // Every unit in flight, when even that leaves too few.
  CHECK(tags.toFree(9) == llvm::SmallVector<size_t>{0, 1, 2, 3});
}

TEST_CASE("the last DMA, spread over idle engines, waits for tags for its parts as spread") {
  const TargetModel &t = defaultTarget();
  const int64_t window = t.dmSliceWindowBytes;
  // A store from 16 slices of cluster 0: 8 rows of 512 bytes, whole on engine 3 as built.
  DmaOpPlan store;
  store.target = &t;
  store.plan.loops = {{8, 32, 512}, {16, window, 32}};
  store.plan.packetBytes = 32;
  store.route = DmaRoute::DmToHbm;
  store.dmSource = DmLayout{};
  store.hbmDest = HbmLayout{};
  REQUIRE(dmaParts(store).size() == 1);

  std::vector<Unit> units;
  // A long pass writes what the store stores: the store issues after it, the kernel's last
  // DMA, when the 62 result stores on cluster 1 have ended and cluster 0's engines are idle.
  units.push_back(pass({}, {dm(0, 4096)}, 0, 30000));
  units.push_back(plannedDma(store, {dm(0, 4096)}, {Region::hbm(1, 0, 4096)}));
  addResultStores(units, 62);
  linkUnits(units);
  ListScheduler scheduler(t, units, {});
  scheduler.run();

  const Unit &last = units[1];
  CHECK(scheduler.issueOrder().back() == 1);
  // As built it needed one tag, and two were free; spread over the four idle engines it
  // needs four, so it also waits for the two oldest DMAs in flight (long ended), which costs
  // it only their wait commands.
  REQUIRE(last.parts.size() == 4);
  CHECK(last.chunks == llvm::SmallVector<int64_t>{2, 2, 2, 2});
  REQUIRE(last.waits.size() == 3);
  CHECK(last.waits[0] == Wait::forContext(Queue::main));
  CHECK(llvm::SmallVector<Wait>(last.waits.begin() + 1, last.waits.end()) ==
        oldestTags(units, scheduler, 2));
  CHECK(last.issuedAt <= units[0].span.end + 3 * t.commandIssueCycles);
  CHECK(replayTags(units, scheduler) == isa::kMaxTag);
}

TEST_CASE("the last DMA's waits and tags replay: no tag reused in flight, none above 63") {
  const TargetModel &t = defaultTarget();
  const int64_t window = t.dmSliceWindowBytes;
  DmaOpPlan store;
  store.target = &t;
  store.plan.loops = {{8, 32, 512}, {16, window, 32}};
  store.plan.packetBytes = 32;
  store.route = DmaRoute::DmToHbm;
  store.dmSource = DmLayout{};
  store.hbmDest = HbmLayout{};
  for (int64_t stores : {60, 61, 62, 63, 64, 100}) {
    CAPTURE(stores);
    std::vector<Unit> units;
    units.push_back(pass({}, {dm(0, 4096)}, 0, 60000 + 600 * stores));
    units.push_back(plannedDma(store, {dm(0, 4096)}, {Region::hbm(1, 0, 4096)}));
    addResultStores(units, stores);
    linkUnits(units);
    ListScheduler scheduler(t, units, {});
    scheduler.run();
    CHECK(replayTags(units, scheduler) <= isa::kMaxTag);
    const Unit &last = units[1];
    CHECK(last.parts.size() == 4);
    // It waits for just enough DMAs to free four tags; while no store has waited for
    // another (64 stores at most), those issued first.
    llvm::SmallVector<Wait> tagWaits;
    for (const Wait &w : last.waits)
      if (w.on == Queue::tdma)
        tagWaits.push_back(w);
    const int64_t tags = isa::kMaxTag + 1;
    int64_t inFlight = std::min<int64_t>(stores, tags);
    size_t needed = static_cast<size_t>(std::max<int64_t>(0, inFlight + 4 - tags));
    CHECK(tagWaits.size() == needed);
    if (stores <= tags)
      CHECK(tagWaits == oldestTags(units, scheduler, needed));
  }
}

TEST_CASE("a weight stream lent its spare engine waits for the tag of its fourth part") {
  const TargetModel &t = defaultTarget();
  const int64_t window = t.dmSliceWindowBytes;
  // 16 slices of cluster 0 each load 16 KB: 256 KB, streamed over engines 0..2 as built.
  DmaOpPlan load;
  load.target = &t;
  load.plan.loops = {{16, 2048, window}, {64, 256, 256}};
  load.plan.packetBytes = 256;
  load.route = DmaRoute::HbmToDm;
  load.hbmSource = HbmLayout{};
  load.dmDest = DmLayout{};
  REQUIRE(dmaParts(load).size() == 3);

  std::vector<Unit> units;
  // The stream overwrites what a long pass reads (it waits for the pass), then a short pass
  // reads it. Meanwhile 61 result stores take 61 tags: three are free when it issues.
  units.push_back(pass({dm(0, 16384)}, {dm(1 << 16, (1 << 16) + 64)}, 0, 20000));
  units.push_back(plannedDma(load, {Region::hbm(0, 0, 1 << 18)}, {dm(0, 16384)}));
  units.push_back(pass({dm(0, 16384)}, {dm(1 << 17, (1 << 17) + 64)}, 0, 100));
  addResultStores(units, 61);
  for (size_t s = 3; s < units.size(); ++s) // the stores read another argument
    units[s].reads = {Region::hbm(3, 0, 64)};
  linkUnits(units);
  ListScheduler scheduler(t, units, {});
  scheduler.run();
  CHECK(replayTags(units, scheduler) <= isa::kMaxTag);
  const Unit &stream = units[1];
  REQUIRE(stream.isStream());
  // Re-cut over the four engines (the spare is idle and no small DMA needs it): four parts
  // for three free tags, so it waits for the oldest DMA in flight too.
  REQUIRE(stream.parts.size() == 4);
  REQUIRE(stream.waits.size() == 2);
  CHECK(stream.waits[0] == Wait::forContext(Queue::main));
  CHECK(stream.waits[1] == oldestTags(units, scheduler, 1)[0]);
}

TEST_CASE("300 DMAs nothing waits for reuse the 64 tags, oldest first") {
  std::vector<Unit> units;
  addResultStores(units, 300);
  linkUnits(units);
  ListScheduler scheduler(defaultTarget(), units, {});
  scheduler.run();
  CHECK(replayTags(units, scheduler) == isa::kMaxTag);
  for (size_t u = 64; u < units.size(); ++u) {
    REQUIRE(units[u].waits.size() == 1);
    CHECK(units[u].waits[0] == Wait::forTag(units[u - 64].tags[0]));
    CHECK(units[u].tags == units[u - 64].tags);
  }
}
