// The simulator on hand-built executables: DMA copies, a full Tensor Unit pass against a host
// computation, timing against the cost formulas, hazards and waits.
#include "Builders.h"
#include "rngd/machine/CostModel.h"
#include "rngd/Bf16.h"
#include "rngd/Runtime.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace rngd;
using namespace rngd::test;

namespace {

const uint16_t kPass = isa::UnitFetch | isa::UnitCollect | isa::UnitVector | isa::UnitCast |
                       isa::UnitCommit;

std::unique_ptr<Kernel> kernelOf(const Executable &e) {
  std::vector<uint8_t> bytes;
  std::string why;
  REQUIRE(writeExecutable(e, bytes, why));
  std::unique_ptr<Kernel> k;
  Status st = Kernel::fromBytes(bytes, k);
  REQUIRE(st.ok());
  return k;
}

std::vector<uint16_t> bf16Ramp(size_t n) {
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) // values with full mantissas so +1.0 must round
    v[i] = f32ToBf16(static_cast<float>(i) * 0.377f - 40.0f);
  return v;
}

// x (64 slices x 8 bf16) -> DM slices 0..63 -> x + 1.0 in f32 -> bf16 -> DM offset 256 -> y.
Executable addOneKernel() {
  Executable e = makeExe("add_one", 2048);
  e.args.push_back(arg("x", ArgKind::In, DType::BF16, {64, 8}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::BF16, {64, 8}, 1024));
  int32_t window = static_cast<int32_t>(defaultTarget().dmSliceWindowBytes);
  e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(0, 0), 16, {64}, {16}, {window}));
  e.descriptors.push_back(descriptor(dmAddr(0, 256), hbmAddr(1024), 16, {64}, {window}, {16}, 1));
  isa::FetchConfig f;
  f.accessLog2 = 4;
  f.packetBytes = 16;
  f.cast = isa::FetchCast::Bf16ToF32;
  f.slices = slices(0, 64);
  isa::VectorConfig v;
  v.steps = 1;
  isa::setVectorStep(v, 0, isa::VectorStep{int64_t(isa::Alu::FpFma), int64_t(isa::VectorOp::Add), 0, floatBits(1.0f)});
  isa::CastConfig c;
  c.mode = isa::CastMode::F32ToBf16;
  isa::CommitConfig w;
  w.base = 256;
  w.writeBytes = 16;
  w.slices = slices(0, 64);
  e.configs = {block(isa::Unit::Fetch, f.values()), block(isa::Unit::Vector, v.values()),
               block(isa::Unit::Cast, c.values()), block(isa::Unit::Commit, w.values())};
  e.commands = {dma(0, 0), waitTag(0), load(0), load(1), load(2), load(3),
                exec(kPass), waitCtx(), dma(1, 1), waitTag(1)};
  return e;
}

Status runKernel(Kernel &k, LaunchResult &r) {
  Device device;
  return device.launch(k, r);
}

/// Runs an add_one-shaped kernel on a ramp and checks y = bf16(x + c) element by element.
LaunchResult runAdding(const Executable &e, float c) {
  auto k = kernelOf(e);
  std::vector<uint16_t> x = bf16Ramp(512), y(512);
  REQUIRE(k->upload("x", x.data(), 1024).ok());
  LaunchResult r;
  Status st = runKernel(*k, r);
  INFO(st.message());
  REQUIRE(st.ok());
  REQUIRE(k->download("y", y.data(), 1024).ok());
  for (size_t i = 0; i < x.size(); ++i)
    CHECK(y[i] == f32ToBf16(bf16ToF32(x[i]) + c));
  return r;
}

} // namespace

TEST_CASE("HBM to HBM copy", "[sim][dma]") {
  Executable e = makeExe("copy", 1024);
  e.args.push_back(arg("x", ArgKind::In, DType::BF16, {128}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::BF16, {128}, 256));
  e.descriptors.push_back(descriptor(hbmAddr(0), hbmAddr(256), 256));
  e.commands = {dma(0, 0), waitTag(0)};
  auto k = kernelOf(e);
  std::vector<uint16_t> x = bf16Ramp(128), y(128);
  REQUIRE(k->upload("x", x.data(), 256).ok());
  LaunchResult r;
  REQUIRE(runKernel(*k, r).ok());
  REQUIRE(k->download("y", y.data(), 256).ok());
  CHECK(y == x);
  const TargetModel &t = defaultTarget();
  int64_t dmaEnd = dmaCycles(t, DmaRoute::HbmToHbm, 256, 1);
  CHECK(dmaEnd == 502);
  CHECK(r.makespan == dmaEnd);
  REQUIRE(r.trace.size() == 2);
  CHECK(r.trace[0].context == "tdma");
  CHECK(r.trace[0].engines == std::vector<std::string>{"dma0"});
  CHECK(r.trace[0].reads.size() == 1);
  CHECK(r.trace[0].reads[0].lo == 0);
  CHECK(r.trace[0].reads[0].hi == 256);
  CHECK(r.trace[0].writes[0].lo == 256);
}

