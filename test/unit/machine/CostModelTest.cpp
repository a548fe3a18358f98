// The cost model reproduces the worked DMA examples of the furiosa-opt book (docs/hardware.md
// sections 2.2 and 2.3).
#include "rngd/machine/CostModel.h"
#include "rngd/machine/TargetModel.h"

#include <catch2/catch.hpp>

#include <string>
#include <type_traits>

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
  CHECK(q.dmaSpan(a).start == 0);
  auto b = q.dma(1, 500); // another engine: starts one issue cycle later
  CHECK(q.dmaSpan(b).start == t.commandIssueCycles);
  auto c = q.dma(0, 10); // same engine: queues behind a
  CHECK(q.dmaSpan(c).start == 1000);
  CHECK(q.engineFree(0) == 1010);
  q.waitDma(c);
  CHECK(q.now() == 1010);
  CHECK(q.makespan() == 1010);
}

TEST_CASE("Concurrent DMAs share HBM and each cluster's DM intake fairly",
          "[cost][queue][bandwidth]") {
  const TargetModel &t = defaultTarget();
  const int64_t bytes = 256 * 1024, alone = dmaCycles(t, DmaRoute::HbmToDm, 256, 1024);
  REQUIRE(alone == 500 + 1024); // 256 B per cycle: one engine's speed
  auto traffic = [&](int cluster) {
    DmaTraffic tr;
    tr.hbmBytes = bytes;
    tr.dmWriteBytes[cluster] = bytes;
    return tr;
  };
  auto spans = [](QueueClock &q, const std::vector<QueueClock::DmaId> &ids) {
    q.finish();
    std::vector<QueueClock::Interval> out;
    for (auto id : ids)
      out.push_back(q.dmaSpan(id));
    return out;
  };

  SECTION("five engines fit in HBM's 1,500 B/cycle: none is slowed") {
    QueueClock q(t);
    std::vector<QueueClock::DmaId> ids;
    for (int e = 0; e < 5; ++e)
      ids.push_back(q.dma(e, alone, traffic(e < 4 ? 0 : 1)));
    for (const auto &span : spans(q, ids))
      CHECK(span.end - span.start == alone);
  }
  SECTION("eight engines share HBM alike") {
    QueueClock q(t);
    std::vector<QueueClock::DmaId> ids;
    for (int e = 0; e < 8; ++e)
      ids.push_back(q.dma(e, alone, traffic(e / 4)));
    // Before the last ends, its end is projected as if nothing more came.
    CHECK(q.dmaSpan(ids[7]).end > alone + 7);
    auto s = spans(q, ids);
    // Engine e moves bytes from cycle 500 + e (its issue cycle plus the start-up). From 507
    // all eight run at 1,500 / 2,048 of their speed; the first, 6.81 cycles of work ahead,
    // ends at 507 + (1,024 - 6.81) x 2,048 / 1,500 = 1,895.8.
    CHECK(s[0].end == 1896);
    // Then each one left speeds up; the last ends when the 2 MiB are through HBM at
    // 1,500 B/cycle from cycle 500 (1,898.1) plus the cycles the start-ups left HBM idle.
    for (int e = 1; e < 8; ++e)
      CHECK(s[e].end >= s[e - 1].end);
    CHECK(s[7].end >= 1899);
    CHECK(s[7].end <= 1905);
    CHECK(q.makespan() == s[7].end);
  }
  SECTION("one cluster's DM takes at most 1,024 B/cycle") {
    QueueClock q(t);
    std::vector<QueueClock::DmaId> ids;
    for (int e = 0; e < 5; ++e)
      ids.push_back(q.dma(e, alone, traffic(0))); // five into cluster 0: 1,280 B/cycle wanted
    auto s = spans(q, ids);
    // 1.25 MiB through 1,024 B/cycle from cycle 500: the five end together near 1,780.
    CHECK(s[4].end >= 500 + 5 * bytes / 1024);
    CHECK(s[4].end <= 500 + 5 * bytes / 1024 + 5);
    CHECK(s[0].end >= 500 + 4 * bytes / 1024);
  }
  SECTION("a DMA's end moves while later DMAs share its bandwidth") {
    QueueClock q(t);
    std::vector<QueueClock::DmaId> ids;
    for (int e = 0; e < 5; ++e)
      ids.push_back(q.dma(e, alone, traffic(e / 4)));
    int64_t before = q.dmaSpan(ids[0]).end;
    CHECK(before == alone); // alone at full speed so far
    for (int e = 5; e < 8; ++e)
      ids.push_back(q.dma(e, alone, traffic(1)));
    CHECK(q.dmaSpan(ids[0]).end > before);
  }
}

