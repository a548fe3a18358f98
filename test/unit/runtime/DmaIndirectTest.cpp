// Gather (source-indirect) and scatter (destination-indirect) DMA descriptors: data movement,
// the index tensor's footprint, and bounds errors naming the index position and value.
#include "rngd/machine/CostModel.h"
#include "Rig.h"

using namespace rngd;
using namespace rngd::test;

namespace {

// table: 16 rows x 16 i32 at HBM 0; idx: i32 [4] at 1024; out: 4 rows at 2048.
Executable gatherKernel(std::vector<uint32_t> limits, std::vector<int32_t> srcStrides,
                        std::vector<int32_t> dstStrides, uint32_t loop, uint32_t count,
                        uint64_t indexAddress = hbmAddr(1024)) {
  Executable e = makeExe("gather", 8192);
  e.args.push_back(arg("table", ArgKind::In, DType::I32, {16, 16}, 0));
  e.args.push_back(arg("idx", ArgKind::In, DType::I32, {4}, 1024));
  e.args.push_back(arg("out", ArgKind::Out, DType::I32, {4, 16}, 2048));
  isa::Descriptor d = descriptor(hbmAddr(0), hbmAddr(2048), 32, limits, srcStrides, dstStrides);
  d.kind = uint32_t(isa::DmaKind::Gather);
  d.indexAddress = indexAddress;
  d.indexCount = count;
  d.indirectLoop = loop;
  e.descriptors.push_back(d);
  e.commands = {dma(0, 0), waitTag(0)};
  return e;
}

std::vector<int32_t> table() {
  std::vector<int32_t> t(256);
  for (int i = 0; i < 256; ++i)
    t[i] = (i / 16) * 1000 + i % 16; // row r, column c: r * 1000 + c
  return t;
}

Status launch(const Executable &e, std::vector<int32_t> idx, std::vector<int32_t> *out,
              LaunchResult *r = nullptr, Device *device = nullptr) {
  std::unique_ptr<Kernel> k;
  Status st = Kernel::fromExecutable(e, k);
  REQUIRE(st.ok());
  std::vector<int32_t> t = table();
  REQUIRE(k->upload("table", t.data(), 1024).ok());
  REQUIRE(k->upload("idx", idx.data(), 16).ok());
  Device local;
  LaunchResult res;
  st = (device ? *device : local).launch(*k, res);
  if (st && out) {
    out->resize(64);
    REQUIRE(k->download("out", out->data(), 256).ok());
  }
  if (r)
    *r = res;
  return st;
}

} // namespace

TEST_CASE("gather: rows picked by i32 byte offsets from HBM", "[sim][dma][gather]") {
  // Loop 0 (indirect): index[i] replaces i x src_stride (4096 here, ignored); loop 1 walks the
  // two 32-byte halves of a row.
  Executable e = gatherKernel({4, 2}, {4096, 32}, {64, 32}, 0, 4);
  std::vector<int32_t> out;
  LaunchResult r;
  REQUIRE(launch(e, {3 * 64, 0, 15 * 64, 3 * 64}, &out, &r).ok());
  for (int i = 0; i < 4; ++i) {
    int row = std::vector<int>{3, 0, 15, 3}[i];
    for (int c = 0; c < 16; ++c)
      CHECK(out[i * 16 + c] == row * 1000 + c);
  }
  // The index tensor is part of the read footprint: HBM [0, 1040) covers rows and indices.
  REQUIRE(r.trace[0].reads.size() == 1);
  CHECK(r.trace[0].reads[0].lo == 0);
  CHECK(r.trace[0].reads[0].hi == 1040);
  CHECK(r.trace[0].end == dmaCycles(defaultTarget(), DmaRoute::HbmToHbm, 32, 8));

  // The indirect loop inside: loop 1 picks a 32-byte half by index, loop 0 strides rows.
  Executable inner = gatherKernel({4, 2}, {64, 0}, {64, 32}, 1, 2);
  REQUIRE(launch(inner, {32, 0, 0, 0}, &out).ok());
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 16; ++c) // halves swapped
      CHECK(out[i * 16 + c] == i * 1000 + (c + 8) % 16);
  // Negative offsets are allowed while they stay in HBM.
  isa::Descriptor &d = inner.descriptors[0];
  d.src = hbmAddr(512);
  REQUIRE(launch(inner, {-512 + 32, -512, 0, 0}, &out).ok());
  CHECK(out[0] == 8);
  CHECK(out[8] == 0);
}

