// The worked cycle counts of the furiosa-opt book (docs/hardware.md section 2.3, and the DMA
// examples of section 2.2): first through the CostModel functions, then, where a pass or
// descriptor can express the example, through the simulator's reported durations. A pass lasts
// its slowest stage plus pipelineFillCycles; the examples below pick shapes where the engine
// under test is the slowest stage, so duration - fill is the book's number.
#include "rngd/machine/CostModel.h"
#include "Rig.h"

using namespace rngd;
using namespace rngd::test;

namespace {

const TargetModel &T() { return defaultTarget(); }

int64_t duration(const LaunchResult &r, size_t op) { return r.trace[op].end - r.trace[op].start; }

// fetch -> collect -> commit on slice 0: packets of `packet` bytes read with `loops` at the
// given access size; every flit is committed (write size = min(packet, 32)).
int64_t fetchPass(int64_t accessLog2, int64_t packet, const Loops &loops) {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  isa::FetchConfig f = fetchCfg(s, 0, accessLog2, packet, loops);
  int64_t accesses = 1;
  for (auto &l : loops)
    accesses *= l.first;
  int64_t packets = accesses * (int64_t(1) << accessLog2) / packet;
  int64_t flits = packets * ((packet + 31) / 32);
  int64_t write = std::min<int64_t>(packet, 32);
  int64_t fi = rig.config(isa::Unit::Fetch, f.values());
  int64_t wi = rig.config(isa::Unit::Commit, commitLinear(s, 65536, flits, write).values());
  rig.pass(kFetchCollect | isa::UnitCommit, {fi, wi});
  LaunchResult r;
  Status st = rig.run(&r);
  INFO(st.message());
  REQUIRE(st.ok());
  return duration(r, 2) - T().pipelineFillCycles;
}

// A switch pass on one fetched and committed slice of ring slice1 x slice0 (a pass costs the
// same on 1 or 256 slices): `time` packets of `packet` bytes in, all output flits committed.
int64_t switchPass(isa::SwitchConfig sw, int64_t time, int64_t packet) {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, time * packet, packet).values());
  int64_t x = rig.config(isa::Unit::Switch, sw.values());
  int64_t factor = sw.mode == isa::SwitchMode::Broadcast01          ? sw.slice1 * sw.slice0
                   : sw.mode == isa::SwitchMode::Broadcast1           ? sw.slice1
                   : sw.mode == isa::SwitchMode::TransposedBroadcast1 ? sw.slice0
                                                                      : 1;
  int64_t flits = time * factor * packet / 32;
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 65536, flits, 32).values());
  rig.pass(kFetchCollect | isa::UnitSwitch | isa::UnitCommit, {f, x, w});
  LaunchResult r;
  Status st = rig.run(&r);
  INFO(st.message());
  REQUIRE(st.ok());
  CHECK(flits <= switchCycles(sw.slice1 * sw.slice0, time, packet / 32)); // switch is slowest
  return duration(r, 3) - T().pipelineFillCycles;
}

// A transpose pass: `matrices` groups of rows x (cols / 8) input flits of 8 elements.
int64_t transposePass(int64_t elemLog2, int64_t rows, int64_t cols, int64_t outRows,
                      int64_t matrices) {
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  int64_t packet = 8 << elemLog2, inFlits = matrices * rows * cols / 8;
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, inFlits * packet, packet, 3).values());
  int64_t t = rig.config(isa::Unit::Transpose,
                         isa::TransposeConfig{elemLog2, rows, cols, outRows}.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 65536, matrices * outRows, 8).values());
  rig.pass(kFetchCollect | isa::UnitTranspose | isa::UnitCommit, {f, t, w});
  LaunchResult r;
  Status st = rig.run(&r);
  INFO(st.message());
  REQUIRE(st.ok());
  return duration(r, 3) - T().pipelineFillCycles;
}

} // namespace

TEST_CASE("fetch: Time x ceil(Packet / read size) (fetch-engine.md)", "[cycles][fetch]") {
  // i4 [N4, C3, H4, W16]: Packet W (8 B, read 8 B) 48; [H%2, W] (16 B) 24; [H, W] (32 B) 12;
  // [C, H, W] (96 B, read 32 B: 3 reads per packet) 12.
  CHECK(fetchCycles(48, 8, 8) == 48);
  CHECK(fetchCycles(24, 16, 16) == 24);
  CHECK(fetchCycles(12, 32, 32) == 12);
  CHECK(fetchCycles(4, 96, 32) == 12);
  // 30-byte f8 tensor: packets of 8, 16, 32 bytes.
  CHECK(fetchCycles(15, 8, 8) == 15);
  CHECK(fetchCycles(3, 16, 16) == 3);
  CHECK(fetchCycles(1, 32, 32) == 1);

  // The same byte shapes through the simulator (i4 is not a format of ours: the i4 tensor's
  // 384 bytes are read with the same packet and read sizes).
  CHECK(fetchPass(3, 8, {{48, 8}}) == 48);
  CHECK(fetchPass(4, 16, {{24, 16}}) == 24);
  CHECK(fetchPass(5, 32, {{12, 32}}) == 12);
  CHECK(fetchPass(5, 96, {{4, 96}, {3, 32}}) == 12);
  // f8 [A3, B5, C2]: C # 8 (15 packets, 8-byte reads at the elements' 2-byte stride),
  // [B, C] # 16 (3 packets at a 10-byte stride), [A, B, C] # 32 (one packet).
  CHECK(fetchPass(3, 8, {{3, 10}, {5, 2}}) == 15);
  CHECK(fetchPass(4, 16, {{3, 10}}) == 3);
  CHECK(fetchPass(5, 32, {{1, 0}}) == 1);
}

