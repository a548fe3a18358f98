// The list scheduler on small synthetic graphs: tags, banks, and the target's engine count.
#include "Helpers.h"

#include <catch2/catch.hpp>

using namespace rngd;
using namespace rngd::tcp::sched;
using namespace rngd::tcp::sched::test;

TEST_CASE("64 DMAs in flight take the 64 tags; the 65th waits for the oldest and reuses its tag") {
  std::vector<Unit> units;
  for (int64_t i = 0; i < 65; ++i)
    units.push_back(dma({Region::hbm(0, 0, 4096)}, {dm(i * 128, i * 128 + 64)}, 3, 600));
  schedule(units);
  std::vector<bool> seen(64, false);
  for (size_t i = 0; i < 64; ++i) {
    CHECK(units[i].waits.empty());
    REQUIRE(units[i].tags.size() == 1);
    REQUIRE(units[i].tags[0] >= 0);
    REQUIRE(units[i].tags[0] < 64);
    CHECK_FALSE(seen[units[i].tags[0]]);
    seen[units[i].tags[0]] = true;
  }
  CHECK(units[0].tags[0] == 0);
  REQUIRE(units[64].waits.size() == 1);
  CHECK(units[64].waits[0] == tcp::Wait::forTag(0));
  CHECK(units[64].tags == llvm::SmallVector<int64_t>{0});
  CHECK(units[64].why == tcp::IssueReason::waits);
  CHECK(units[64].after == 0);
  // Waiting for the oldest holds the queue until it ends.
  CHECK(units[64].issuedAt == units[0].span.end);
}

TEST_CASE("main's passes alternate banks and load only the words that changed") {
  const uint64_t whole = isa::wholeBlockMask(*isa::findUnit(isa::Unit::Fetch));
  std::vector<Unit> units = {
      pass({dm(0, 64)}, {dm(1024, 1088)}, 0, 100, /*fetchBase=*/0),
      pass({dm(128, 192)}, {dm(2048, 2112)}, 0, 100, /*fetchBase=*/0),
      pass({dm(256, 320)}, {dm(3072, 3136)}, 0, 100, /*fetchBase=*/1),
      pass({dm(384, 448)}, {dm(4096, 4160)}, 1, 100, /*fetchBase=*/0),
  };
  schedule(units);
  CHECK(units[0].bank == 0);
  CHECK(units[1].bank == 1);
  CHECK(units[2].bank == 0);
  CHECK(units[3].bank == 0); // sub's one bank
  CHECK(units[0].loadMasks == llvm::SmallVector<int64_t>{static_cast<int64_t>(whole)});
  CHECK(units[1].loadMasks == llvm::SmallVector<int64_t>{static_cast<int64_t>(whole)});
  CHECK(units[2].loadMasks == llvm::SmallVector<int64_t>{1}); // word 0 differs from unit 0's
  CHECK(units[3].loadMasks == llvm::SmallVector<int64_t>{static_cast<int64_t>(whole)});
  // The second main pass loads into bank 1 while the first runs, then starts as it ends.
  CHECK(units[1].earlyLoads.size() == 1);
  CHECK(units[1].span.start == units[0].span.end);
  REQUIRE(units[1].waits.size() == 1);
  CHECK(units[1].waits[0] == tcp::Wait::forContext(tcp::Queue::main));
}

TEST_CASE("the clock keeps one queue per engine of the target, past 16 engines too") {
  TargetModel wide;
  wide.name = "test-32-engines";
  wide.clusters = 4;
  wide.dmaEngines = 32;
  QueueClock clock(wide);
  // Engines 4 and 20 are different engines (a mask of 15 would have queued them together).
  clock.dma(4, 800);
  clock.dma(20, 800);
  clock.finish();
  CHECK(clock.dmaSpan(0).start == 0);
  CHECK(clock.dmaSpan(1).start == 1);
  CHECK(clock.engineFree(20) == 801);
  CHECK(clock.engineFree(31) == 0);
}