TEST_CASE("HBM to DM to HBM round trip through four slices", "[sim][dma]") {
  Executable e = makeExe("round_trip", 4096);
  e.args.push_back(arg("x", ArgKind::In, DType::I32, {512}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::I32, {512}, 2048));
  int32_t window = static_cast<int32_t>(defaultTarget().dmSliceWindowBytes);
  // 4 slices (two per cluster: 0, 1, 256, 257) x 2 packets of 256 B; an engine reaches its own
  // cluster's DM only, so each direction is one descriptor per cluster (engines 0 and 4).
  for (int c = 0; c < 2; ++c)
    e.descriptors.push_back(descriptor(hbmAddr(1024 * c), dmAddr(256 * c, 1024), 256, {2, 2},
                                       {512, 256}, {window, 256}, 4 * c));
  for (int c = 0; c < 2; ++c)
    e.descriptors.push_back(descriptor(dmAddr(256 * c, 1024), hbmAddr(2048 + 1024 * c), 512, {2},
                                       {window}, {512}, 2 + 4 * c));
  e.commands = {dma(0, 0), dma(1, 1), waitTag(0), waitTag(1),
                dma(2, 0), dma(3, 1), waitTag(0), waitTag(1)};
  auto k = kernelOf(e);
  std::vector<int32_t> x(512), y(512);
  for (int i = 0; i < 512; ++i)
    x[i] = i * 7 - 1000;
  REQUIRE(k->upload("x", x.data(), 2048).ok());
  Device device;
  LaunchResult r;
  REQUIRE(device.launch(*k, r).ok());
  REQUIRE(k->download("y", y.data(), 2048).ok());
  CHECK(y == x);
  // The data really went through DM: slice 257 holds x[384..447] at offset 1024.
  int32_t probe = 0;
  REQUIRE(device.dataMemory().read(257, 1024, &probe, 4).ok());
  CHECK(probe == x[384]);
  CHECK_FALSE(device.dataMemory().allocated(2));
  const TargetModel &t = defaultTarget();
  int64_t first = dmaCycles(t, DmaRoute::HbmToDm, 256, 4);
  int64_t second = dmaCycles(t, DmaRoute::DmToHbm, 512, 2);
  // Each pair runs side by side, the second one issue cycle behind: the waits resume at
  // 1 + first, the second pair ends one cycle after its own 1 + second.
  CHECK(r.makespan == 1 + first + second + 1);
  REQUIRE(r.trace[0].writes.size() == 1); // slices [0, 2), range [1024, 1536)
  CHECK(r.trace[0].writes[0].sliceLo == 0);
  CHECK(r.trace[0].writes[0].sliceHi == 2);
  CHECK(r.trace[0].writes[0].lo == 1024);
  CHECK(r.trace[0].writes[0].hi == 1536);
  REQUIRE(r.trace[1].writes.size() == 1); // slices [256, 258)
  CHECK(r.trace[1].writes[0].sliceLo == 256);
}

TEST_CASE("fetch, vector add 1.0, cast and commit match the host bit for bit", "[sim][pass]") {
  auto k = kernelOf(addOneKernel());
  std::vector<uint16_t> x = bf16Ramp(512), y(512);
  x[0] = 0x7fc0;               // NaN stays NaN
  x[1] = f32ToBf16(1e38f);     // large + 1 = unchanged
  x[2] = 0x0001;               // denormal
  x[3] = f32ToBf16(-1.0f);     // exactly 0
  REQUIRE(k->upload("x", x.data(), 1024).ok());
  LaunchResult r;
  REQUIRE(runKernel(*k, r).ok());
  REQUIRE(k->download("y", y.data(), 1024).ok());
  for (size_t i = 0; i < x.size(); ++i) {
    volatile float sum = bf16ToF32(x[i]) + 1.0f; // volatile: no host contraction
    INFO("element " << i);
    CHECK(y[i] == f32ToBf16(sum));
  }
  CHECK(y[0] == 0x7fc0);
  CHECK(y[3] == 0x0000);
}