TEST_CASE("switch: ring_size x Time x flits per packet (switch-engine.md)", "[cycles][switch]") {
  CHECK(switchCycles(4, 64, 8) == 2048);   // Broadcast01 f32
  CHECK(switchCycles(32, 64, 2) == 4096);  // Broadcast1 i8
  CHECK(switchCycles(64, 64, 2) == 8192);  // Transpose
  CHECK(switchCycles(32, 8, 1) == 256);    // InterTranspose
  CHECK(switchCycles(64, 16, 1) == 1024);  // TransposedBroadcast1
  CHECK(switchCycles(256, 8, 8) == 16384); // custom, ring 256
  CHECK(switchCycles(32, 8, 8) == 2048);   // custom, ring 32
  CHECK(switchCycles(4, 24, 1) == 96);     // custom, ring 4

  using M = isa::SwitchMode;
  CHECK(switchPass({M::Broadcast01, 2, 2, 4}, 64, 256) == 2048);
  CHECK(switchPass({M::Broadcast1, 4, 8, 0}, 64, 64) == 4096);
  CHECK(switchPass({M::Transpose, 32, 2, 0}, 64, 64) == 8192);
  CHECK(switchPass({M::InterTranspose, 2, 16, 2}, 8, 32) == 256);
  CHECK(switchPass({M::TransposedBroadcast1, 8, 8, 0}, 16, 32) == 1024);
  // Custom snoop bitmaps are not in our ISA; a regular mode with the same ring, Time and
  // packet reproduces their formula.
  CHECK(switchPass({M::Transpose, 16, 16, 0}, 8, 256) == 16384);
  CHECK(switchPass({M::Transpose, 8, 4, 0}, 8, 256) == 2048);
  CHECK(switchPass({M::Transpose, 2, 2, 0}, 24, 32) == 96);
}

TEST_CASE("transpose: double and single buffering (transpose-engine.md)", "[cycles][transpose]") {
  CHECK(transposeCycles(8, 16, 16, 8, 2) == 48);  // i8 8 x 16, n = 2
  CHECK(transposeCycles(4, 8, 2, 8, 1) == 6);     // small 4 x 2
  CHECK(transposeCycles(8, 32, 32, 8, 2) == 128); // i8 8 x 32, single buffered
  CHECK(transposeCycles(4, 8, 8, 8, 8) == 68);    // bf16 4 x 8, n = 8
  CHECK(transposeCycles(16, 16, 16, 16, 4) == 80); // i4 16 x 16 (valid_size 16), n = 4
  CHECK(transposeCycles(2, 8, 8, 8, 4) == 34);    // f32 2 x 8, n = 4

  CHECK(transposePass(0, 8, 16, 16, 2) == 48);
  CHECK(transposePass(0, 8, 32, 32, 2) == 128);
  CHECK(transposePass(1, 4, 8, 8, 8) == 68);
  CHECK(transposePass(2, 2, 8, 8, 4) == 34);
  // The 4 x 2 i8 example leaves 4 valid bytes per output flit, below the commit's 8-byte
  // minimum write, and i4 is not a format of ours: those two stay CostModel-only.
}

