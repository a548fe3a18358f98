// The Switch Engine's five permutations on small rings with recognisable packets, and the
// Transpose Engine for 8-, 16- and 32-bit elements, against host index formulas.
#include "rngd/machine/CostModel.h"
#include "Rig.h"

#include <functional>

using namespace rngd;
using namespace rngd::test;

namespace {

// Packet t of slice s: recognisable 8 bytes.
uint64_t code(int64_t slice, int64_t t) {
  return 0xA500000000000000ull | (uint64_t(slice) << 16) | uint64_t(t);
}

// Runs `mode` on the fetch slices `fetch` (8 packets of 8 bytes each), committing every output
// packet as one 8-byte write at DM 4096 of the `commit` slices.
Status runSwitch(Rig &rig, const isa::SwitchConfig &sw, const isa::SliceBitmap &fetch,
                 const isa::SliceBitmap &commit, int64_t outPackets, int64_t packets = 8) {
  for (int64_t s = 0; s < 512; ++s)
    if ((fetch[s / 64] >> (s % 64)) & 1) {
      std::vector<uint64_t> p(static_cast<size_t>(packets));
      for (int64_t t = 0; t < packets; ++t)
        p[static_cast<size_t>(t)] = code(s, t);
      rig.put(s, 0, p);
    }
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(fetch, 0, 8 * packets, 8, 3).values());
  int64_t x = rig.config(isa::Unit::Switch, sw.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(commit, 4096, outPackets, 8).values());
  rig.pass(kFetchCollect | isa::UnitSwitch | isa::UnitCommit, {f, x, w});
  LaunchResult r;
  Status st = rig.run(&r);
  if (st) {
    TensorPassShape shape;
    shape.fetchAccesses = packets;
    shape.switchCycles = switchCycles(sw.slice1 * sw.slice0, packets, 1);
    shape.flits = outPackets;
    shape.commitWrites = outPackets;
    CHECK(r.trace[3].end - r.trace[3].start == tensorPassCycles(defaultTarget(), shape));
  }
  return st;
}

using Expect = std::function<std::vector<uint64_t>(int64_t pos)>;

void checkRing(Rig &rig, int64_t base, int64_t ring, const Expect &expect) {
  for (int64_t pos = 0; pos < ring; ++pos) {
    std::vector<uint64_t> want = expect(pos);
    INFO("output slice " << base + pos);
    CHECK(rig.get<uint64_t>(base + pos, 4096, want.size()) == want);
  }
}

} // namespace

TEST_CASE("switch permutations on a ring of 8 (slice1 = 4, slice0 = 2) at slices 8..15",
          "[sim][switch]") {
  const int64_t base = 8, s1 = 4, s0 = 2, T = 8;
  isa::SliceBitmap ring = slices(8, 8);
  auto in = [&](int64_t j1, int64_t j0, int64_t t) { return code(base + j1 * s0 + j0, t); };

  SECTION("Broadcast01: every slice gets the ring, time (t1, j1, t0, j0)") {
    Rig rig;
    REQUIRE(runSwitch(rig, {isa::SwitchMode::Broadcast01, s1, s0, 2}, ring, ring, T * 8).ok());
    std::vector<uint64_t> all;
    for (int64_t t1 = 0; t1 < 4; ++t1)
      for (int64_t j1 = 0; j1 < s1; ++j1)
        for (int64_t t0 = 0; t0 < 2; ++t0)
          for (int64_t j0 = 0; j0 < s0; ++j0)
            all.push_back(in(j1, j0, t1 * 2 + t0));
    checkRing(rig, base, 8, [&](int64_t) { return all; });
    // By hand: the first packets are slices 8, 9 at t0 = 0, then 8, 9 at t0 = 1, then 10, 11.
    CHECK(rig.get<uint64_t>(13, 4096, 5) ==
          std::vector<uint64_t>{code(8, 0), code(9, 0), code(8, 1), code(9, 1), code(10, 0)});
  }
  SECTION("Broadcast1: slice (x, j0) gets for t, j: input (j, j0)") {
    Rig rig;
    REQUIRE(runSwitch(rig, {isa::SwitchMode::Broadcast1, s1, s0, 0}, ring, ring, T * s1).ok());
    checkRing(rig, base, 8, [&](int64_t pos) {
      std::vector<uint64_t> v;
      for (int64_t t = 0; t < T; ++t)
        for (int64_t j = 0; j < s1; ++j)
          v.push_back(in(j, pos % s0, t));
      return v;
    });
    CHECK(rig.get<uint64_t>(11, 4096, 5) ==
          std::vector<uint64_t>{code(9, 0), code(11, 0), code(13, 0), code(15, 0), code(9, 1)});
  }
  SECTION("Transpose: slice a * slice1 + b holds input (b, a)") {
    Rig rig;
    REQUIRE(runSwitch(rig, {isa::SwitchMode::Transpose, s1, s0, 0}, ring, ring, T).ok());
    checkRing(rig, base, 8, [&](int64_t pos) {
      std::vector<uint64_t> v;
      for (int64_t t = 0; t < T; ++t)
        v.push_back(in(pos % s1, pos / s1, t));
      return v;
    });
    CHECK(rig.get<uint64_t>(9, 4096, 1)[0] == code(10, 0)); // (a, b) = (0, 1) <- (1, 0)
    CHECK(rig.get<uint64_t>(12, 4096, 1)[0] == code(9, 0)); // (1, 0) <- (0, 1)
  }
  SECTION("InterTranspose: (a, j0) at (t2, b, t0) = (b, j0) at (t2, a, t0)") {
    Rig rig; // T = time2 x slice1 x time0 = 1 x 4 x 2
    REQUIRE(runSwitch(rig, {isa::SwitchMode::InterTranspose, s1, s0, 2}, ring, ring, T).ok());
    checkRing(rig, base, 8, [&](int64_t pos) {
      std::vector<uint64_t> v;
      for (int64_t b = 0; b < s1; ++b)
        for (int64_t t0 = 0; t0 < 2; ++t0)
          v.push_back(in(b, pos % s0, (pos / s0) * 2 + t0));
      return v;
    });
    CHECK(rig.get<uint64_t>(10, 4096, 3) == // a = 1, j0 = 0
          std::vector<uint64_t>{code(8, 2), code(8, 3), code(10, 2)});
  }
  SECTION("TransposedBroadcast1: slice x * slice1 + b gets for t, a: input (b, a)") {
    Rig rig;
    REQUIRE(
        runSwitch(rig, {isa::SwitchMode::TransposedBroadcast1, s1, s0, 0}, ring, ring, T * s0)
            .ok());
    checkRing(rig, base, 8, [&](int64_t pos) {
      std::vector<uint64_t> v;
      for (int64_t t = 0; t < T; ++t)
        for (int64_t a = 0; a < s0; ++a)
          v.push_back(in(pos % s1, a, t));
      return v;
    });
    CHECK(rig.get<uint64_t>(14, 4096, 3) == // b = 2: input slices 12, 13
          std::vector<uint64_t>{code(12, 0), code(13, 0), code(12, 1)});
  }
}