TEST_CASE("simulated cycles follow the cost formulas", "[sim][timing]") {
  auto k = kernelOf(addOneKernel());
  LaunchResult r;
  REQUIRE(runKernel(*k, r).ok());
  const TargetModel &t = defaultTarget();
  int64_t now = 0;
  int64_t dma0 = dmaCycles(t, DmaRoute::HbmToDm, 16, 64);
  CHECK(r.trace[0].end == dma0);
  now = dma0; // wait tag 0
  CHECK(r.trace[1].end == now);
  for (int i = 0; i < 4; ++i) {
    const isa::UnitSpec &spec = *isa::findUnit(k->executable().configs[i].unit);
    CHECK(r.trace[2 + i].start == now);
    now += configLoadCycles(t, isa::wholeBlockMask(spec));
    CHECK(r.trace[2 + i].end == now);
  }
  CHECK(now == dma0 + (1 + 14) + (1 + 11) + (1 + 1) + (1 + 14));
  TensorPassShape shape;
  shape.fetchAccesses = 1;
  shape.fetchCast = true;
  shape.flits = 1;
  shape.vectorFlits = 1;
  shape.vectorFloatAlus = 1;
  shape.castFlits = 1;
  shape.commitWrites = 1;
  int64_t pass = tensorPassCycles(t, shape);
  CHECK(pass == 2 + 4 + 2 + 1); // Way4 float ALU: 2 cycles per flit; fill, fetch cast, ALU
  CHECK(r.trace[6].start == now);
  CHECK(r.trace[6].end == now + pass);
  now += pass;                  // wait main
  int64_t dma1 = dmaCycles(t, DmaRoute::DmToHbm, 16, 64);
  CHECK(r.trace[8].start == now);
  CHECK(r.makespan == now + dma1);
  CHECK(r.makespan == 1181);
}

TEST_CASE("deleting a wait raises a hazard naming both commands", "[sim][hazard]") {
  Executable e = addOneKernel();
  e.commands.erase(e.commands.begin() + 1); // drop `rngd.wait tag 0`
  auto k = kernelOf(e);
  LaunchResult r;
  Status st = runKernel(*k, r);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message() ==
        "command #5 `rngd.exec main [fetch, collect, vector, cast, commit]` reads DM slice 0 "
        "[0, 16) while command #0 `rngd.dma 0 tag 0` (in flight until cycle 564) writes it");

  e = addOneKernel();
  e.commands.erase(e.commands.begin() + 7); // drop `rngd.wait main`: the DMA reads too early
  k = kernelOf(e);
  st = runKernel(*k, r);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message().find("command #7 `rngd.dma 1 tag 1` reads DM slice 0 [256, 272) while "
                          "command #6 `rngd.exec main") == 0);
}

TEST_CASE("waits on nothing pending and reused tags are errors", "[sim][hazard]") {
  Executable e = makeExe("waits", 512);
  e.args.push_back(arg("x", ArgKind::In, DType::I8, {16}, 0));
  e.descriptors.push_back(descriptor(hbmAddr(0), hbmAddr(256), 16));
  e.commands = {waitCtx(isa::Context::Sub)};
  LaunchResult r;
  Status st = runKernel(*kernelOf(e), r);
  CHECK(st.message() == "command #0 `rngd.wait sub`: nothing is pending on context sub (no exec "
                        "since the last wait)");
  e.commands = {dma(0, 3), waitTag(3), waitTag(3)};
  st = runKernel(*kernelOf(e), r);
  CHECK(st.message() == "command #2 `rngd.wait tag 3`: no DMA with tag 3 is pending");
  e.commands = {dma(0, 3), dma(0, 3)};
  st = runKernel(*kernelOf(e), r);
  CHECK(st.message().find("command #1 `rngd.dma 0 tag 3` uses tag 3 while command #0") == 0);
}

TEST_CASE("loading registers a running pass uses is an error, others may load", "[sim][hazard]") {
  Executable e = addOneKernel();
  e.commands.insert(e.commands.begin() + 7, load(2)); // reload cast before `wait main`
  LaunchResult r;
  Status st = runKernel(*kernelOf(e), r);
  CHECK(st.message().find("command #7 `rngd.load 2 main` loads the cast registers of context main "
                          "while command #6 `rngd.exec main") == 0);
  // A transpose block: the add-one pass does not list the Transpose Engine, so it loads while
  // the pass runs, and the kernel's output is unchanged.
  Executable ok = addOneKernel();
  ok.configs.push_back(block(isa::Unit::Transpose, {1, 4, 8, 8}));
  ok.commands.insert(ok.commands.begin() + 7, load(static_cast<int64_t>(ok.configs.size() - 1)));
  r = runAdding(ok, 1.0f);
  CHECK(r.trace[7].start < r.trace[6].end); // it loaded while the pass ran
}