TEST_CASE("scatter: DM rows to HBM rows picked by the index tensor", "[sim][dma][scatter]") {
  Executable e = makeExe("scatter", 8192);
  e.args.push_back(arg("idx", ArgKind::In, DType::I32, {4}, 1024));
  e.args.push_back(arg("out", ArgKind::Out, DType::I32, {8, 16}, 4096));
  isa::Descriptor d = descriptor(dmAddr(2, 0), hbmAddr(4096), 64, {4}, {64}, {0});
  d.kind = uint32_t(isa::DmaKind::Scatter);
  d.indexAddress = hbmAddr(1024);
  d.indexCount = 4;
  d.indirectLoop = 0;
  e.descriptors.push_back(d);
  e.commands = {dma(0, 3), waitTag(3)};
  std::unique_ptr<Kernel> k;
  REQUIRE(Kernel::fromExecutable(e, k).ok());
  std::vector<int32_t> idx = {5 * 64, 0, 7 * 64, 2 * 64}, rows(64), out(128);
  for (int i = 0; i < 64; ++i)
    rows[i] = 100 * (i / 16) + i % 16;
  REQUIRE(k->upload("idx", idx.data(), 16).ok());
  Device device;
  REQUIRE(device.dataMemory().write(2, 0, rows.data(), 256).ok());
  LaunchResult r;
  REQUIRE(device.launch(*k, r).ok());
  REQUIRE(k->download("out", out.data(), 512).ok());
  int dest[4] = {5, 0, 7, 2};
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 16; ++c)
      CHECK(out[dest[i] * 16 + c] == 100 * i + c);
  CHECK(out[16] == 0); // row 1 untouched
  CHECK(r.trace[0].writes[0].lo == 4096);
  CHECK(r.trace[0].writes[0].hi == 4096 + 8 * 64);

  // A scatter destination past the argument it indexes (and past the kernel's HBM).
  idx[2] = 8192 - 4096 - 32;
  REQUIRE(k->upload("idx", idx.data(), 16).ok());
  Status st = device.launch(*k, r);
  CHECK(st.message() == "command #0 `rngd.dma 0 tag 3`: packet 2 (scatter index[2] = 4064) "
                        "writes HBM bytes [8160, +64), outside argument 'out' [4096, +512) "
                        "that the scatter indexes");
}

TEST_CASE("gather bounds: index values, index tensor placement, footprint hazards",
          "[sim][dma][gather]") {
  Executable e = gatherKernel({4, 2}, {0, 32}, {64, 32}, 0, 4);
  // An index past the table (or before it) is refused before any byte moves: a gather stays
  // in the argument it indexes.
  CHECK(launch(e, {0, 100000, 0, 0}, nullptr).message() ==
        "command #0 `rngd.dma 0 tag 0`: packet 2 (gather index[1] = 100000) reads HBM bytes "
        "[100000, +32), outside argument 'table' [0, +1024) that the gather indexes");
  CHECK(launch(e, {0, 0, 0, -64}, nullptr).message() ==
        "command #0 `rngd.dma 0 tag 0`: packet 6 (gather index[3] = -64) reads HBM bytes "
        "[-64, +32), outside argument 'table' [0, +1024) that the gather indexes");
  // The last row of the table is fine.
  CHECK(launch(e, {0, 0, 0, 1024 - 64}, nullptr).ok());
  Executable dm = gatherKernel({4, 2}, {0, 32}, {64, 32}, 0, 4, dmAddr(0, 0));
  CHECK(launch(dm, {0, 0, 0, 0}, nullptr).message() ==
        "command #0 `rngd.dma 0 tag 0`: gather index tensor at 0x10000000 is in DM; indices "
        "must be in HBM");
  Executable past = gatherKernel({4, 2}, {0, 32}, {64, 32}, 0, 4, hbmAddr(8190));
  CHECK(launch(past, {0, 0, 0, 0}, nullptr).message() ==
        "command #0 `rngd.dma 0 tag 0`: gather index tensor address 0xc000001ffe (+16) is "
        "outside the kernel's HBM [0xc000000000, +8192)");
  // Another engine overwriting the indices while the gather runs is a WAR hazard, even though
  // no row read touches them.
  Executable war = e;
  war.descriptors.push_back(descriptor(hbmAddr(4096), hbmAddr(1024), 16, {}, {}, {}, 1));
  war.commands = {dma(0, 0), dma(1, 1), waitTag(0), waitTag(1)};
  CHECK(launch(war, {0, 0, 0, 0}, nullptr).message().find(
            "command #1 `rngd.dma 1 tag 1` writes HBM [1024, 1040) while command #0 `rngd.dma 0 "
            "tag 0` (in flight until cycle 516) reads it") == 0);
}