TEST_CASE("switch: disabled inputs send zeros, outputs cover the ring, shapes are checked",
          "[sim][switch]") {
  Rig rig; // slice 15 is not fetched: its packets are zeros, but it still receives
  REQUIRE(runSwitch(rig, {isa::SwitchMode::Broadcast1, 4, 2, 0}, slices(8, 7), slices(8, 8), 32)
              .ok());
  CHECK(rig.get<uint64_t>(9, 4096, 4) ==
        std::vector<uint64_t>{code(9, 0), code(11, 0), code(13, 0), 0});
  CHECK(rig.get<uint64_t>(15, 4096, 4) ==
        std::vector<uint64_t>{code(9, 0), code(11, 0), code(13, 0), 0});
  CHECK_FALSE(rig.device.dataMemory().allocated(16));

  Rig out;
  isa::SliceBitmap wide = slices(8, 9);
  CHECK(runSwitch(out, {isa::SwitchMode::Broadcast1, 4, 2, 0}, slices(8, 8), wide, 32)
            .message() == "command #3 `rngd.exec main [fetch, switch, collect, commit]`: commit "
                          "enables slice 16, which no switch ring of the fetch bitmap covers");
  Rig odd;
  CHECK(runSwitch(odd, {isa::SwitchMode::Broadcast01, 4, 2, 3}, slices(8, 8), slices(8, 8), 64)
            .message()
            .find("switch Broadcast01 with time0 = 3 needs a multiple of time0 packets per "
                  "slice, got 8") != std::string::npos);
  Rig inter;
  CHECK(runSwitch(inter, {isa::SwitchMode::InterTranspose, 4, 2, 4}, slices(8, 8), slices(8, 8), 8)
            .message()
            .find("InterTranspose needs a multiple of slice1 x time0 = 16 packets") !=
        std::string::npos);
}

TEST_CASE("switch rings stay inside a cluster: Transpose of 16 x 16 on cluster 1",
          "[sim][switch]") {
  Rig rig;
  isa::SliceBitmap cluster1 = slices(256, 256);
  REQUIRE(runSwitch(rig, {isa::SwitchMode::Transpose, 16, 16, 0}, cluster1, cluster1, 2, 2).ok());
  for (int64_t a : {0, 3, 15})
    for (int64_t b : {0, 7, 15})
      CHECK(rig.get<uint64_t>(256 + a * 16 + b, 4096, 2) ==
            std::vector<uint64_t>{code(256 + b * 16 + a, 0), code(256 + b * 16 + a, 1)});
  CHECK_FALSE(rig.device.dataMemory().allocated(0));
}