TEST_CASE("main's second bank loads while a pass runs on the first", "[sim][hazard]") {
  // add_one, then the same pass from bank 1 with a vector block adding 2 instead: its blocks
  // load while the first pass runs (into bank 0 that is an error, the test above), y = x + 2.
  auto twoBanks = [](bool loadVector) {
    Executable e = addOneKernel();
    isa::VectorConfig v = isa::VectorConfig::fromValues(e.configs[1].values);
    v.imm[0] = floatBits(2.0f);
    e.configs.push_back(block(isa::Unit::Vector, v.values()));
    auto main = isa::Context::Main;
    std::vector<uint32_t> bank1 = {load(0, main, 1), load(2, main, 1), load(3, main, 1)};
    if (loadVector)
      bank1.insert(bank1.begin() + 1, load(4, main, 1));
    e.commands.insert(e.commands.begin() + 8, {exec(kPass, main, 1), waitCtx()});
    e.commands.insert(e.commands.begin() + 7, bank1.begin(), bank1.end());
    return e;
  };
  Executable e = twoBanks(true);
  LaunchResult r = runAdding(e, 2.0f);
  CHECK(r.trace[7].text == "rngd.load 0 main bank 1");
  CHECK(r.trace[7].start < r.trace[6].end); // the fetch block loads while the first pass runs
  CHECK(r.trace[12].text == "rngd.exec main bank 1 [fetch, collect, vector, cast, commit]");

  Status st = runKernel(*kernelOf(twoBanks(false)), r);
  CHECK(st.message() == "command #11 `rngd.exec main bank 1 [fetch, collect, vector, cast, "
                        "commit]`: no vector configuration is loaded in context main bank 1");
  // Bank 1's registers while its own pass runs: an error naming the bank.
  e.commands.insert(e.commands.begin() + 13, load(4, isa::Context::Main, 1));
  st = runKernel(*kernelOf(e), r);
  CHECK(st.message().find("command #13 `rngd.load 4 main bank 1` loads the vector registers of "
                          "context main bank 1 while command #12 `rngd.exec main bank 1") == 0);
}

TEST_CASE("a partial block loads only the words that change", "[sim][timing][hazard]") {
  // add_one, then the pass again with a vector block adding 2: only the register words that
  // hold the immediate change, and only those load. y = x + 2.
  Executable e = addOneKernel();
  isa::VectorConfig v = isa::VectorConfig::fromValues(e.configs[1].values);
  v.imm[0] = floatBits(2.0f);
  const isa::UnitSpec &spec = *isa::findUnit(isa::Unit::Vector);
  std::vector<uint64_t> before, after;
  std::string why;
  REQUIRE(isa::packBlock(spec, e.configs[1].values, before, why));
  REQUIRE(isa::packBlock(spec, v.values(), after, why));
  uint64_t mask = 0;
  for (size_t w = 0; w < after.size(); ++w)
    if (before[w] != after[w])
      mask |= uint64_t(1) << w;
  REQUIRE(mask != 0);
  REQUIRE(mask != isa::wholeBlockMask(spec));
  e.configs.push_back(block(isa::Unit::Vector, v.values()));
  e.configs.back().partialMask = mask;
  e.commands.insert(e.commands.begin() + 8, {load(4), exec(kPass), waitCtx()});
  LaunchResult r = runAdding(e, 2.0f);
  CHECK(r.trace[8].text == "rngd.load 4 main");
  CHECK(r.trace[8].end - r.trace[8].start == configLoadCycles(defaultTarget(), mask));
  CHECK(configLoadCycles(defaultTarget(), mask) < 1 + 11);

  // A word it does not load that holds another value: an error naming the word and both
  // values (the partial block claims words its load leaves as they are).
  Executable wrong = e;
  isa::VectorConfig v3 = v;
  v3.op[0] = int64_t(isa::VectorOp::Sub); // word 0: the op fields
  wrong.configs[4] = block(isa::Unit::Vector, v3.values());
  wrong.configs[4].partialMask = mask;
  Status st = runKernel(*kernelOf(wrong), r);
  CHECK(st.message().find("command #8 `rngd.load 4 main` loads words 0x" ) == 0);
  CHECK(st.message().find("of block 4 (vector), but register word 0 holds") != std::string::npos);
  // Into a bank that holds no vector block yet.
  Executable empty = e;
  empty.commands[8] = load(4, isa::Context::Main, 1);
  st = runKernel(*kernelOf(empty), r);
  CHECK(st.message().find("the vector registers of context main bank 1, which hold no block "
                          "yet") != std::string::npos);
}

