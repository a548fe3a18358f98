// Command words, configuration blocks and DMA descriptors: round trips and rejections.
#include "Builders.h"

#include <catch2/catch.hpp>

using namespace rngd;
using namespace rngd::isa;

TEST_CASE("command words round-trip through encode/decode", "[isa]") {
  std::vector<Command> cmds(6);
  cmds[0].opcode = Opcode::Config, cmds[0].context = Context::Sub, cmds[0].index = kMaxConfigIndex;
  cmds[1].opcode = Opcode::Exec, cmds[1].units = UnitFetch | UnitCollect | UnitCommit;
  cmds[2].opcode = Opcode::Wait, cmds[2].context = Context::Sub;
  cmds[3].opcode = Opcode::Wait, cmds[3].waitOnTag = true, cmds[3].tag = 63;
  cmds[4].opcode = Opcode::Dma, cmds[4].index = kMaxDescriptorIndex, cmds[4].tag = 17;
  cmds[5].opcode = Opcode::Exec, cmds[5].context = Context::Sub, cmds[5].units = 0x3ff;
  for (const Command &c : cmds) {
    std::string why;
    REQUIRE(checkCommand(c, why));
    uint32_t w = encode(c);
    auto d = decode(w, why);
    REQUIRE(d);
    CHECK(encode(*d) == w);
    CHECK(formatCommand(*d) == formatCommand(c));
  }
  CHECK(encode(cmds[0]) == ((0x04u << 25) | (1u << 24) | kMaxConfigIndex));
  CHECK(encode(cmds[3]) == ((0x11u << 25) | (1u << 16) | 63u));
  CHECK(encode(cmds[4]) == ((0x13u << 25) | (kMaxDescriptorIndex << 6) | 17u));
  CHECK(formatCommand(cmds[0]) == "rngd.load 1048575 sub");
  CHECK(formatCommand(cmds[1]) == "rngd.exec main [fetch, collect, commit]");
  CHECK(formatCommand(cmds[2]) == "rngd.wait sub");
  CHECK(formatCommand(cmds[3]) == "rngd.wait tag 63");
  CHECK(formatCommand(cmds[4]) == "rngd.dma 524287 tag 17");
  CHECK(formatCommand(cmds[5]) == "rngd.exec sub [fetch, switch, collect, contract, vector, cast, "
                                  "transpose, commit, trf, vrf]");
  CHECK(encode(cmds[5]) == ((0x10u << 25) | (1u << 24) | 0x3ffu));
  Command empty;
  empty.opcode = Opcode::Exec;
  CHECK(formatCommand(empty) == "rngd.exec main []");
}

TEST_CASE("command decode rejects unknown opcodes and reserved bits", "[isa]") {
  std::string why;
  CHECK_FALSE(decode(0x7fu << 25, why));
  CHECK(why.find("unknown opcode 0x7f") != std::string::npos);
  CHECK_FALSE(decode(0, why));
  CHECK_FALSE(decode((0x04u << 25) | (1u << 22), why)); // config [23:20] reserved
  CHECK(why.find("reserved bits 0x400000") != std::string::npos);
  CHECK_FALSE(decode((0x10u << 25) | (1u << 10), why)); // exec: unit bit 10 does not exist
  CHECK(why.find("reserved bits 0x400 set in exec") != std::string::npos);
  CHECK(decode((0x10u << 25) | (1u << 9), why)); // vrf
  CHECK_FALSE(decode((0x10u << 25) | (1u << 20), why));
  CHECK_FALSE(decode((0x11u << 25) | (1u << 16) | (1u << 24), why)); // tag wait with a context
  CHECK_FALSE(decode((0x11u << 25) | 5u, why));                      // context wait with a tag
  CHECK_FALSE(decode((0x11u << 25) | (1u << 8), why));
  Command bad;
  bad.opcode = Opcode::Config;
  bad.index = kMaxConfigIndex + 1;
  CHECK_FALSE(checkCommand(bad, why));
}

