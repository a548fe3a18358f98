// The scheduler's policies alone: tags, register banks, engine choice, which unit goes next,
// and how a stream's iterations are shared.
#include "Helpers.h"

#include "dialects/tcp/Transforms/Schedule/Choice.h"
#include "dialects/tcp/Transforms/Schedule/Engines.h"

#include <catch2/catch.hpp>

using namespace rngd;
using namespace rngd::tcp::sched;
using namespace rngd::tcp::sched::test;

TEST_CASE("tags: 64 in flight, then the oldest DMA is waited for and its tag reused") {
  TagPool tags;
  CHECK(tags.free() == 64);
  for (size_t unit = 0; unit < 32; ++unit) { // 32 DMAs of two parts each
    CHECK(tags.take() == static_cast<int64_t>(2 * unit));
    CHECK(tags.take() == static_cast<int64_t>(2 * unit + 1));
    tags.inFlight(unit, 2);
  }
  CHECK(tags.free() == 0);
  CHECK(tags.toFree(1) == llvm::SmallVector<size_t>{0});
  CHECK(tags.toFree(3) == llvm::SmallVector<size_t>{0, 1});
  // Unit 1 retires first (it ended first): its tags come back, oldest released first.
  tags.release(3);
  tags.release(2);
  tags.retired(1);
  CHECK(tags.free() == 2);
  CHECK(tags.toFree(2).empty());
  CHECK(tags.toFree(3) == llvm::SmallVector<size_t>{0});
  CHECK(tags.take() == 3);
  CHECK(tags.take() == 2);
}

TEST_CASE("register banks: main's passes alternate its two banks, sub has one") {
  RegisterBanks banks;
  CHECK(banks.take(0) == 0);
  CHECK(banks.take(1) == 0);
  CHECK(banks.take(0) == 1);
  CHECK(banks.take(0) == 0);
  CHECK(RegisterBanks::slot(0, 1) == 1);
  CHECK(RegisterBanks::slot(1, 0) == static_cast<int64_t>(isa::kMainBanks));
  CHECK(banks.exchangeLast(1, 7) == -1);
  CHECK(banks.exchangeLast(1, 9) == 7);
  // Loads write only the words that differ from what the bank holds.
  std::vector<uint64_t> words = {5, 6, 7};
  CHECK(banks.load(0, isa::Unit::Fetch, words) == 0b111);
  CHECK(banks.load(0, isa::Unit::Fetch, words) == 0);
  CHECK(banks.load(1, isa::Unit::Fetch, words) == 0b111); // another bank holds nothing yet
  words[1] = 60;
  CHECK(banks.load(0, isa::Unit::Fetch, words) == 0b010);
  CHECK(banks.load(0, isa::Unit::Commit, words) == 0b111); // another unit's registers
}

TEST_CASE("engine choice: a small DMA takes its cluster's engine that frees first") {
  const TargetModel &t = defaultTarget();
  EngineGeometry g(t);
  CHECK(g.perCluster == 4);
  CHECK(g.spareOf(1) == 3);
  CHECK(g.spareOf(6) == 7);
  CHECK(g.leftByFirstStream(2));
  CHECK(g.leftByFirstStream(6));
  CHECK_FALSE(g.leftByFirstStream(3));
  QueueClock clock(t);
  CHECK(pickEngine(t, clock, 3) == 3); // all idle: the spare
  clock.dma(3, 756);
  clock.dma(0, 1000);
  CHECK(pickEngine(t, clock, 3) == 1); // engine 1 is idle, the first such
  CHECK(pickEngine(t, clock, 7) == 7); // the other cluster's spare is idle
  CHECK(pickEngine(t, clock, 1) == 1); // a stream part keeps its engine
  clock.dma(1, 2000);
  clock.dma(2, 2000);
  CHECK(pickEngine(t, clock, 3) == 3); // the spare frees first (756)
  SECTION("the second target: one cluster of four engines") {
    const TargetModel &one = *findTarget("rngd-1cluster");
    CHECK(EngineGeometry(one).perCluster == 4);
    QueueClock c(one);
    c.dma(3, 900);
    CHECK(pickEngine(one, c, 3) == 0);
  }
}

