// dmaParts: where a DMA's loop nest is cut when its parts run on several engines at once.
// Parts that write HBM must write disjoint [lo, hi) ranges, which the simulator's hazard check
// compares (docs/simulator.md, "Hazards"), so the cut loop must separate their destinations.
#include "dialects/tcp/Analysis/DmaParts.h"

#include <catch2/catch.hpp>

using namespace rngd;
using namespace rngd::tcp;

namespace {
/// A store from 16 slices of cluster 0 (DM) to HBM, loops outer to inner, 32-byte packets.
DmaOpPlan store(std::vector<mapping::DmaPlan::PairLoop> loops) {
  DmaOpPlan p;
  p.target = &defaultTarget();
  p.plan.loops = std::move(loops);
  p.plan.packetBytes = 32;
  p.route = DmaRoute::DmToHbm;
  p.dmSource = DmLayout{};
  p.hbmDest = HbmLayout{};
  return p;
}

/// [lo, hi) of the bytes part `p` writes.
std::pair<int64_t, int64_t> written(const DmaPart &p, int64_t packet) {
  int64_t lo = p.dstOffset, hi = p.dstOffset + packet;
  for (const auto &l : p.loops)
    (l.dstStride < 0 ? lo : hi) += (l.size - 1) * l.dstStride;
  return {lo, hi};
}
} // namespace

TEST_CASE("a store spread over engines is cut where its HBM ranges stay disjoint") {
  const int64_t window = defaultTarget().dmSliceWindowBytes;
  // 8 rows of 512 bytes; each of 16 slices holds 32 bytes of every row. Cutting the slices
  // (16 iterations, the finer loop) would interleave the parts' ranges; the rows do not.
  DmaOpPlan plan = store({{8, 32, 512}, {16, window, 32}});
  std::vector<DmaPart> parts = dmaParts(plan, std::vector<int64_t>{2, 2, 2, 2});
  REQUIRE(parts.size() == 4);
  for (size_t c = 0; c < parts.size(); ++c) {
    CHECK(parts[c].engine == int64_t(c));
    CHECK(parts[c].loops[0].size == 2);
    CHECK(parts[c].loops[1].size == 16);
    int64_t k = static_cast<int64_t>(c);
    CHECK(written(parts[c], 32) == std::pair<int64_t, int64_t>(1024 * k, 1024 * (k + 1)));
  }
  // The row stride above is at the limit (one row's reach: 16 x 32 bytes); gaps between
  // rows separate as well.
  std::vector<DmaPart> gapped = dmaParts(store({{8, 32, 1024}, {16, window, 32}}),
                                         std::vector<int64_t>{2, 2, 2, 2});
  REQUIRE(gapped.size() == 4);
  CHECK(gapped[3].loops[0].size == 2);
  CHECK(written(gapped[3], 32) == std::pair<int64_t, int64_t>(6144, 7680));
}

TEST_CASE("a store whose every cut interleaves is not spread") {
  const int64_t window = defaultTarget().dmSliceWindowBytes;
  // Row stride 480 is one packet short of a row's reach (512): cut rows would overlap by 32
  // bytes; cut slices interleave. No part may run beside another.
  DmaOpPlan plan = store({{8, 32, 480}, {16, window, 32}});
  CHECK(dmaParts(plan, std::vector<int64_t>{2, 2, 2, 2}).empty());
  std::vector<DmaPart> whole = dmaParts(plan);
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].cutIterations == 0); // nothing the scheduler could cut
  // A load into DM is cut as before at its finest even loop (reads may interleave freely).
  DmaOpPlan load = plan;
  load.route = DmaRoute::HbmToDm;
  load.dmSource.reset();
  load.hbmDest.reset();
  load.dmDest = DmLayout{};
  load.hbmSource = HbmLayout{};
  for (auto &l : load.plan.loops)
    std::swap(l.srcStride, l.dstStride);
  std::vector<DmaPart> cut = dmaParts(load, std::vector<int64_t>{4, 4, 4, 4});
  REQUIRE(cut.size() == 4);
  CHECK(cut[0].loops[1].size == 4);
}

TEST_CASE("a load copied to both clusters streams each copy, one copied in a cluster does not") {
  const TargetModel &t = defaultTarget();
  const int64_t window = t.dmSliceWindowBytes, clusterBytes = t.slicesPerCluster * window;
  // 32 KB of HBM to 16 slices of each cluster: 64 KB moved, the stream threshold
  // (kDmaSplitBytes) exactly.
  DmaOpPlan copies;
  copies.target = &t;
  copies.plan.loops = {{2, 0, clusterBytes}, {16, 2048, window}, {8, 256, 256}};
  copies.plan.packetBytes = 256;
  copies.route = DmaRoute::HbmToDm;
  copies.hbmSource = HbmLayout{};
  copies.dmDest = DmLayout{};
  std::vector<DmaPart> parts = dmaParts(copies);
  REQUIRE(parts.size() == 6); // three stream engines per cluster
  for (const DmaPart &p : parts) {
    CHECK(p.stream);
    CHECK(p.engine / 4 == p.piece);
  }
  // The same bytes copied twice inside cluster 0 (slices 0-15 and 16-31): one part, not a
  // stream, on the cluster's fourth engine.
  DmaOpPlan twice = copies;
  twice.plan.loops = {{2, 0, 16 * window}, {16, 2048, window}, {8, 256, 256}};
  std::vector<DmaPart> one = dmaParts(twice);
  REQUIRE(one.size() == 1);
  CHECK_FALSE(one[0].stream);
  CHECK(one[0].engine == 3);
  // One row of packets short of the threshold: small, one part per cluster.
  DmaOpPlan small = copies;
  small.plan.loops[2].size = 7;
  CHECK(dmaParts(small).size() == 2);
}

TEST_CASE("a large DM to DM copy streams over the cluster's engines like a large load") {
  const TargetModel &t = defaultTarget();
  const int64_t window = t.dmSliceWindowBytes;
  // 16 slices of cluster 0 each copy 4 KB within their DM: 64 KB, the stream threshold
  // (kDmaSplitBytes) exactly.
  DmaOpPlan copy;
  copy.target = &t;
  copy.plan.loops = {{16, window, window}, {16, 256, 256}};
  copy.plan.packetBytes = 256;
  copy.route = DmaRoute::DmToDmSameCluster;
  copy.dmSource = DmLayout{};
  copy.dmDest = DmLayout{};
  std::vector<DmaPart> parts = dmaParts(copy);
  REQUIRE(parts.size() == 3);
  int64_t packets = 0;
  for (const DmaPart &p : parts) {
    CHECK(p.stream);
    CHECK(p.engine < 3);
    packets += p.packets;
  }
  CHECK(packets == 256);
  // One row of packets short of it: one part on the cluster's fourth engine.
  DmaOpPlan small = copy;
  small.plan.loops[1].size = 15;
  std::vector<DmaPart> one = dmaParts(small);
  REQUIRE(one.size() == 1);
  CHECK_FALSE(one[0].stream);
  CHECK(one[0].engine == 3);
}