TEST_CASE("main and sub may not use the Vector Engine at the same time", "[sim][hazard]") {
  Executable e = addOneKernel();
  // The same pass on sub, reading and writing other DM offsets, issued while main runs.
  isa::FetchConfig f = isa::FetchConfig::fromValues(e.configs[0].values);
  f.base = 1024;
  f.accessLog2 = 3; // sub reads 8 bytes at a time: two accesses per 16-byte packet
  f.limits[7] = 2;
  f.strides[7] = 8;
  isa::CommitConfig w = isa::CommitConfig::fromValues(e.configs[3].values);
  w.base = 2048;
  e.configs.push_back(block(isa::Unit::Fetch, f.values()));
  e.configs.push_back(block(isa::Unit::Commit, w.values()));
  auto sub = isa::Context::Sub;
  // Without the Cast Engine, which only main drives.
  const uint16_t subPass = kPass & ~isa::UnitCast;
  e.commands.insert(e.commands.begin() + 7, {exec(subPass, sub), waitCtx(sub)});
  e.commands.insert(e.commands.begin() + 6, {load(4, sub), load(1, sub), load(5, sub)});
  LaunchResult r;
  Status st = runKernel(*kernelOf(e), r);
  INFO(st.message());
  CHECK(st.message().find("command #10 `rngd.exec sub [fetch, collect, vector, commit]` "
                          "uses the Vector Engine from cycle ") == 0);
  // Without the vector and cast units the two passes overlap legally.
  e.commands[10] = exec(isa::UnitFetch | isa::UnitCollect | isa::UnitCommit, sub);
  REQUIRE(runKernel(*kernelOf(e), r).ok());
  CHECK(r.trace[10].start < r.trace[9].end);
}

TEST_CASE("64 consecutive same-bank accesses during a DMA are an error", "[sim][hazard]") {
  auto kernel = [](int64_t accesses) {
    Executable e = makeExe("banks", 512);
    e.args.push_back(arg("x", ArgKind::In, DType::I8, {256}, 0));
    e.args.push_back(arg("y", ArgKind::Out, DType::I8, {256}, 256));
    e.descriptors.push_back(descriptor(hbmAddr(0), hbmAddr(256), 256));
    isa::FetchConfig f; // a column walk: every access 128 bytes apart hits bank 0
    f.accessLog2 = 3;
    f.packetBytes = 8;
    f.limits[7] = accesses;
    f.strides[7] = 128;
    f.slices = slices(0, 1);
    isa::CommitConfig w;
    w.base = 16384;
    w.writeBytes = 8;
    w.limits[7] = accesses;
    w.strides[7] = 8;
    w.slices = slices(0, 1);
    e.configs = {block(isa::Unit::Fetch, f.values()), block(isa::Unit::Commit, w.values())};
    e.commands = {load(0), load(1), exec(isa::UnitFetch | isa::UnitCollect | isa::UnitCommit),
                  dma(0, 0), waitTag(0), waitCtx()};
    return e;
  };
  LaunchResult r;
  Status st = runKernel(*kernelOf(kernel(64)), r);
  CHECK(st.message() == "command #2 `rngd.exec main [fetch, collect, commit]`: fetch makes 64 "
                        "consecutive accesses to DM bank 0 (limit: fewer than 64) while command "
                        "#3 `rngd.dma 0 tag 0` runs concurrently");
  CHECK(runKernel(*kernelOf(kernel(63)), r).ok());
}

TEST_CASE("changing one descriptor stride changes the output or raises a bounds error",
          "[sim][honesty]") {
  std::vector<uint8_t> bytes;
  std::string why;
  REQUIRE(writeExecutable(addOneKernel(), bytes, why));
  size_t descriptors = get64(bytes, 128 + 24 * 4 + 8);
  std::vector<uint16_t> x = bf16Ramp(512);
  auto runWith = [&](const std::vector<uint8_t> &file, std::vector<uint16_t> &y) {
    std::unique_ptr<Kernel> k;
    Status st = Kernel::fromBytes(file, k);
    REQUIRE(st.ok());
    REQUIRE(k->upload("x", x.data(), 1024).ok());
    LaunchResult r;
    st = runKernel(*k, r);
    y.assign(512, 0);
    if (st)
      REQUIRE(k->download("y", y.data(), 1024).ok());
    return st;
  };
  std::vector<uint16_t> good, y;
  REQUIRE(runWith(bytes, good).ok());

  auto patched = bytes; // descriptor 0 source stride 16 -> 8: slices read overlapping rows
  put32(patched, descriptors + 64, 8);
  fixChecksum(patched);
  REQUIRE(runWith(patched, y).ok());
  CHECK(y != good);

  patched = bytes; // descriptor 0 destination stride 16 windows: packet 16 lands in cluster 1
  put32(patched, descriptors + 96, 64 * 1024 * 1024);
  fixChecksum(patched);
  Status st = runWith(patched, y);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message() == "command #0 `rngd.dma 0 tag 0`: packet 16 writes DM slice 256 of "
                        "cluster 1, but DMA engine 0 serves cluster 0 (engines 0..3)");

  patched = bytes; // descriptor 0 destination stride 4 MB + 512 KB: past the slice's 512 KB
  put32(patched, descriptors + 96, 4 * 1024 * 1024 + 512 * 1024);
  fixChecksum(patched);
  st = runWith(patched, y);
  REQUIRE_FALSE(st.ok());
  CHECK(st.message() == "command #0 `rngd.dma 0 tag 0`: packet 1 writes address 0x10480000 (+16) "
                        "is DM slice 1 offset 524288, past the slice's 524288 bytes");
}