TEST_CASE("unit tables have the documented fields and sizes", "[isa]") {
  const UnitSpec *fetch = findUnit("fetch");
  REQUIRE(fetch);
  CHECK(fetch->unit == Unit::Fetch);
  CHECK(valueCount(*fetch) == 4 + 3 * 8);
  CHECK(wordCount(*fetch) == 14); // 22+3+16+4 + 8*(17+24+64) = 885 bits
  CHECK(wordCount(*findUnit("vector")) == 11); // 4 + 8*(5+6+2+32+32) + 13+16+3+16+4+1+4 = 677
  CHECK(wordCount(*findUnit("cast")) == 1);
  CHECK(wordCount(*findUnit("commit")) == 14); // 28 + 8*105 = 868 bits
  CHECK(findUnit(Unit::Commit) == findUnit("commit"));
  CHECK(findUnit("nope") == nullptr);
  std::vector<std::string> names;
  for (const FieldSpec &f : fetch->fields)
    names.push_back(f.name);
  CHECK(names == std::vector<std::string>{"base", "access_log2", "packet_bytes", "cast", "limits",
                                          "strides", "slices"});
}

TEST_CASE("config blocks pack LSB-first across words and unpack", "[isa]") {
  FetchConfig f;
  f.base = (1 << 22) - 1;
  f.accessLog2 = 5;
  f.packetBytes = 65535;
  f.cast = FetchCast::Bf16ToF32;
  f.limits = {65536, 1, 2, 3, 4, 5, 6, 131071};
  f.strides = {-1, (1 << 23) - 1, -(1 << 23), 0, 8, -8, 128, 4096};
  f.slices = {~0ull, 0x8000000000000001ull, 0, 1, 2, 3, 4, 0x123456789abcdef0ull};
  const UnitSpec &spec = *findUnit(Unit::Fetch);
  std::vector<uint64_t> words;
  std::string why;
  REQUIRE(packBlock(spec, f.values(), words, why));
  REQUIRE(words.size() == 14);
  // base occupies bits [21:0], access_log2 [24:22], packet_bytes [40:25], cast [44:41].
  CHECK((words[0] & 0x3fffff) == 0x3fffff);
  CHECK(((words[0] >> 22) & 7) == 5);
  CHECK(((words[0] >> 25) & 0xffff) == 65535);
  CHECK(((words[0] >> 41) & 0xf) == 1);
  // limits[0] = 65536 at [61:45]; limits[1] straddles words 0 and 1 at [78:62].
  CHECK(((words[0] >> 45) & 0x1ffff) == 65536);
  CHECK(((words[0] >> 62) | ((words[1] & 0x7fff) << 2)) == 1);
  auto back = unpackBlock(spec, words);
  CHECK(back == f.values());
  auto typed = FetchConfig::fromValues(back);
  CHECK(typed.strides[2] == -(1 << 23));
  CHECK(typed.slices[7] == 0x123456789abcdef0ull);

  VectorConfig v;
  v.steps = 2;
  v.step[0] = {int64_t(Alu::FxpAdd), int64_t(VectorOp::Add), 0, 0xffffffffu};
  v.step[1] = {int64_t(Alu::FpMul0), int64_t(VectorOp::Mul), 0, 0x3f800000u};
  REQUIRE(packBlock(*findUnit(Unit::Vector), v.values(), words, why));
  auto vb = VectorConfig::fromValues(unpackBlock(*findUnit(Unit::Vector), words));
  CHECK(vb.step[0].imm == 0xffffffffu);
  CHECK(vb.step[1].alu == int64_t(Alu::FpMul0));
  CHECK(vb.values() == v.values());
}