TEST_CASE("DMA worked examples through the simulator (dma-engine.md)", "[cycles][dma]") {
  const int32_t window = static_cast<int32_t>(T().dmSliceWindowBytes);
  const int32_t dmn = window * static_cast<int32_t>(T().slicesPerDmn);

  SECTION("Example 1: HBM -> HBM relayout [A8, B8, C256] -> [B, A, C], about 628") {
    Executable e = makeExe("relayout", 32768);
    e.args.push_back(arg("x", ArgKind::In, DType::I8, {8, 8, 256}, 0));
    e.args.push_back(arg("y", ArgKind::Out, DType::I8, {8, 8, 256}, 16384));
    e.descriptors.push_back(
        descriptor(hbmAddr(0), hbmAddr(16384), 256, {8, 8}, {2048, 256}, {256, 2048}));
    e.commands = {dma(0, 0), waitTag(0)};
    std::unique_ptr<Kernel> k;
    REQUIRE(Kernel::fromExecutable(e, k).ok());
    std::vector<int8_t> x(16384), y(16384);
    for (int i = 0; i < 16384; ++i)
      x[i] = static_cast<int8_t>(i * 7 + i / 256);
    REQUIRE(k->upload("x", x.data(), x.size()).ok());
    Device device;
    LaunchResult r;
    REQUIRE(device.launch(*k, r).ok());
    CHECK(r.makespan == 628);
    REQUIRE(k->download("y", y.data(), y.size()).ok());
    CHECK(y[(3 * 8 + 5) * 256 + 17] == x[(5 * 8 + 3) * 256 + 17]); // y[b][a][c] = x[a][b][c]
  }
  SECTION("Example 2: HBM -> DM of 16 MiB over 64 slices and two DMNs, about 66,036") {
    Executable e = makeExe("to_dm", 16 << 20);
    e.args.push_back(arg("x", ArgKind::In, DType::I8, {256, 256, 256}, 0));
    // time [B, A%4, A/4%32, A/128], packet C: HBM [B, A, C], DM slice A/4, element [A%4, B, C].
    e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(0, 0), 256, {256, 4, 32, 2},
                                       {65536, 256, 1024, 32768}, {256, 65536, window, dmn}));
    e.commands = {dma(0, 0), waitTag(0)};
    std::unique_ptr<Kernel> k;
    REQUIRE(Kernel::fromExecutable(e, k).ok());
    std::vector<int8_t> x(16 << 20);
    for (size_t i = 0; i < x.size(); i += 4099)
      x[i] = static_cast<int8_t>(i % 251);
    REQUIRE(k->upload("x", x.data(), x.size()).ok());
    Device device;
    LaunchResult r;
    REQUIRE(device.launch(*k, r).ok());
    CHECK(r.makespan == 66036);
    // x[b][a][c] lands in slice a / 4 at (a % 4) * 65536 + b * 256 + c.
    int64_t b = 200, a = 131, c = 77;
    int8_t v = 0;
    REQUIRE(device.dataMemory().read(a / 4, (a % 4) * 65536 + b * 256 + c, &v, 1).ok());
    CHECK(v == x[(b * 256 + a) * 256 + c]);
  }
  SECTION("Example 3: DM -> DM in one cluster, read and write phases serialised, 131,572") {
    Executable e = makeExe("dm_dm", 256);
    // element [A%4, B, C] at 0 -> element [B, A%4, C] at 4 x 256 x 256, same slices.
    e.descriptors.push_back(descriptor(dmAddr(0, 0), dmAddr(0, 262144), 256, {256, 4, 32, 2},
                                       {256, 65536, window, dmn}, {1024, 256, window, dmn}));
    e.commands = {dma(0, 0), waitTag(0)};
    std::unique_ptr<Kernel> k;
    REQUIRE(Kernel::fromExecutable(e, k).ok());
    Device device;
    int8_t marker = 42;
    REQUIRE(device.dataMemory().write(37, 2 * 65536 + 9 * 256 + 5, &marker, 1).ok());
    LaunchResult r;
    REQUIRE(device.launch(*k, r).ok());
    CHECK(r.makespan == 131572);
    int8_t v = 0;
    REQUIRE(device.dataMemory().read(37, 262144 + 9 * 1024 + 2 * 256 + 5, &v, 1).ok());
    CHECK(v == 42);
  }
  SECTION("Example 6: an uneven DMN split pays two start-ups on DMN 3, about 1,192") {
    Executable e = makeExe("uneven", 256 * 1024);
    e.args.push_back(arg("y", ArgKind::Out, DType::I8, {240 * 1024}, 0));
    // DMNs 0..2: 256 packets each on engines 0..2; DMN 3: 128 + 64 packets, two commands on
    // engine 3 (192 data cycles, 2 x 500 start-up).
    for (uint32_t d = 0; d < 3; ++d)
      e.descriptors.push_back(descriptor(dmAddr(32 * d, 0), hbmAddr(d * 65536), 256, {256},
                                         {256}, {256}, d));
    e.descriptors.push_back(
        descriptor(dmAddr(96, 0), hbmAddr(196608), 256, {128}, {256}, {256}, 3));
    e.descriptors.push_back(
        descriptor(dmAddr(96, 32768), hbmAddr(229376), 256, {64}, {256}, {256}, 3));
    e.commands = {dma(0, 0), dma(1, 1), dma(2, 2), dma(3, 3), dma(4, 4),
                  waitTag(0), waitTag(1), waitTag(2), waitTag(3), waitTag(4)};
    std::unique_ptr<Kernel> k;
    REQUIRE(Kernel::fromExecutable(e, k).ok());
    Device device;
    LaunchResult r;
    REQUIRE(device.launch(*k, r).ok());
    CHECK(duration(r, 0) == 756); // the even DMNs
    CHECK(r.trace[4].start == r.trace[3].end); // same engine: serialised
    CHECK(r.trace[4].end - r.trace[3].start == 1192);
    CHECK(r.makespan >= 1192);
    CHECK(r.makespan <= 1192 + 8); // queue issue cycles only
  }
  CHECK(dmaCycles(T(), DmaRoute::DmToHbm, 256, 128) + dmaCycles(T(), DmaRoute::DmToHbm, 256, 64) ==
        1192);
}
