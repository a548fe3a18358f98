// DMA paired-loop derivation, checked against the furiosa-opt book
// (docs/src/moving-tensors/dma-engine.md) and the DM placement used by the compiler.
#include "Helpers.h"

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

constexpr int64_t kMaxPacket = 4096, kMaxLoops = 8;

DmaPlan dma(const std::vector<Level> &src, const std::vector<Level> &dst,
            const std::vector<std::string> &axes, int64_t elemBytes, const AxisEnv &e,
            DmaOrder order = DmaOrder::DstMajor, int64_t maxLoops = kMaxLoops) {
  Error err;
  std::optional<DmaPlan> p =
      deriveDma(src, dst, axes, elemBytes, kMaxPacket, maxLoops, e, order, err);
  INFO(err.str());
  REQUIRE(p.has_value());
  return *p;
}

Error dmaError(const std::vector<Level> &src, const std::vector<Level> &dst,
               const std::vector<std::string> &axes, int64_t elemBytes, const AxisEnv &e,
               int64_t maxLoops = kMaxLoops) {
  Error err;
  std::optional<DmaPlan> p = deriveDma(src, dst, axes, elemBytes, kMaxPacket, maxLoops, e, err);
  INFO((p ? p->str() : ""));
  REQUIRE_FALSE(p.has_value());
  return err;
}

} // namespace

TEST_CASE("book: [A, B, C] -> [B, A, C] with 256-byte packets", "[mapping][dma]") {
  AxisEnv e = env({{"A", 256}, {"B", 256}, {"C", 256}});
  std::vector<Level> src = {level("[A, B, C]", e, 1)}, dst = {level("[B, A, C]", e, 1)};
  // The book lists the loops in source order: [A 256:(65536,256), B 256:(256,65536), C]:256.
  DmaPlan book = dma(src, dst, {"A", "B", "C"}, 1, e, DmaOrder::SrcMajor);
  CHECK(book.str() == "[256:(65536, 256), 256:(256, 65536)] : 256");
  CHECK(book.packetBytes == 256);
  CHECK(book.packets() == 65536);
  // The default orders by destination stride (sequential writes).
  DmaPlan def = dma(src, dst, {"A", "B", "C"}, 1, e);
  CHECK(def.str() == "[256:(256, 65536), 256:(65536, 256)] : 256");
  Error err;
  std::optional<DmaPlan> plain = deriveDma(src, dst, {"A", "B", "C"}, 1, kMaxPacket, kMaxLoops, e,
                                           err); // the original overload
  REQUIRE(plain.has_value());
  CHECK(plain->str() == def.str());
}

TEST_CASE("book example 1: HBM -> HBM 8x8x256 relayout", "[mapping][dma]") {
  AxisEnv e = env({{"A", 8}, {"B", 8}, {"C", 256}});
  DmaPlan p = dma({level("[A, B, C]", e, 1)}, {level("[B, A, C]", e, 1)}, {"A", "B", "C"}, 1, e,
                  DmaOrder::SrcMajor);
  CHECK(p.str() == "[8:(2048, 256), 8:(256, 2048)] : 256");
  CHECK(p.packets() == 64); // "64 read requests + 64 write requests"
}

TEST_CASE("book example 2: HBM -> DM slices", "[mapping][dma]") {
  AxisEnv e = env({{"A", 256}, {"B", 256}, {"C", 256}});
  // Slice `A / 4` (slice_stride = 4 MiB), element `[A % 4, B, C]`; source HBM `[B, A, C]`.
  DmaPlan p =
      dma({level("[B, A, C]", e, 1)}, {level("A / 4", e, 4 * kMiB), level("[A % 4, B, C]", e, 1)},
          {"A", "B", "C"}, 1, e);
  // Per-side strides as in the book: A/4 1024 | slice_stride, A%4 256 | 65536, B 65536 | 256.
  CHECK(p.str() == "[64:(1024, 4194304), 4:(256, 65536), 256:(65536, 256)] : 256");
  CHECK(p.packets() == 65536);
}

