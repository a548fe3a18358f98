// The cost model reproduces the worked DMA examples of the furiosa-opt book (MACHINE.md 2.2/2.3).
#include "CostModel.h"
#include "TargetModel.h"

#include <catch2/catch.hpp>

using namespace rngd;

TEST_CASE("DMA HBM to DM of 16 MiB takes 65,536 requests plus start-up", "[cost][dma]") {
  const TargetModel &t = defaultTarget();
  // 256 x 256 x 256 i8 with 256-byte packets: 65,536 packets of one request each.
  CHECK(dmaCycles(t, DmaRoute::HbmToDm, 256, 65536) == 66036);
}

TEST_CASE("DMA DM to DM in one cluster serialises read and write phases", "[cost][dma]") {
  CHECK(dmaCycles(defaultTarget(), DmaRoute::DmToDmSameCluster, 256, 65536) == 131572);
}

TEST_CASE("DMA HBM to HBM relayout of 8x8x256 i8 is about 628 cycles", "[cost][dma]") {
  // 64 packets of 256 bytes, read and write share HBM: two cycles per request.
  CHECK(dmaCycles(defaultTarget(), DmaRoute::HbmToHbm, 256, 64) == 628);
}

TEST_CASE("DMA packets above 256 bytes cost one request per 256 bytes, rounded up",
          "[cost][dma]") {
  const TargetModel &t = defaultTarget();
  CHECK(dmaCycles(t, DmaRoute::HbmToDm, 257, 1) == t.dmaStartupCycles + 2);
  CHECK(dmaCycles(t, DmaRoute::HbmToDm, 8, 256) == t.dmaStartupCycles + 256);
}

TEST_CASE("A Tensor Unit pass takes its slowest stage plus the fill latency", "[cost][tu]") {
  const TargetModel &t = defaultTarget();
  TensorPassShape s;
  s.fetchAccesses = 64;
  s.flits = 64;
  s.commitWrites = 64;
  CHECK(tensorPassCycles(t, s) == 64 + t.pipelineFillCycles);
  s.vectorFlits = 64;
  s.vectorFloatAlus = 1; // Way4: two cycles per flit
  s.fetchCast = true;
  CHECK(tensorPassCycles(t, s) ==
        128 + t.pipelineFillCycles + t.fetchCastLatency + t.vectorAluLatency);
}

TEST_CASE("The queue clock overlaps engines and serialises on waits", "[cost][queue]") {
  const TargetModel &t = defaultTarget();
  QueueClock q(t);
  auto a = q.dma(0, 1000);
  CHECK(a.start == 0);
  auto b = q.dma(1, 500); // another engine: starts one issue cycle later
  CHECK(b.start == t.commandIssueCycles);
  auto c = q.dma(0, 10); // same engine: queues behind a
  CHECK(c.start == 1000);
  q.wait(c.end);
  CHECK(q.now() == 1010);
  CHECK(q.makespan() == 1010);
}

TEST_CASE("Concurrent DMAs share HBM and each cluster's DM intake", "[cost][queue][bandwidth]") {
  const TargetModel &t = defaultTarget();
  const int64_t bytes = 256 * 1024, alone = dmaCycles(t, DmaRoute::HbmToDm, 256, 1024);
  REQUIRE(alone == 500 + 1024); // 256 B per cycle: one engine's speed
  auto traffic = [&](int cluster) {
    DmaTraffic tr;
    tr.hbmBytes = bytes;
    tr.dmWriteBytes[cluster] = bytes;
    return tr;
  };

  SECTION("five engines fit in HBM's 1,500 B/cycle: none is slowed") {
    QueueClock q(t);
    for (int e = 0; e < 5; ++e) {
      auto span = q.dma(e, alone, traffic(e < 4 ? 0 : 1));
      CHECK(span.end - span.start == alone);
    }
  }
  SECTION("eight engines: HBM serves them in issue order") {
    QueueClock q(t);
    std::vector<QueueClock::Interval> spans;
    for (int e = 0; e < 8; ++e)
      spans.push_back(q.dma(e, alone, traffic(e / 4)));
    // The first five run at full speed (1,280 B/cycle); the sixth gets the 220 B/cycle left
    // until they end (cycles 1,524..1,528), then its full speed: 505 + 1,019 x 220/256 work
    // cycles done by 1,524, the other 148 after it.
    for (int e = 0; e < 5; ++e)
      CHECK(spans[e].end - spans[e].start == alone);
    CHECK(spans[5].end == 1673);
    // The seventh and eighth get nothing until then and run at engine speed after:
    // 1,524 + 1,024 (+1 each for the issue cycle and a cycle at 220 B/cycle).
    CHECK(spans[6].end == 2549);
    CHECK(spans[7].end == 2550);
    // Above the 1,899 of 2 MiB at 1,500 B/cycle after one start-up: the model is first come,
    // first served, not fair sharing (docs/machine-model.md).
    CHECK(q.makespan() == 2550);
  }
  SECTION("one cluster's DM takes at most 1,024 B/cycle") {
    QueueClock q(t);
    std::vector<QueueClock::Interval> spans;
    for (int e = 0; e < 5; ++e)
      spans.push_back(q.dma(e, alone, traffic(0))); // five into cluster 0: 1,280 B/cycle wanted
    for (int e = 0; e < 4; ++e)
      CHECK(spans[e].end - spans[e].start == alone);
    // The fifth waits for the cluster's intake: from the first end (1,524) at full speed.
    CHECK(spans[4].end == 1524 + 1024);
  }
}

TEST_CASE("The target hash is stable and sensitive to every field", "[target]") {
  TargetModel a, b;
  CHECK(a.hash() == b.hash());
  b.dmaStartupCycles += 1;
  CHECK(a.hash() != b.hash());
}

TEST_CASE("Same-bank runs come from loops striding whole bank rows", "[cost][banks]") {
  const TargetModel &t = defaultTarget();
  // 64 accesses 128 bytes apart all hit one bank: at the limit of the rule.
  CHECK(sameBankRun(t, {{64, 128}}) == 64);
  CHECK(sameBankRun(t, {{63, 128}}) == 63);
  // An outer loop of whole rows multiplies the run; a contiguous inner loop breaks it.
  CHECK(sameBankRun(t, {{2, 8192}, {32, 256}}) == 64);
  CHECK(sameBankRun(t, {{64, 128}, {4, 8}}) == 1);
  // Size-1 loops are transparent; half-row strides alternate banks.
  CHECK(sameBankRun(t, {{64, 128}, {1, 8}}) == 64);
  CHECK(sameBankRun(t, {{64, 64}}) == 1);
}