TEST_CASE("The target hash is stable and sensitive to every field", "[target]") {
  TargetModel a, b;
  CHECK(a.hash() == b.hash());
  // Each field changed alone changes the hash (dmaMaxLoopIterations was once left out).
  int fields = 0;
  TargetModel::forEachField(a, [&](const char *name, const auto &) {
    ++fields;
    TargetModel changed = a;
    int seen = 0;
    TargetModel::forEachField(changed, [&](const char *, auto &value) {
      if (seen++ != fields - 1)
        return;
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>)
        value += "x";
      else
        value += 1;
    });
    INFO(name);
    CHECK(changed.hash() != a.hash());
  });
}

TEST_CASE("TargetModel fields: forEachField reaches every byte of the struct", "[target]") {
  size_t bytes = 0;
  TargetModel t;
  TargetModel::forEachField(t, [&](const char *, const auto &value) { bytes += sizeof(value); });
  // Every field is 8 bytes or a string, so there is no padding: a field that the list leaves
  // out shows here as missing bytes.
  CHECK(bytes == sizeof(TargetModel));
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

TEST_CASE("Fair speeds fill the fullest memory first, then give the rest to the others",
          "[cost][bandwidth]") {
  const MemoryRates capacity = {1500, 1024, 1024}; // HBM, DM intake of cluster 0 and 1
  SECTION("six engines' worth of HBM reads share 1,500 B/cycle alike") {
    std::vector<MemoryRates> demands(6, MemoryRates{256, 0, 0});
    for (double s : fairSpeeds(demands, capacity))
      CHECK(s == Approx(1500.0 / 1536.0));
  }
  SECTION("a DMA that shares no memory runs at full speed beside them") {
    std::vector<MemoryRates> demands(6, MemoryRates{256, 0, 0});
    demands.push_back({0, 0, 0});
    CHECK(fairSpeeds(demands, capacity).back() == 1.0);
  }
  SECTION("cluster 0's intake fills first; cluster 1's DMAs take the HBM left") {
    // Five loads into cluster 0 and two into cluster 1, 256 B/cycle each at full speed. All
    // rise together until cluster 0's intake is full at 5 x 256 x 0.8 = 1,024 (HBM then
    // carries 1,433.6); the two others rise alone until HBM is full: 0.8 + 66.4 / 512.
    std::vector<MemoryRates> demands(5, MemoryRates{256, 256, 0});
    demands.push_back({256, 0, 256});
    demands.push_back({256, 0, 256});
    std::vector<double> s = fairSpeeds(demands, capacity);
    for (int i = 0; i < 5; ++i)
      CHECK(s[i] == Approx(0.8));
    CHECK(s[5] == Approx(0.8 + 66.4 / 512));
    CHECK(s[6] == Approx(s[5]));
  }
}

TEST_CASE("A DMA's end is final once the queue waits for it", "[cost][queue][bandwidth]") {
  const TargetModel &t = defaultTarget();
  const int64_t alone = dmaCycles(t, DmaRoute::HbmToDm, 256, 1024);
  DmaTraffic load;
  load.hbmBytes = 256 * 1024;
  load.dmWriteBytes[0] = 256 * 1024;
  QueueClock q(t);
  auto first = q.dma(0, alone, load);
  // Five more on other engines: six share HBM, so the first is slowed.
  std::vector<QueueClock::DmaId> more;
  for (int e = 1; e < 6; ++e)
    more.push_back(q.dma(e, alone, load));
  int64_t projected = q.dmaSpan(first).end;
  CHECK(projected > alone);
  q.waitDma(first);
  CHECK(q.now() == projected); // nothing issued since: the projection was the end
  CHECK(q.dmaSpan(first).end == projected);
  // A DMA issued after the wait starts after it and cannot move the first one's end.
  auto late = q.dma(6, alone, load);
  CHECK(q.dmaSpan(late).start >= projected);
  q.finish();
  CHECK(q.dmaSpan(first).end == projected);
  CHECK(q.makespan() == q.dmaSpan(late).end);
}