TEST_CASE("DM placement: HBM [H] -> cluster 1 # 2, slice H / 4 # 256, elem H % 4",
          "[mapping][dma]") {
  AxisEnv e = env({{"H", 1024}});
  std::vector<Level> dst = {level("1 # 2", e, 256 * 4 * kMiB), level("H / 4 # 256", e, 4 * kMiB),
                            level("H % 4", e, 2)};
  DmaPlan p = dma({level("H", e, 2)}, dst, {"H"}, 2, e);
  REQUIRE(p.loops.size() == 1);
  CHECK(p.loops[0] == DmaPlan::PairLoop{256, 8, 4194304});
  CHECK(p.packetBytes == 8);
  CHECK(p.str() == "[256:(8, 4194304)] : 8");
  // Back from DM to HBM: the same loop with the sides swapped.
  DmaPlan back = dma(dst, {level("H", e, 2)}, {"H"}, 2, e, DmaOrder::SrcMajor);
  CHECK(back.str() == "[256:(4194304, 8)] : 8");
}

TEST_CASE("DMA: broadcast axes only the destination has", "[mapping][dma]") {
  AxisEnv e = env({{"H", 256}, {"D", 64}});
  std::vector<Level> dst = {level("1 # 2", e, 256 * 4 * kMiB), level("[D, 1 # 4]", e, 4 * kMiB),
                            level("H", e, 2)};
  DmaPlan p = dma({level("H", e, 2)}, dst, {"H"}, 2, e);
  CHECK(p.str() == "[64:(0, 16777216)] : 512");
  CHECK(dma({level("H", e, 2)}, dst, {"H"}, 2, e, DmaOrder::SrcMajor).str() == p.str());
}

TEST_CASE("DMA: axes only the source has are read at index 0", "[mapping][dma]") {
  AxisEnv e = env({{"H", 256}, {"S", 2}});
  DmaPlan p = dma({level("[S, H]", e, 2)}, {level("H", e, 2)}, {"H"}, 2, e);
  CHECK(p.str() == "[] : 512");
  CHECK(p.packets() == 1);
}

TEST_CASE("DMA: a replicated DM source is read from its first replica", "[mapping][dma]") {
  AxisEnv e = env({{"H", 256}, {"D", 64}});
  std::vector<Level> src = {level("1 # 2", e, 256 * 4 * kMiB), level("[D, 1 # 4]", e, 4 * kMiB),
                            level("H", e, 2)};
  std::vector<Level> dst = {level("1 # 2", e, 256 * 4 * kMiB), level("1 # 256", e, 4 * kMiB),
                            level("H", e, 2)};
  // `D` is listed as an axis (the DM layout's axes include spatial ones) but the destination
  // does not hold it: it is not iterated.
  CHECK(dma(src, dst, {"H", "D"}, 2, e).str() == "[] : 512");
}

TEST_CASE("DMA: packet capped at 4096 bytes", "[mapping][dma]") {
  AxisEnv e = env({{"A", 8192}, {"B", 3000}, {"C", 5000}});
  CHECK(dma({level("A", e, 2)}, {level("A", e, 2)}, {"A"}, 2, e).str() ==
        "[4:(4096, 4096)] : 4096");
  CHECK(dma({level("B", e, 1)}, {level("B", e, 1)}, {"B"}, 1, e).str() == "[] : 3000");
  // 5000 B: the largest divisor within the limit is 2500.
  CHECK(dma({level("C", e, 1)}, {level("C", e, 1)}, {"C"}, 1, e).str() ==
        "[2:(2500, 2500)] : 2500");
}

TEST_CASE("DMA: destination padding is skipped, views limit the copy", "[mapping][dma]") {
  AxisEnv e = env({{"H", 16}, {"A", 16}});
  CHECK(dma({level("H", e, 2)}, {level("[H / 4, H % 4 # 8]", e, 2)}, {"H"}, 2, e).str() ==
        "[4:(8, 16)] : 8");
  // A tile holding the first 2 blocks of 4, transposed.
  CHECK(dma({level("A", e, 1)}, {level("[A % 4, A / 4 = 2]", e, 1)}, {"A"}, 1, e).str() ==
        "[4:(1, 2), 2:(4, 1)] : 1");
}