TEST_CASE("cast engine rounds f32 to bf16 to nearest even", "[sim][numerics]") {
  CHECK(f32BitsToBf16(0x3f808000u) == 0x3f80); // tie, even below
  CHECK(f32BitsToBf16(0x3f818000u) == 0x3f82); // tie, odd below -> up
  CHECK(f32BitsToBf16(0x3f808001u) == 0x3f81); // above the tie
  CHECK(f32BitsToBf16(0x3f807fffu) == 0x3f80);
  CHECK(f32BitsToBf16(0x7f7fffffu) == 0x7f80); // max float rounds to +inf
  CHECK(f32BitsToBf16(0xff7fffffu) == 0xff80);
  CHECK(f32BitsToBf16(0x7f800000u) == 0x7f80);
  CHECK(f32BitsToBf16(0x7f800001u) == 0x7fc0); // signalling NaN becomes quiet, not inf
  CHECK(f32BitsToBf16(0xffc00001u) == 0xffc0);
  CHECK(f32BitsToBf16(0x80000000u) == 0x8000);

  // The same cases through a pass: f32 in HBM, Cast Engine, bf16 out.
  Executable e = makeExe("cast", 512);
  e.args.push_back(arg("x", ArgKind::In, DType::F32, {8}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::BF16, {8}, 256));
  e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(5, 0), 32));
  e.descriptors.push_back(descriptor(dmAddr(5, 64), hbmAddr(256), 16));
  isa::FetchConfig f;
  f.accessLog2 = 5;
  f.packetBytes = 32;
  f.slices = slices(5, 1);
  isa::CastConfig c;
  c.mode = isa::CastMode::F32ToBf16;
  isa::CommitConfig w;
  w.base = 64;
  w.writeBytes = 16;
  w.slices = slices(5, 1);
  e.configs = {block(isa::Unit::Fetch, f.values()), block(isa::Unit::Cast, c.values()),
               block(isa::Unit::Commit, w.values())};
  e.commands = {dma(0, 0), waitTag(0), load(0), load(1), load(2),
                exec(isa::UnitFetch | isa::UnitCollect | isa::UnitCast | isa::UnitCommit),
                waitCtx(), dma(1, 0), waitTag(0)};
  auto k = kernelOf(e);
  std::vector<uint32_t> x = {0x3f808000u, 0x3f818000u, 0x3f808001u, 0x7f7fffffu,
                             0x7f800001u, 0xffc00001u, 0x80000000u, 0x00000001u};
  std::vector<uint16_t> y(8);
  REQUIRE(k->upload("x", x.data(), 32).ok());
  LaunchResult r;
  REQUIRE(runKernel(*k, r).ok());
  REQUIRE(k->download("y", y.data(), 16).ok());
  CHECK(y == std::vector<uint16_t>{0x3f80, 0x3f82, 0x3f81, 0x7f80, 0x7fc0, 0xffc0, 0x8000, 0x0000});
}