TEST_CASE("engine choice in the scheduler: two DMAs for the spare take different engines") {
  std::vector<Unit> units = {
      dma({Region::hbm(0, 0, 16384)}, {dm(0, 64)}, 3, 756),
      dma({Region::hbm(1, 0, 16384)}, {dm(128, 192)}, 3, 756),
      pass({dm(0, 64)}, {dm(256, 320)}, 0, 100),
  };
  int64_t makespan = schedule(units);
  CHECK(units[0].engines() == llvm::SmallVector<int64_t>{3});
  CHECK(units[1].engines() == llvm::SmallVector<int64_t>{0});
  // Both DMAs start at once, the second one queue cycle later; tags 0 and 1.
  CHECK(units[0].span.start == 0);
  CHECK(units[1].span.start == 1);
  CHECK(units[0].tags == llvm::SmallVector<int64_t>{0});
  CHECK(units[1].tags == llvm::SmallVector<int64_t>{1});
  // The pass waits for A only, loading its block before that wait: it starts when A ends.
  REQUIRE(units[2].waits.size() == 1);
  CHECK(units[2].waits[0] == tcp::Wait::forTag(0));
  CHECK(units[2].span.start == 756);
  CHECK(units[2].why == tcp::IssueReason::waits);
  CHECK(units[2].earlyLoads.size() == 1);
  CHECK(makespan == 856);
}

TEST_CASE("the next unit: earliest ready, then the longest path; streams and the filler rule") {
  const int64_t startup = 500;
  SECTION("earliest ready wins, ties by the longest path, then program order") {
    std::vector<Candidate> c = {{0, 100, 10}, {1, 50, 5}, {2, 50, 7}, {3, 50, 7}};
    CHECK(chooseNext(c, startup) == 2);
  }
  SECTION("a stream ready within one start-up goes first when its path is longer") {
    std::vector<Candidate> c = {{0, 0, 100, true}, {1, 400, 900, true, true}};
    CHECK(chooseNext(c, startup) == 1);
    c[1].ready = 501; // past the window
    CHECK(chooseNext(c, startup) == 0);
  }
  SECTION("the filler rule: a pass waits for a longer-path pass ready before its loads end") {
    std::vector<Candidate> c = {{0, 100, 10, false, false, 40}, {1, 130, 50, false, false, 40}};
    CHECK(chooseNext(c, startup) == 1); // ready at 130 <= 100 + 40
    c[1].ready = 141;
    CHECK(chooseNext(c, startup) == 0); // would idle the queue past the filler's loads
    c[1].ready = 130;
    c[1].isDma = true; // only passes wait for passes
    CHECK(chooseNext(c, startup) == 0);
  }
  SECTION("shortStreamsFirst: a stream a quarter as long that would become critical goes first") {
    // 0: a 4,000-cycle stream (path 10,000); 1: a 1,000-cycle one whose path, 6,001, would
    // pass 10,000 if it waited for 0.
    std::vector<Candidate> c = {{0, 0, 10000, true, true}, {1, 0, 6001, true, true}};
    c[0].ownCycles = 4000;
    c[1].ownCycles = 1000; // at the limit: 4,000 / 4
    CHECK(chooseNext(c, startup) == 0); // the rule is off by default
    CHECK(chooseNext(c, startup, ChoiceRules{true, false}) == 1);
    c[1].ownCycles = 1001; // one past the limit
    CHECK(chooseNext(c, startup, ChoiceRules{true, false}) == 0);
    c[1].ownCycles = 1000;
    c[1].path = 6000; // waiting would only tie 0's path
    CHECK(chooseNext(c, startup, ChoiceRules{true, false}) == 0);
    c[1].path = 6001;
    c[1].ready = 1; // not ready as soon
    CHECK(chooseNext(c, startup, ChoiceRules{true, false}) == 0);
  }
  SECTION("criticalDmasFirst: a DMA on a longer path ready within the stream's cycles goes first") {
    // 0: a 6,000-cycle weight stream ready at once (path 40,000); 1: a store whose path is
    // longer (50,000), ready when the pass before it ends.
    std::vector<Candidate> c = {{0, 1000, 40000, true, true}, {1, 7000, 50000, true, false}};
    c[0].ownCycles = 6000;
    const ChoiceRules rule{false, false, true};
    CHECK(chooseNext(c, startup) == 0); // the rule is off by default
    CHECK(chooseNext(c, startup, rule) == 1); // at the limit: 1,000 + 6,000
    c[1].ready = 7001; // one past: the stream would have ended
    CHECK(chooseNext(c, startup, rule) == 0);
    c[1].ready = 4000;
    c[1].path = 40000; // not longer than the stream's
    CHECK(chooseNext(c, startup, rule) == 0);
    c[1].path = 50000;
    c[1].isDma = false; // a pass does not take the stream's engines
    CHECK(chooseNext(c, startup, rule) == 0);
    c[1].isDma = true;
    c.push_back({2, 5000, 60000, true, false}); // of two, the longest path
    CHECK(chooseNext(c, startup, rule) == 2);
  }
  SECTION("unlockDmas: a pass that leads to a DMA within half the first pick's cycles goes first") {
    std::vector<Candidate> c = {{0, 100, 900}, {1, 100, 500}, {2, 100, 400}};
    c[0].ownCycles = 1000;
    c[1].unlock = 500; // at the limit: 1000 / 2
    CHECK(chooseNext(c, startup) == 0); // the rule is off by default
    CHECK(chooseNext(c, startup, ChoiceRules{false, true}) == 1);
    c[2].unlock = 300; // the one that unlocks soonest
    CHECK(chooseNext(c, startup, ChoiceRules{false, true}) == 2);
    c[2].ready = 101; // not ready as soon as the first pick
    CHECK(chooseNext(c, startup, ChoiceRules{false, true}) == 1);
    c[1].unlock = 501; // one past the limit
    CHECK(chooseNext(c, startup, ChoiceRules{false, true}) == 0);
    c[1].unlock = 500;
    c[1].isDma = true; // the rule orders passes only
    CHECK(chooseNext(c, startup, ChoiceRules{false, true}) == 0);
  }
}