TEST_CASE("config values that do not fit their width are rejected with a named field", "[isa]") {
  const UnitSpec &spec = *findUnit(Unit::Fetch);
  std::vector<uint64_t> words;
  std::string why;
  FetchConfig f;
  f.limits[3] = 131072;
  CHECK_FALSE(packBlock(spec, f.values(), words, why));
  CHECK(why == "fetch.limits[3] = 131072 does not fit 17 unsigned bits");
  f = FetchConfig();
  f.strides[0] = -(1 << 23) - 1;
  CHECK_FALSE(packBlock(spec, f.values(), words, why));
  CHECK(why == "fetch.strides[0] = -8388609 does not fit 24 signed bits");
  f = FetchConfig();
  f.base = -1;
  CHECK_FALSE(packBlock(spec, f.values(), words, why));
  CHECK(why == "fetch.base = -1 does not fit 22 unsigned bits");
  CHECK_FALSE(packBlock(spec, {1, 2, 3}, words, why));
  CHECK(why.find("3 values, expected 28") != std::string::npos);
}

TEST_CASE("config semantic rules", "[isa]") {
  std::string why;
  FetchConfig f;
  f.packetBytes = 32;
  CHECK(validateBlock(*findUnit(Unit::Fetch), f.values(), why));
  f.accessLog2 = 6;
  CHECK_FALSE(validateBlock(*findUnit(Unit::Fetch), f.values(), why));
  f.accessLog2 = 0;
  f.limits[7] = 0;
  CHECK_FALSE(validateBlock(*findUnit(Unit::Fetch), f.values(), why));
  CHECK(why == "fetch.limits[7] = 0 is outside 1..65536");
  CommitConfig c;
  c.writeBytes = 12;
  CHECK_FALSE(validateBlock(*findUnit(Unit::Commit), c.values(), why));
  VectorConfig v;
  v.steps = 1;
  v.step[3].imm = 5;
  CHECK_FALSE(validateBlock(*findUnit(Unit::Vector), v.values(), why));
  CHECK(why.find("vector step 3 is unused") != std::string::npos);
  CHECK_FALSE(validateBlock(*findUnit(Unit::Cast), {7}, why));
}

TEST_CASE("descriptors round-trip and reject malformed bytes", "[isa]") {
  Descriptor d = test::descriptor(test::hbmAddr(0x100), test::dmAddr(300, 64), 4096,
                                  {2, 65536, 3}, {8192, -16, 0}, {1 << 22, 8, -2147483647 - 1}, 7);
  uint8_t bytes[kDescriptorBytes];
  encodeDescriptor(d, bytes);
  std::string why;
  auto back = decodeDescriptor(bytes, why);
  REQUIRE(back);
  CHECK(back->engine == 7);
  CHECK(back->src == d.src);
  CHECK(back->dst == d.dst);
  CHECK(back->limits == d.limits);
  CHECK(back->srcStrides == d.srcStrides);
  CHECK(back->dstStrides == d.dstStrides);
  CHECK(bytes[28] == 3); // loop count

  auto rejects = [&](auto patch, const char *needle) {
    uint8_t b[kDescriptorBytes];
    encodeDescriptor(d, b);
    patch(b);
    std::string w;
    CHECK_FALSE(decodeDescriptor(b, w));
    CHECK(w.find(needle) != std::string::npos);
  };
  rejects([](uint8_t *b) { b[200] = 1; }, "reserved byte 200");
  rejects([](uint8_t *b) { b[28] = 9; }, "loop count 9 exceeds 8");
  rejects([](uint8_t *b) { b[32 + 4 * 5] = 1; }, "loop entry 5 is past the loop count 3");
  rejects([](uint8_t *b) { b[32] = 0, b[33] = 0, b[34] = 0; }, "limits[0] = 0");
  rejects([](uint8_t *b) { b[32 + 4] = 1, b[33 + 4] = 0, b[34 + 4] = 1; }, "limits[1] = 65537");
  rejects([](uint8_t *b) { b[0] = 3; }, "kind 3");
  rejects([](uint8_t *b) { b[136] = 1; }, "kind 0 (tensor loop) has nonzero index fields");
  rejects([](uint8_t *b) { b[144] = 1; }, "reserved byte 144");
  rejects([](uint8_t *b) { b[4] = 8; }, "engine 8");
  rejects([](uint8_t *b) { b[24] = b[25] = 0; }, "packet size is 0");

  Descriptor bad = d;
  bad.srcStrides.pop_back();
  CHECK_FALSE(checkDescriptor(bad, why));
}
