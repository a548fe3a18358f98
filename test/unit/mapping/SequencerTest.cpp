// Fetch/commit sequencer derivation, checked against the worked examples of the furiosa-opt
// book (docs/src/moving-tensors/sequencer.md; docs/hardware.md section 5.3).
#include "Helpers.h"

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

constexpr int64_t kMaxAccess = 32, kMaxEntries = 8, kMaxEntrySize = 65536;

std::vector<Loop> nest(const std::string &buf, const std::string &time, const std::string &packet,
                       const AxisEnv &e) {
  Error err;
  std::optional<std::vector<Loop>> n =
      deriveElementNest(parse(buf, e), parse(time, e), parse(packet, e), err);
  INFO(err.str());
  REQUIRE(n.has_value());
  return *n;
}

Sequencer seq(const std::string &buf, const std::string &time, const std::string &packet,
              int64_t elemBytes, const AxisEnv &e) {
  Error err;
  std::optional<Sequencer> s =
      deriveSequencer(parse(buf, e), parse(time, e), parse(packet, e), elemBytes, kMaxAccess,
                      kMaxEntries, kMaxEntrySize, err);
  INFO(err.str());
  REQUIRE(s.has_value());
  return *s;
}

Error seqError(const std::string &buf, const std::string &time, const std::string &packet,
               int64_t elemBytes, const AxisEnv &e) {
  Error err;
  std::optional<Sequencer> s =
      deriveSequencer(parse(buf, e), parse(time, e), parse(packet, e), elemBytes, kMaxAccess,
                      kMaxEntries, kMaxEntrySize, err);
  INFO((s ? s->str() : ""));
  REQUIRE_FALSE(s.has_value());
  return err;
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("book: transposing axes [A,B,C#32] -> Time [B,A], Packet C#16", "[mapping][seq]") {
  AxisEnv e = env({{"A", 8}, {"B", 8}, {"C", 8}});
  CHECK(str(nest("[A, B, C # 32]", "[B, A]", "C # 16", e)) == "[8:32, 8:256, 16:1]");
  Sequencer s = seq("[A, B, C # 32]", "[B, A]", "C # 16", 1, e); // i8
  CHECK(s.packetBytes == 16);
  CHECK(s.accessBytes == 16); // the whole packet in one access
  CHECK(str(s.loops) == "[8:32, 8:256]");
  CHECK(s.accesses() == 64);
}

TEST_CASE("book: splitting axes, Packet C#32 over Buf [A,B,C#8]", "[mapping][seq]") {
  AxisEnv e = env({{"A", 8}, {"B", 8}, {"C", 4}});
  std::vector<Loop> n = nest("[A, B, C # 8]", "[A % 2, B % 4, A / 2, B / 4]", "C # 32", e);
  CHECK(str(n) == "[2:64, 4:8, 4:128, 2:32, 32:1]");
  Sequencer s = seq("[A, B, C # 8]", "[A % 2, B % 4, A / 2, B / 4]", "C # 32", 1, e);
  CHECK(s.packetBytes == 32);
  CHECK(s.accessBytes == 32);
  // 2:32 and 32:1 merge into a 64-byte run = 2 accesses of 32.
  CHECK(str(s.loops) == "[2:64, 4:8, 4:128, 2:32]");
  CHECK(s.accesses() == 64); // one access per packet
}

TEST_CASE("book: NCHW -> WHCN read with Packet 1", "[mapping][seq]") {
  AxisEnv e = env({{"N", 4}, {"C", 3}, {"H", 8}, {"W", 8}});
  CHECK(str(nest("[N, C, H, W]", "[W, H, C, N]", "1", e)) == "[8:1, 8:8, 3:64, 4:192]");
  Sequencer s = seq("[N, C, H, W]", "[W, H, C, N]", "1", 2, e); // bf16
  CHECK(s.packetBytes == 2);
  CHECK(s.accessBytes == 2);
  CHECK(str(s.loops) == "[8:2, 8:16, 3:128, 4:384]");
}

TEST_CASE("book: 9 entries merge to 6", "[mapping][seq]") {
  AxisEnv e = env({{"N", 8}, {"C", 8}, {"H", 8}, {"W", 32}});
  const char *time = "[W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2]";
  std::vector<Loop> n = nest("[N, C, H, W]", time, "W % 8", e);
  CHECK(str(n) == "[2:16, 2:32, 4:64, 4:512, 2:256, 4:4096, 2:2048, 2:8, 8:1]");
  std::vector<Loop> merged = mergeLoops(n);
  // H % 2 (2:32) and H / 2 (4:64) stay apart; C, N and W % 16 merge.
  CHECK(str(merged) == "[2:16, 2:32, 4:64, 8:256, 8:2048, 16:1]");
  Sequencer s = seq("[N, C, H, W]", time, "W % 8", 1, e);
  CHECK(s.accessBytes == 8);
  CHECK(str(s.loops) == "[2:16, 2:32, 4:64, 8:256, 8:2048, 2:8]");
}

TEST_CASE("book: slicing with views", "[mapping][seq]") {
  AxisEnv e = env({{"A", 16}, {"B", 8}, {"C", 8}});
  CHECK(str(nest("[A, B, C]", "[A / 4, A % 4 = 3, B / 4, B % 4 = 2]", "C", e)) ==
        "[4:256, 3:64, 2:32, 2:8, 8:1]");
}

TEST_CASE("book: broadcasting reads get stride 0", "[mapping][seq]") {
  AxisEnv e = env({{"A", 16}, {"T", 4}, {"P", 4}, {"N", 2048}});
  CHECK(str(nest("A", "[T, A]", "P", e)) == "[4:0, 16:1, 4:0]");
  // A broadcast packet is not replicated by an access here: one element per access.
  Sequencer s = seq("A", "[T, A]", "P", 1, e);
  CHECK(s.accessBytes == 1);
  CHECK(str(s.loops) == "[4:0, 16:1, 4:0]");
  // A fragment of an axis the buffer does not hold: N / 512 re-reads the buffer.
  CHECK(str(nest("N % 512", "N / 512", "N % 512", e)) == "[4:0, 512:1]");
}

TEST_CASE("sequencer: constant and always-zero stream digits read in place", "[mapping][seq]") {
  AxisEnv e = env({{"A", 16}});
  CHECK(str(nest("A", "[1 # 4, A % 1 # 2]", "A", e)) == "[4:0, 2:0, 16:1]");
}

TEST_CASE("book: non-contiguous packets", "[mapping][seq]") {
  SECTION("padded rows: packet of 32 written as 4 accesses of 8") {
    AxisEnv e = env({{"A", 4}, {"B", 8}});
    CHECK(str(nest("[A, B # 16]", "1", "[A, B]", e)) == "[4:16, 8:1]");
    Sequencer s = seq("[A, B # 16]", "1", "[A, B]", 1, e);
    CHECK(s.packetBytes == 32);
    CHECK(s.accessBytes == 8);
    CHECK(str(s.loops) == "[4:16]");
  }
  AxisEnv e = env({{"N", 4}, {"C", 3}, {"H", 4}, {"W", 8}});
  SECTION("contiguous: [N, C, H] x W") {
    CHECK(str(nest("[N, C, H, W]", "[N, C, H]", "W", e)) == "[4:96, 3:32, 4:8, 8:1]");
    Sequencer s = seq("[N, C, H, W]", "[N, C, H]", "W", 1, e);
    CHECK(s.accessBytes == 8);
    CHECK(str(s.loops) == "[48:8]");
  }
  SECTION("C interspersed: packet [N, H, W] of 128 needs 4 accesses of 32") {
    CHECK(str(nest("[N, C, H, W]", "C", "[N, H, W]", e)) == "[3:32, 4:96, 4:8, 8:1]");
    Sequencer s = seq("[N, C, H, W]", "C", "[N, H, W]", 1, e);
    CHECK(s.packetBytes == 128);
    CHECK(s.accessBytes == 32);
    CHECK(str(s.loops) == "[3:32, 4:96]");
    CHECK(s.accesses() == 3 * 4);
  }
}

TEST_CASE("sequencer: byte strides for wider elements", "[mapping][seq]") {
  AxisEnv e = env({{"A", 8}, {"B", 512}});
  // bf16 strided read: 32-element packets (64 B) from a contiguous buffer = 2 accesses of 32 B.
  Sequencer s = seq("[A, B]", "[A, B / 32]", "B % 32", 2, e);
  CHECK(s.packetBytes == 64);
  CHECK(s.accessBytes == 32);
  CHECK(str(s.loops) == "[256:32]");
  // f32 elements (4 B), an 8-element packet = one access of 32 B.
  Sequencer f = seq("[A, B]", "[B / 8, A]", "B % 8", 4, e);
  CHECK(f.accessBytes == 32);
  CHECK(str(f.loops) == "[64:32, 8:2048]");
}

TEST_CASE("sequencer: incompatible decompositions", "[mapping][seq][errors]") {
  AxisEnv e = env({{"A", 15}});
  Error err = seqError("[A % 5, A / 5]", "1", "[A % 3, A / 3]", 1, e);
  INFO(err.str());
  CHECK(err.term == "`A % 3`");
  CHECK(contains(err.message, "incompatible decomposition of axis A"));
  CHECK(contains(err.message, "buffer `A % 5`, `A / 5` vs stream `A % 3`, `A / 3`"));
  CHECK(contains(err.message, "blocks of 3 and 5 do not nest"));
  // The same decomposition is fine, in either order.
  CHECK(str(nest("[A % 5, A / 5]", "A / 5", "A % 5", e)) == "[3:1, 5:3]");
}

TEST_CASE("sequencer: ragged stream factors", "[mapping][seq][errors]") {
  AxisEnv e = env({{"W", 151936}});
  // The buffer splits W in 8192-blocks; reading W linearly would need a ragged inner loop.
  Error err = seqError("[W # 155648 / 8192, W # 155648 % 8192]", "1", "W", 2, e);
  CHECK(err.term == "`W`");
  CHECK(contains(err.message, "unsupported: ragged"));
  CHECK(contains(err.message, "151936 cells do not split into the buffer's blocks of 8192"));
  // Padding the stream to whole blocks works (the last block reads padding).
  CHECK(str(nest("[W # 155648 / 8192, W # 155648 % 8192]", "W # 155648 / 8192", "W # 155648 % 8192",
                 e)) == "[19:8192, 8192:1]");
  CHECK(str(nest("[W # 155648 / 8192, W # 155648 % 8192]", "1", "W # 155648", e)) ==
        "[19:8192, 8192:1]");
}

TEST_CASE("sequencer: duplicated digits", "[mapping][seq][errors]") {
  AxisEnv e = env({{"A", 16}});
  Error err;
  CHECK_FALSE(deriveElementNest(parse("[A % 4, A % 2]", e), parse("A", e), parse("1", e), err));
  CHECK(err.term == "`A % 2`");
  CHECK(err.message == "the buffer holds axis A twice (also `A % 4`)");
  CHECK_FALSE(deriveElementNest(parse("A", e), parse("A / 2", e), parse("A / 4", e), err));
  CHECK(err.term == "`A / 4`");
  CHECK(err.message == "the stream holds axis A twice (also `A / 2`)");
}

TEST_CASE("sequencer: 8-entry limit, at the limit and one past", "[mapping][seq][errors]") {
  AxisEnv e = env(
      {{"A", 2}, {"B", 2}, {"C", 2}, {"D", 2}, {"E", 2}, {"F", 2}, {"G", 2}, {"H", 2}, {"I", 2}});
  // Reversing the axis order makes every stride non-mergeable.
  Sequencer eight = seq("[A, B, C, D, E, F, G, H]", "[H, G, F, E, D, C, B, A]", "1", 1, e);
  CHECK(eight.loops.size() == 8);
  CHECK(str(eight.loops) == "[2:1, 2:2, 2:4, 2:8, 2:16, 2:32, 2:64, 2:128]");
  Error err = seqError("[A, B, C, D, E, F, G, H, I]", "[I, H, G, F, E, D, C, B, A]", "1", 1, e);
  CHECK(err.term == "time `[I, H, G, F, E, D, C, B, A]`, packet `1`");
  CHECK(contains(err.message, "needs 9 sequencer entries, limit 8"));
  CHECK(contains(err.message, "over buffer `[A, B, C, D, E, F, G, H, I]`"));
}

TEST_CASE("sequencer: entry size limit", "[mapping][seq][errors]") {
  AxisEnv e = env({{"A", 65536}, {"B", 131072}});
  Sequencer ok = seq("A", "A", "1", 1, e); // 65536 one-byte accesses: at the limit
  CHECK(str(ok.loops) == "[65536:1]");
  Error err = seqError("B", "B", "1", 1, e);
  CHECK(err.message == "entry 131072:1 exceeds the limit of 65536 iterations (buffer `B`)");
}

TEST_CASE("sequencer: element size must fit an access", "[mapping][seq][errors]") {
  AxisEnv e = env({{"A", 4}});
  Error err = seqError("A", "A", "1", 64, e);
  CHECK(contains(err.message, "element size 64 B must be a power of two <= the 32 B access"));
  Error odd = seqError("A", "A", "1", 3, e);
  CHECK(contains(odd.message, "element size 3 B"));
}

TEST_CASE("mergeLoops", "[mapping][seq]") {
  CHECK(mergeLoops({}).empty());
  CHECK(str(mergeLoops({{1, 5}, {1, 7}})) == "[]");
  CHECK(str(mergeLoops({{4, 8}, {1, 99}, {8, 1}})) == "[32:1]"); // size-1 loops vanish first
  CHECK(str(mergeLoops({{2, 0}, {3, 0}})) == "[6:0]");           // broadcast loops merge
  CHECK(str(mergeLoops({{2, 64}, {4, 16}, {4, 1}})) == "[8:16, 4:1]");
  CHECK(str(mergeLoops({{3, 96}, {4, 8}, {8, 1}})) == "[3:96, 32:1]");
}