TEST_CASE("the clock shares the DM intake of each of the target's clusters") {
  TargetModel four;
  four.name = "test-4-clusters";
  four.clusters = 4;
  four.dmaEngines = 16;
  const int64_t bytes = 1024 * 1000; // 1,000 cycles at the intake's full 1,024 B/cycle
  DmaTraffic toCluster3;
  toCluster3.dmWriteBytes[3] = bytes;
  DmaTraffic toCluster2;
  toCluster2.dmWriteBytes[2] = bytes;
  const int64_t cycles = four.dmaStartupCycles + 1000;
  SECTION("two DMAs into cluster 3 share its intake") {
    QueueClock clock(four);
    clock.dma(12, cycles, toCluster3);
    clock.dma(13, cycles, toCluster3);
    clock.finish();
    CHECK(clock.dmaSpan(1).end > clock.dmaSpan(1).start + cycles + 900);
  }
  SECTION("DMAs into clusters 2 and 3 do not slow each other") {
    QueueClock clock(four);
    clock.dma(8, cycles, toCluster2);
    clock.dma(12, cycles, toCluster3);
    clock.finish();
    CHECK(clock.dmaSpan(1).end == clock.dmaSpan(1).start + cycles);
  }
}

TEST_CASE("the first pass on a bank loads before an earlier unit's waits, where the queue idles") {
  std::vector<Unit> units = {
      dma({Region::hbm(0, 0, 16384)}, {dm(0, 64)}, 3, 756), // x
      pass({dm(0, 64)}, {dm(128, 192)}, 0, 5),              // A: x -> a (bank 0)
      pass({dm(128, 192)}, {dm(256, 320)}, 0, 5),           // B: a -> b (bank 1)
  };
  int64_t makespan = schedule(units);
  // A's own wait for x hides its loads; B's loads (its bank unused so far) would follow A's
  // issue and hold B past A's end, so they go before A's wait for x instead.
  CHECK(units[1].loadsBefore == -1);
  CHECK(units[2].bank == 1);
  CHECK(units[2].loadsBefore == 1);
  CHECK(units[1].span.start == 756);
  CHECK(units[2].span.start == units[1].span.end);
  CHECK(makespan == 766);
  SECTION("a pass on a bank used before loads at its own place") {
    std::vector<Unit> more = {
        dma({Region::hbm(0, 0, 16384)}, {dm(0, 64)}, 3, 756),
        pass({dm(0, 64)}, {dm(128, 192)}, 0, 5),
        pass({dm(128, 192)}, {dm(256, 320)}, 0, 5),
        pass({dm(256, 320)}, {dm(384, 448)}, 0, 5, /*fetchBase=*/1), // bank 0 again
    };
    schedule(more);
    CHECK(more[3].bank == 0);
    CHECK(more[3].loadsBefore == -1);
  }
}

TEST_CASE("unlockDmas: a short pass that feeds a DMA runs before a longer pass, the DMA beside it") {
  // 0: a long pass; 1: a short pass whose result DMA 2 copies; 3 needs both 0's and 2's results.
  auto build = [] {
    return std::vector<Unit>{
        pass({dm(0, 64)}, {dm(1024, 1088)}, 0, 4000),
        pass({dm(128, 192)}, {dm(2048, 2112)}, 0, 200),
        dma({dm(2048, 2112)}, {dm(3072, 3136)}, 3, 1500),
        pass({dm(1024, 1088), dm(3072, 3136)}, {dm(4096, 4160)}, 0, 200),
    };
  };
  std::vector<Unit> plain = build(), unlocking = build();
  int64_t before = schedule(plain);
  SchedulerOptions o;
  o.unlockDmas = true;
  int64_t after = schedule(unlocking, defaultTarget(), o);
  // Plain: the longer path (0) first, the DMA after the short pass, after 0.
  CHECK(plain[1].span.start >= plain[0].span.end);
  CHECK(plain[2].span.start >= plain[1].span.end);
  // Unlocking: 1 first, its DMA while 0 runs; 3 follows 0 directly.
  CHECK(unlocking[0].span.start >= unlocking[1].span.end);
  CHECK(unlocking[2].span.end <= unlocking[0].span.end);
  CHECK(after < before);
  CHECK(before - after >= 1500 - 200); // the DMA's cycles hidden, less the short pass's
}