TEST_CASE("integer vector add wraps and float multiply is exact f32", "[sim][numerics]") {
  Executable e = makeExe("int_add", 512);
  e.args.push_back(arg("x", ArgKind::In, DType::I32, {16}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::I32, {16}, 256));
  // Two slices (0 and 300) get 8 words each; add 1 (int), then multiply by 0.5 as f32 bits.
  // One descriptor per slice: slice 300 is in cluster 1, served by engine 4.
  e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(0, 0), 32));
  e.descriptors.push_back(descriptor(hbmAddr(32), dmAddr(300, 0), 32, {}, {}, {}, 4));
  e.descriptors.push_back(descriptor(dmAddr(0, 32), hbmAddr(256), 32));
  e.descriptors.push_back(descriptor(dmAddr(300, 32), hbmAddr(288), 32, {}, {}, {}, 4));
  isa::FetchConfig f;
  f.accessLog2 = 3; // four 8-byte accesses make one 32-byte packet
  f.packetBytes = 32;
  f.limits[7] = 4;
  f.strides[7] = 8;
  f.slices = slices(0, 1);
  f.slices[4] |= uint64_t(1) << (300 - 256);
  isa::VectorConfig v;
  v.steps = 1;
  isa::setVectorStep(v, 0, isa::VectorStep{int64_t(isa::Alu::FxpAdd), int64_t(isa::VectorOp::Add), 0, 1});
  isa::CommitConfig w;
  w.base = 32;
  w.writeBytes = 32;
  w.slices = f.slices;
  e.configs = {block(isa::Unit::Fetch, f.values()), block(isa::Unit::Vector, v.values()),
               block(isa::Unit::Commit, w.values())};
  e.commands = {dma(0, 0), dma(1, 1), waitTag(0), waitTag(1), load(0), load(1), load(2),
                exec(isa::UnitFetch | isa::UnitCollect | isa::UnitVector | isa::UnitCommit),
                waitCtx(), dma(2, 0), dma(3, 1), waitTag(0), waitTag(1)};
  auto k = kernelOf(e);
  std::vector<int32_t> x(16), y(16);
  for (int i = 0; i < 16; ++i)
    x[i] = i * 1000 - 3;
  x[5] = INT32_MAX;
  REQUIRE(k->upload("x", x.data(), 64).ok());
  LaunchResult r;
  REQUIRE(runKernel(*k, r).ok());
  REQUIRE(k->download("y", y.data(), 64).ok());
  for (int i = 0; i < 16; ++i)
    CHECK(static_cast<uint32_t>(y[i]) == static_cast<uint32_t>(x[i]) + 1u);
  CHECK(y[5] == INT32_MIN);
  TensorPassShape shape;
  shape.fetchAccesses = 4;
  shape.flits = 1;
  shape.vectorIntAlus = 1;
  shape.commitWrites = 1;
  CHECK(r.trace[7].end - r.trace[7].start == tensorPassCycles(defaultTarget(), shape));
}

TEST_CASE("unsupported units and bad pass shapes are errors, not crashes", "[sim][pass]") {
  Executable base = addOneKernel();
  LaunchResult r;
  Executable e = base;
  e.commands[6] = exec(kPass | isa::UnitContract);
  CHECK(runKernel(*kernelOf(e), r).message() ==
        "command #6 `rngd.exec main [fetch, collect, contract, vector, cast, commit]`: "
        "no contract configuration is loaded in context main");
  e.commands[6] = exec(kPass | isa::UnitContract, isa::Context::Sub);
  CHECK(runKernel(*kernelOf(e), r).message().find("the Contraction Engine runs only on the "
                                                  "main context") != std::string::npos);
  // The add-one pass itself (vector, cast) on sub: the Cast Engine is main's.
  e.commands[6] = exec(kPass, isa::Context::Sub);
  CHECK(runKernel(*kernelOf(e), r).message().find("the Cast Engine runs only on the main "
                                                  "context") != std::string::npos);
  e.commands[6] = exec(kPass | isa::UnitTrf);
  CHECK(runKernel(*kernelOf(e), r).message().find("a pass ends in exactly one of commit, trf or "
                                                  "vrf") != std::string::npos);
  e = base;
  e.commands.erase(e.commands.begin() + 5); // no commit config loaded
  CHECK(runKernel(*kernelOf(e), r).message().find("no commit configuration is loaded") !=
        std::string::npos);
  e = base;
  isa::CommitConfig w = isa::CommitConfig::fromValues(e.configs[3].values);
  w.limits[0] = 2;
  e.configs[3].values = w.values();
  CHECK(runKernel(*kernelOf(e), r).message().find("commit nest makes 2 writes but the pass "
                                                  "carries 1 flits per slice") != std::string::npos);
  e = base;
  w = isa::CommitConfig::fromValues(e.configs[3].values);
  w.writeBytes = 24;
  e.configs[3].values = w.values();
  CHECK(runKernel(*kernelOf(e), r).message().find("only 16 valid bytes") != std::string::npos);
  e = base;
  w = isa::CommitConfig::fromValues(e.configs[3].values);
  w.slices = slices(0, 65);
  e.configs[3].values = w.values();
  CHECK(runKernel(*kernelOf(e), r).message().find("commit enables slice 64, which the fetch "
                                                  "bitmap does not") != std::string::npos);
  e = base;
  isa::FetchConfig f = isa::FetchConfig::fromValues(e.configs[0].values);
  f.limits[0] = 65536;
  f.limits[1] = 65536;
  f.limits[2] = 65536;
  e.configs[0].values = f.values();
  CHECK(runKernel(*kernelOf(e), r).message().find("over the simulator's per-command cap") !=
        std::string::npos);
  e = base;
  f = isa::FetchConfig::fromValues(e.configs[0].values);
  f.base = 524288 - 8;
  e.configs[0].values = f.values();
  CHECK(runKernel(*kernelOf(e), r).message().find("fetch access 0 reads DM offset 524280 (+16), "
                                                  "outside [0, 524288)") != std::string::npos);
  e = base;
  isa::VectorConfig v = isa::VectorConfig::fromValues(e.configs[1].values);
  v.alu[0] = 9; // FpMul1 has no Add: the writer (and loader) reject the block
  e.configs[1].values = v.values();
  std::vector<uint8_t> bytes;
  std::string why;
  CHECK_FALSE(writeExecutable(e, bytes, why));
  CHECK(why == "config block 1: vector step 0: ALU FpMul1 does not implement op Add");
}

