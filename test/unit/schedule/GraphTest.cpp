// The dependence graph on small synthetic graphs: which units wait for which.
#include "Helpers.h"

#include <catch2/catch.hpp>

using namespace rngd;
using namespace rngd::tcp::sched;
using namespace rngd::tcp::sched::test;

TEST_CASE("two independent DMAs and a pass: the pass depends on the DMA it reads only") {
  std::vector<Unit> units = {
      dma({Region::hbm(0, 0, 16384)}, {dm(0, 64)}, 3, 756),     // A: loads x
      dma({Region::hbm(1, 0, 16384)}, {dm(128, 192)}, 3, 756),  // B: loads y
      pass({dm(0, 64)}, {dm(256, 320)}, 0, 100),                 // P: reads x
  };
  linkUnits(units);
  CHECK(units[0].preds.empty());
  CHECK(units[1].preds.empty());
  REQUIRE(units[2].preds.size() == 1);
  CHECK(units[2].preds[0] == 0);
  // Neither DMA writes HBM, so neither is a result store.
  CHECK_FALSE(units[0].resultStore);
  CHECK_FALSE(units[1].resultStore);
}

TEST_CASE("a write to HBM after a read of the same bytes waits for it (WAR on HBM)") {
  Unit load = dma({Region::hbm(0, 0, 1024)}, {dm(0, 64)}, 3, 600);
  SECTION("overlapping bytes") {
    std::vector<Unit> units = {load, dma({dm(128, 192)}, {Region::hbm(0, 512, 1536)}, 3, 600)};
    linkUnits(units);
    REQUIRE(units[1].preds.size() == 1);
    CHECK(units[1].preds[0] == 0);
    CHECK(units[1].resultStore); // nothing after it waits for it
  }
  SECTION("the next bytes of the same argument") {
    std::vector<Unit> units = {load, dma({dm(128, 192)}, {Region::hbm(0, 1024, 2048)}, 3, 600)};
    linkUnits(units);
    CHECK(units[1].preds.empty());
  }
  SECTION("the same bytes of another argument") {
    std::vector<Unit> units = {load, dma({dm(128, 192)}, {Region::hbm(1, 0, 1024)}, 3, 600)};
    linkUnits(units);
    CHECK(units[1].preds.empty());
  }
  SECTION("periodic views: the other half of every 256-byte row") {
    Region read = Region::hbm(0, 0, 4096), write = Region::hbm(0, 128, 4096);
    read.period = write.period = 256;
    read.run = write.run = 128;
    std::vector<Unit> units = {dma({read}, {dm(0, 64)}, 3, 600),
                               dma({dm(128, 192)}, {write}, 3, 600)};
    linkUnits(units);
    CHECK(units[1].preds.empty());
    write.lo = 64; // now half of each run overlaps
    units = {dma({read}, {dm(0, 64)}, 3, 600), dma({dm(128, 192)}, {write}, 3, 600)};
    linkUnits(units);
    CHECK(units[1].preds.size() == 1);
  }
  SECTION("the queue waits for the read's tag before issuing the write") {
    std::vector<Unit> units = {load, dma({dm(128, 192)}, {Region::hbm(0, 512, 1536)}, 3, 600)};
    schedule(units);
    REQUIRE(units[1].waits.size() == 1);
    CHECK(units[1].waits[0] == tcp::Wait::forTag(units[0].tags[0]));
    CHECK(units[1].span.start == units[0].span.end);
  }
}

TEST_CASE("DM regions on disjoint slices do not conflict") {
  Region c0 = Region::onSlices(Region::Dm, 0, 255, 0, 64);
  Region c1 = Region::onSlices(Region::Dm, 256, 511, 0, 64);
  CHECK_FALSE(c0.overlaps(c1));
  CHECK(c0.overlaps(dm(32, 96)));
  CHECK_FALSE(c0.overlaps(dm(64, 128))); // [0, 64) and [64, 128) touch, do not overlap
  Region trf = Region::onSlices(Region::Trf, 0, 255, 0, 64);
  CHECK_FALSE(c0.overlaps(trf)); // another memory
}

TEST_CASE("the same-bank rule: a pass that could starve a DMA does not overlap any DMA") {
  const TargetModel &t = defaultTarget();
  // A column of rows of 128 bytes (16 banks x 8 bytes): every access hits the same bank.
  CHECK(sameBankRun(t, {{64, 128}}) == 64);
  CHECK(passHoldsDma(t, sameBankRun(t, {{64, 128}})));
  CHECK_FALSE(passHoldsDma(t, sameBankRun(t, {{63, 128}})));
  Unit load = dma({Region::hbm(0, 0, 1024)}, {dm(0, 64)}, 3, 600);
  Unit p = pass({dm(1024, 1088)}, {dm(2048, 2112)}, 0, 100); // no memory in common
  CHECK_FALSE(conflicts(p, load));
  CHECK_FALSE(conflicts(load, p));
  p.holdsDma = true;
  CHECK(conflicts(p, load));
  CHECK(conflicts(load, p));
  // A pass holding the DMA context does not order other passes.
  CHECK_FALSE(conflicts(p, pass({dm(4096, 4160)}, {dm(8192, 8256)}, 1, 50)));
  // Scheduled, the DMA after it waits for the pass's end.
  std::vector<Unit> units = {p, load};
  schedule(units);
  REQUIRE(units[1].waits.size() == 1);
  CHECK(units[1].waits[0] == tcp::Wait::forContext(tcp::Queue::main));
  CHECK(units[1].span.start >= units[0].span.end);
}

TEST_CASE("passes on different contexts both using the Vector Engine are ordered") {
  Unit a = pass({dm(0, 64)}, {dm(128, 192)}, 0, 100);
  Unit b = pass({dm(256, 320)}, {dm(384, 448)}, 1, 100);
  CHECK_FALSE(conflicts(a, b));
  a.usesVector = b.usesVector = true;
  CHECK(conflicts(a, b));
  b.context = 0; // one context runs its passes in order anyway
  CHECK_FALSE(conflicts(a, b));
}

TEST_CASE("paths to the end add own cycles along the longest chain") {
  const TargetModel &t = defaultTarget();
  std::vector<Unit> units = {
      dma({Region::hbm(0, 0, 1024)}, {dm(0, 64)}, 3, 600),
      pass({dm(0, 64)}, {dm(128, 192)}, 0, 100),
      dma({dm(128, 192)}, {Region::hbm(1, 0, 1024)}, 3, 550),
  };
  linkUnits(units);
  std::vector<int64_t> paths = pathsToEnd(t, units);
  int64_t passOwn = 100 + wholeLoadCycles(t, units[1]);
  CHECK(wholeLoadCycles(t, units[1]) ==
        configLoadCycles(t, isa::wholeBlockMask(*isa::findUnit(isa::Unit::Fetch))));
  CHECK(paths[2] == 550);
  CHECK(paths[1] == passOwn + 550);
  CHECK(paths[0] == 600 + passOwn + 550);
}