namespace {

// Host transpose: groups of in_rows x (in_cols / 8) flits; each flit's first 8 elements.
std::vector<uint8_t> hostTranspose(const std::vector<uint8_t> &in, int64_t eb, int64_t rows,
                                   int64_t cols, int64_t outRows) {
  int64_t ppc = cols / 8, group = rows * ppc, groups = static_cast<int64_t>(in.size()) / 32 / group;
  std::vector<uint8_t> out;
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t c = 0; c < outRows; ++c) {
      std::vector<uint8_t> flit(32, 0);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t b = 0; b < eb; ++b)
          flit[r * eb + b] = in[(g * group + r * ppc + c / 8) * 32 + (c % 8) * eb + b];
      out.insert(out.end(), flit.begin(), flit.begin() + rows * eb);
    }
  return out;
}

// `inFlits` flits whose first 8 x eb bytes are data (the packet), transposed and committed with
// one 8-byte write per output flit.
void transposeCase(int64_t elemLog2, int64_t rows, int64_t cols, int64_t outRows,
                   int64_t inFlits) {
  Rig rig;
  isa::SliceBitmap s = slices(3, 1);
  int64_t eb = int64_t(1) << elemLog2, packet = 8 * eb;
  Lcg r(static_cast<uint32_t>(rows * 100 + cols + eb));
  std::vector<uint8_t> data(static_cast<size_t>(inFlits * packet)), flits;
  for (auto &b : data)
    b = static_cast<uint8_t>(r.next() >> 24);
  for (int64_t f = 0; f < inFlits; ++f) { // as Collect pads each packet
    flits.insert(flits.end(), data.begin() + f * packet, data.begin() + (f + 1) * packet);
    flits.resize(static_cast<size_t>((f + 1) * 32), 0);
  }
  rig.put(3, 0, data);
  int64_t groups = inFlits / (rows * cols / 8), out = groups * outRows;
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, inFlits * packet, packet, 3).values());
  int64_t t = rig.config(isa::Unit::Transpose, isa::TransposeConfig{elemLog2, rows, cols, outRows}.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 65536, out, 8).values());
  rig.pass(kFetchCollect | isa::UnitTranspose | isa::UnitCommit, {f, t, w});
  LaunchResult res;
  Status st = rig.run(&res);
  INFO(st.message());
  REQUIRE(st.ok());
  std::vector<uint8_t> want = hostTranspose(flits, eb, rows, cols, outRows);
  REQUIRE(static_cast<int64_t>(want.size()) == out * 8);
  CHECK(rig.get<uint8_t>(3, 65536, want.size()) == want);
  TensorPassShape shape;
  shape.fetchAccesses = inFlits * eb, shape.flits = inFlits;
  shape.transposeCycles = transposeCycles(rows, cols, outRows, 8, groups);
  shape.commitWrites = out;
  CHECK(res.trace[3].end - res.trace[3].start == tensorPassCycles(defaultTarget(), shape));
}

} // namespace

TEST_CASE("transpose engine: 8-, 16- and 32-bit elements, gathers, trims", "[sim][transpose]") {
  transposeCase(0, 8, 16, 16, 32); // i8 8 x 16, two packets per row, 2 matrices
  transposeCase(0, 8, 32, 32, 64); // i8 8 x 32: single buffered
  transposeCase(0, 8, 8, 3, 16);   // trim to 3 output rows
  transposeCase(1, 4, 8, 8, 32);   // bf16 4 x 8, 8 matrices
  transposeCase(2, 2, 8, 8, 8);    // f32 2 x 8, 4 matrices
  transposeCase(2, 2, 16, 11, 8);  // f32 2 x 16, 2 matrices, trimmed

  // By hand: the f32 2 x 8 matrix [[0..7], [10..17]] becomes (0, 10), (1, 11), ...
  Rig rig;
  isa::SliceBitmap s = slices(0, 1);
  std::vector<int32_t> m = {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17};
  rig.put(0, 0, m);
  int64_t f = rig.config(isa::Unit::Fetch, fetchLinear(s, 0, 64, 32).values());
  int64_t t = rig.config(isa::Unit::Transpose, isa::TransposeConfig{2, 2, 8, 8}.values());
  int64_t w = rig.config(isa::Unit::Commit, commitLinear(s, 1024, 8, 8).values());
  rig.pass(kFetchCollect | isa::UnitTranspose | isa::UnitCommit, {f, t, w});
  REQUIRE(rig.run().ok());
  CHECK(rig.get<int32_t>(0, 1024, 6) == std::vector<int32_t>{0, 10, 1, 11, 2, 12});

  Rig bad;
  int64_t f2 = bad.config(isa::Unit::Fetch, fetchLinear(s, 0, 80, 8, 3).values());
  int64_t t2 = bad.config(isa::Unit::Transpose, isa::TransposeConfig{0, 8, 8, 8}.values());
  int64_t w2 = bad.config(isa::Unit::Commit, commitLinear(s, 1024, 8, 8).values());
  bad.pass(kFetchCollect | isa::UnitTranspose | isa::UnitCommit, {f2, t2, w2});
  CHECK(bad.run().message().find("transpose of 8 x 8 takes groups of 8 flits, but the stream has "
                                 "10 flits per slice") != std::string::npos);
}