TEST_CASE("stream shares: the engines' iterations end together") {
  SECTION("three engines ready at once share evenly") {
    std::vector<StreamWindow> w(3, StreamWindow{500, 0, 1e18});
    double end = commonEnd(w, 90, 10);
    CHECK(end == Approx(800));
    CHECK(wholeIterations(w, end, 90, 10) == llvm::SmallVector<int64_t>{30, 30, 30});
  }
  SECTION("an engine freeing later takes fewer iterations") {
    std::vector<StreamWindow> w = {{500, 0, 1e18}, {500, 0, 1e18}, {800, 0, 1e18}};
    double end = commonEnd(w, 90, 10);
    CHECK(end == Approx(900));
    CHECK(wholeIterations(w, end, 90, 10) == llvm::SmallVector<int64_t>{40, 40, 10});
  }
  SECTION("an unusable engine (cap at its ready time) takes none; a capped one stops early") {
    std::vector<StreamWindow> w = {{500, 0, 1e18}, {500, 0, 600}, {500, 0, 500}};
    CHECK_FALSE(w[2].usable());
    double end = commonEnd(w, 60, 10);
    CHECK(end == Approx(1000));
    CHECK(wholeIterations(w, end, 60, 10) == llvm::SmallVector<int64_t>{50, 10, 0});
  }
  SECTION("staggered: each engine streams `after` cycles past the common end") {
    std::vector<StreamWindow> w = {{500, 0, 1e18}, {500, 500, 1e18}};
    double end = commonEnd(w, 200, 10);
    CHECK(end == Approx(1250));
    CHECK(wholeIterations(w, end, 200, 10) == llvm::SmallVector<int64_t>{75, 125});
  }
}