TEST_CASE("a run past the cycle cap stops with an error", "[sim][guards]") {
  auto k = kernelOf(addOneKernel());
  Device device;
  LaunchOptions o;
  o.sim.maxCycles = 1000;
  LaunchResult r;
  Status st = device.launch(*k, r, o);
  REQUIRE_FALSE(st.ok());
  // The DMA's end is known once the queue waits for it (concurrent DMAs could still slow
  // it before that).
  CHECK(st.message() == "command #9 `rngd.wait tag 1` ends at cycle 1181, past the "
                        "simulator's cycle cap 1000");
}

TEST_CASE("trace JSON in the schedule format", "[sim][trace]") {
  auto k = kernelOf(addOneKernel());
  Device device;
  LaunchResult r;
  REQUIRE(device.launch(*k, r).ok());
  auto j = nlohmann::json::parse(device.traceJson(*k, r));
  CHECK(j["format"] == "rngd-trace");
  CHECK(j["version"] == 1);
  CHECK(j["kernel"] == "add_one");
  CHECK(j["target"]["name"] == "rngd-1chip");
  CHECK(j["target"]["hash"] == formatHex(defaultTarget().hash()));
  CHECK(j["makespan"] == r.makespan);
  REQUIRE(j["ops"].size() == 10);
  auto pass = j["ops"][6];
  CHECK(pass["id"] == 6);
  CHECK(pass["name"] == "rngd.exec");
  CHECK(pass["text"] == "rngd.exec main [fetch, collect, vector, cast, commit]");
  CHECK(pass["context"] == "main");
  CHECK(pass["engines"].size() == 5);
  CHECK(pass["reads"][0]["memory"] == "dm");
  CHECK(pass["reads"][0]["slices"] == nlohmann::json::array({0, 64}));
  CHECK(pass["reads"][0]["range"] == nlohmann::json::array({0, 16}));
  CHECK(pass["writes"][0]["range"] == nlohmann::json::array({256, 272}));
  CHECK(j["ops"][0]["reads"][0]["memory"] == "hbm");
  CHECK(j["ops"][0]["reads"][0]["range"] == nlohmann::json::array({0, 1024}));
}

TEST_CASE("a DMA engine reaches the DM of its own cluster only", "[sim][dma]") {
  // Engines 0..3 serve cluster 0 (slices 0..255), 4..7 cluster 1 (256..511).
  auto run = [](int64_t slice, uint32_t engine) {
    Executable e = makeExe("reach", 256);
    e.args.push_back(arg("x", ArgKind::In, DType::I32, {8}, 0));
    e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(slice, 0), 32, {}, {}, {}, engine));
    e.commands = {dma(0, 0), waitTag(0)};
    auto k = kernelOf(e);
    Device device;
    LaunchResult r;
    return device.launch(*k, r);
  };
  CHECK(run(255, 3).ok()); // the last slice of cluster 0 from its last engine
  CHECK(run(256, 4).ok()); // the first slice of cluster 1 from its first engine
  CHECK(run(0, 0).ok());
  CHECK(run(256, 3).message() == "command #0 `rngd.dma 0 tag 0`: packet 0 writes DM slice 256 of "
                                 "cluster 1, but DMA engine 3 serves cluster 0 (engines 0..3)");
  CHECK(run(255, 4).message() == "command #0 `rngd.dma 0 tag 0`: packet 0 writes DM slice 255 of "
                                 "cluster 0, but DMA engine 4 serves cluster 1 (engines 4..7)");
}