TEST_CASE("DMA: loop limit at the limit and one past", "[mapping][dma][errors]") {
  AxisEnv e = env(
      {{"A", 2}, {"B", 2}, {"C", 2}, {"D", 2}, {"E", 2}, {"F", 2}, {"G", 2}, {"H", 2}, {"I", 2}});
  // Reversed order on the destination: no two loops merge, packets of one element.
  DmaPlan eight =
      dma({level("[A, B, C, D, E, F, G, H]", e, 1)}, {level("[H, G, F, E, D, C, B, A]", e, 1)},
          {"A", "B", "C", "D", "E", "F", "G", "H"}, 1, e);
  CHECK(eight.loops.size() == 8);
  CHECK(eight.packetBytes == 1);
  CHECK(eight.loops.front() == DmaPlan::PairLoop{2, 1, 128});
  Error err = dmaError({level("[A, B, C, D, E, F, G, H, I]", e, 1)},
                       {level("[I, H, G, F, E, D, C, B, A]", e, 1)},
                       {"A", "B", "C", "D", "E", "F", "G", "H", "I"}, 1, e);
  CHECK(err.term == "`[A, B, C, D, E, F, G, H, I]` -> `[I, H, G, F, E, D, C, B, A]`");
  CHECK(err.message.find("needs 9 DMA loops, limit 8") != std::string::npos);
}

TEST_CASE("DMA: errors", "[mapping][dma][errors]") {
  SECTION("ragged last block") {
    AxisEnv e = env({{"W", 151936}});
    Error err =
        dmaError({level("W", e, 2)},
                 {level("W # 155648 / 8192 # 256", e, 4 * kMiB), level("W # 155648 % 8192", e, 2)},
                 {"W"}, 2, e);
    CHECK(err.term == "`W # 155648 / 8192 # 256`");
    CHECK(err.message == "unsupported: ragged last block: W = 151936 is not a multiple of 8192");
  }
  SECTION("destination does not hold a digit") {
    AxisEnv e = env({{"H", 64}});
    Error err = dmaError({level("H", e, 1)}, {level("H % 4", e, 1)}, {"H"}, 1, e);
    CHECK(err.term == "H");
    CHECK(err.message == "the destination (`H % 4`) does not hold `H / 4`; elements would collide");
  }
  SECTION("incompatible decomposition") {
    AxisEnv e = env({{"A", 15}});
    Error err =
        dmaError({level("[A % 5, A / 5]", e, 1)}, {level("[A % 3, A / 3]", e, 1)}, {"A"}, 1, e);
    CHECK(err.term == "A");
    CHECK(err.message == "incompatible decomposition of axis A: source `A % 5`, `A / 5` vs "
                         "destination `A % 3`, `A / 3` (blocks of 3 and 5 do not nest)");
  }
  SECTION("a side holds a digit twice") {
    AxisEnv e = env({{"A", 16}});
    Error err = dmaError({level("A", e, 1)}, {level("[A % 4, A % 2]", e, 1)}, {"A"}, 1, e);
    CHECK(err.term == "`A % 2`");
    CHECK(err.message == "the destination holds axis A twice (also `A % 4`)");
  }
  SECTION("element larger than a packet") {
    AxisEnv e = env({{"A", 16}});
    Error err;
    CHECK_FALSE(deriveDma({level("A", e, 8)}, {level("A", e, 8)}, {"A"}, 8, 4, 8, e, err));
    CHECK(err.message == "element size 8 B exceeds the 4 B packet limit");
  }
  SECTION("unknown axis") {
    AxisEnv e = env({{"A", 16}});
    Error err = dmaError({level("A", e, 1)}, {level("A", e, 1)}, {"A", "Z"}, 1, e);
    CHECK(err.message == "unknown axis Z");
  }
}
