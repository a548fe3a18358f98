// Command words, configuration blocks and DMA descriptors: round trips and rejections.
#include "Builders.h"
#include <algorithm>

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

TEST_CASE("main's second register bank: bit 23 of loads and execs", "[isa]") {
  Command load;
  load.opcode = Opcode::Config, load.bank = 1, load.index = 5;
  Command exec;
  exec.opcode = Opcode::Exec, exec.bank = 1, exec.units = UnitFetch | UnitCollect | UnitCommit;
  std::string why;
  for (const Command &c : {load, exec}) {
    REQUIRE(checkCommand(c, why));
    auto d = decode(encode(c), why);
    REQUIRE(d);
    CHECK(d->bank == 1);
    CHECK(encode(*d) == encode(c));
  }
  CHECK(encode(load) == ((0x04u << 25) | (1u << 23) | 5u));
  CHECK(encode(exec) == ((0x10u << 25) | (1u << 23) | 0x85u));
  CHECK(formatCommand(load) == "rngd.load 5 main bank 1");
  CHECK(formatCommand(exec) == "rngd.exec main bank 1 [fetch, collect, commit]");
  // The sub context has one bank; waits and DMAs take none.
  CHECK_FALSE(decode((0x04u << 25) | (1u << 24) | (1u << 23) | 5u, why));
  CHECK(why.find("register bank 1 of the sub context, which has one bank") != std::string::npos);
  CHECK_FALSE(decode((0x10u << 25) | (1u << 24) | (1u << 23), why));
  CHECK_FALSE(decode((0x11u << 25) | (1u << 23), why)); // a context wait
  CHECK(why.find("reserved bits 0x800000") != std::string::npos);
  Command bad = load;
  bad.context = Context::Sub;
  CHECK_FALSE(checkCommand(bad, why));
  CHECK(why == "register bank 1 of the sub context, which has 1");
  bad = load;
  bad.bank = 2;
  CHECK_FALSE(checkCommand(bad, why));
  CHECK(why == "register bank 2 of the main context, which has 2");
  bad.opcode = Opcode::Wait, bad.bank = 1;
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
  CHECK(wordCount(*findUnit("commit")) == 14); // 28 + 8*105 + 2 = 870 bits
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
  isa::setVectorStep(v, 0, isa::VectorStep{int64_t(Alu::FxpAdd), int64_t(VectorOp::Add), 0, 0xffffffffu});
  isa::setVectorStep(v, 1, isa::VectorStep{int64_t(Alu::FpMul0), int64_t(VectorOp::Mul), 0, 0x3f800000u});
  REQUIRE(packBlock(*findUnit(Unit::Vector), v.values(), words, why));
  auto vb = VectorConfig::fromValues(unpackBlock(*findUnit(Unit::Vector), words));
  CHECK(vb.imm[0] == 0xffffffffu);
  CHECK(vb.alu[1] == int64_t(Alu::FpMul0));
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
  CHECK(validateBlock(defaultTarget(), *findUnit(Unit::Fetch), f.values(), why));
  f.accessLog2 = 6;
  CHECK_FALSE(validateBlock(defaultTarget(), *findUnit(Unit::Fetch), f.values(), why));
  f.accessLog2 = 0;
  f.limits[7] = 0;
  CHECK_FALSE(validateBlock(defaultTarget(), *findUnit(Unit::Fetch), f.values(), why));
  CHECK(why == "fetch.limits[7] = 0 is outside 1..65536");
  CommitConfig c;
  c.writeBytes = 12;
  CHECK_FALSE(validateBlock(defaultTarget(), *findUnit(Unit::Commit), c.values(), why));
  VectorConfig v;
  v.steps = 1;
  v.imm[3] = 5;
  CHECK_FALSE(validateBlock(defaultTarget(), *findUnit(Unit::Vector), v.values(), why));
  CHECK(why.find("vector step 3 is unused") != std::string::npos);
  CHECK_FALSE(validateBlock(defaultTarget(), *findUnit(Unit::Cast), {7}, why));
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

  // The encoding's own defects stop the decoder; the rest decodes and fails the target's rules.
  auto decodeError = [&](auto patch) {
    uint8_t b[kDescriptorBytes];
    encodeDescriptor(d, b);
    patch(b);
    std::string w;
    CHECK_FALSE(decodeDescriptor(b, w));
    return w;
  };
  auto ruleError = [&](auto patch) {
    uint8_t b[kDescriptorBytes];
    encodeDescriptor(d, b);
    patch(b);
    std::string w;
    auto back = decodeDescriptor(b, w);
    REQUIRE(back);
    CHECK_FALSE(checkDescriptor(defaultTarget(), *back, w));
    return w;
  };
  auto has = [](const std::string &text, const char *needle) {
    INFO(text);
    CHECK(text.find(needle) != std::string::npos);
  };
  has(decodeError([](uint8_t *b) { b[200] = 1; }), "reserved byte 200");
  has(decodeError([](uint8_t *b) { b[28] = 9; }), "loop count 9 exceeds 8");
  has(decodeError([](uint8_t *b) { b[32 + 4 * 5] = 1; }), "loop entry 5 is past the loop count 3");
  has(decodeError([](uint8_t *b) { b[144] = 1; }), "reserved byte 144");
  has(ruleError([](uint8_t *b) { b[32] = 0, b[33] = 0, b[34] = 0; }), "limits[0] = 0");
  has(ruleError([](uint8_t *b) { b[32 + 4] = 1, b[33 + 4] = 0, b[34 + 4] = 1; }),
      "limits[1] = 65537");
  has(ruleError([](uint8_t *b) { b[0] = 3; }), "kind 3");
  has(ruleError([](uint8_t *b) { b[136] = 1; }), "kind 0 (tensor loop) has nonzero index fields");
  has(ruleError([](uint8_t *b) { b[24] = b[25] = 0; }), "packet size is 0");
  has(ruleError([](uint8_t *b) { b[4] = 8; }), "DMA engine 8 is outside 0..7");

  Descriptor bad = d;
  bad.srcStrides.pop_back();
  CHECK_FALSE(checkDescriptor(defaultTarget(), bad, why));
  CHECK(why == "descriptor has 3 limits but 2 source and 3 destination strides");
}

TEST_CASE("descriptor loop limits come from the target", "[isa][dma][target]") {
  std::string why;
  auto loops = [](size_t n, uint32_t limit) {
    return test::descriptor(test::hbmAddr(0), test::hbmAddr(4096), 8,
                            std::vector<uint32_t>(n, limit), std::vector<int32_t>(n, 0),
                            std::vector<int32_t>(n, 0));
  };
  // rngd-1chip: trip counts 1..65536 (dmaMaxLoopIterations), 8 loops (dmaMaxLoops).
  const TargetModel &chip = defaultTarget();
  CHECK(checkDescriptor(chip, loops(2, 300), why));
  CHECK(checkDescriptor(chip, loops(2, 65536), why));
  CHECK_FALSE(checkDescriptor(chip, loops(2, 65537), why));
  CHECK(why == "descriptor limits[0] = 65537 is outside 1..65536");
  CHECK(checkDescriptor(chip, loops(8, 2), why));
  CHECK_FALSE(checkDescriptor(chip, loops(9, 2), why));
  CHECK(why == "descriptor has 9 loops, target rngd-1chip runs at most 8");
  // A machine with other numbers moves the limits with it: they are not the encoding's.
  TargetModel small = chip;
  small.name = "small";
  small.dmaMaxLoopIterations = 1000;
  small.dmaMaxLoops = 4;
  CHECK(checkDescriptor(small, loops(4, 1000), why));
  CHECK_FALSE(checkDescriptor(small, loops(4, 1001), why));
  CHECK(why == "descriptor limits[0] = 1001 is outside 1..1000");
  CHECK_FALSE(checkDescriptor(small, loops(5, 2), why));
  CHECK(why == "descriptor has 5 loops, target small runs at most 4");
}

TEST_CASE("sequencer limits and block rules come from the target", "[isa][target]") {
  std::string why;
  const UnitSpec &fetchSpec = *findUnit(Unit::Fetch), &commitSpec = *findUnit(Unit::Commit);
  const TargetModel &chip = defaultTarget();
  FetchConfig f;
  f.packetBytes = 32;
  f.limits[0] = 300;
  CHECK(validateBlock(chip, fetchSpec, f.values(), why));
  f.limits[0] = 65536; // maxSequencerEntrySize
  CHECK(validateBlock(chip, fetchSpec, f.values(), why));
  f.limits[0] = 65537;
  CHECK_FALSE(validateBlock(chip, fetchSpec, f.values(), why));
  CHECK(why == "fetch.limits[0] = 65537 is outside 1..65536");
  f.limits[0] = 1;
  f.accessLog2 = 5; // 32 bytes: maxFetchAccessBytes
  CHECK(validateBlock(chip, fetchSpec, f.values(), why));
  f.accessLog2 = 6;
  CHECK_FALSE(validateBlock(chip, fetchSpec, f.values(), why));
  CHECK(why == "fetch.access_log2 = 6 is outside 0..5 (1..32 bytes)");
  CommitConfig c;
  c.writeBytes = 32; // flitBytes
  CHECK(validateBlock(chip, commitSpec, c.values(), why));
  c.writeBytes = 40;
  CHECK_FALSE(validateBlock(chip, commitSpec, c.values(), why));
  CHECK(why == "commit.write_bytes = 40 is not 8, 16, 24 or 32");

  // Another machine: 1000 iterations in 4 sequencer entries, 16-byte accesses and flits.
  TargetModel small = chip;
  small.name = "small";
  small.maxSequencerEntrySize = 1000;
  small.maxSequencerEntries = 4;
  small.maxFetchAccessBytes = 16;
  small.flitBytes = 16;
  f = FetchConfig();
  f.packetBytes = 32;
  f.limits[3] = 1000;
  CHECK(validateBlock(small, fetchSpec, f.values(), why));
  f.limits[3] = 1001;
  CHECK_FALSE(validateBlock(small, fetchSpec, f.values(), why));
  CHECK(why == "fetch.limits[3] = 1001 is outside 1..1000");
  f.limits[3] = 1;
  f.limits[4] = 2; // the block's fifth entry: the machine has four
  CHECK_FALSE(validateBlock(small, fetchSpec, f.values(), why));
  CHECK(why == "fetch.limits[4] = 2 is outside 1..1 (target small's sequencers have 4 entries)");
  f.limits[4] = 1;
  f.accessLog2 = 4;
  CHECK(validateBlock(small, fetchSpec, f.values(), why));
  f.accessLog2 = 5;
  CHECK_FALSE(validateBlock(small, fetchSpec, f.values(), why));
  CHECK(why == "fetch.access_log2 = 5 is outside 0..4 (1..16 bytes)");
  c.writeBytes = 16;
  CHECK(validateBlock(small, commitSpec, c.values(), why));
  c.writeBytes = 24;
  CHECK_FALSE(validateBlock(small, commitSpec, c.values(), why));
  CHECK(why == "commit.write_bytes = 24 is not 8 or 16");
  ContractConfig k; // one flit of bf16: 8 elements on a 16-byte flit
  k.packetElems = 8;
  CHECK(validateBlock(small, *findUnit(Unit::Contract), k.values(), why));
  k.window = 4;
  CHECK(validateBlock(small, *findUnit(Unit::Contract), k.values(), why));
  k.window = 5;
  CHECK_FALSE(validateBlock(small, *findUnit(Unit::Contract), k.values(), why));
  CHECK(why == "contract.window = 5 is outside 0..4");
}

TEST_CASE("a target whose limits exceed the encoding is refused", "[isa][target]") {
  CHECK(checkTargetEncoding(defaultTarget()).empty());
  CHECK(checkTargetEncoding(*findTarget("rngd-1cluster")).empty());
  auto verdict = [](auto change) {
    TargetModel t = defaultTarget();
    t.name = "big";
    change(t);
    return checkTargetEncoding(t);
  };
  // Each limit at the encoding's capacity fits; one past it does not.
  CHECK(verdict([](TargetModel &t) { t.maxSequencerEntries = kSequencerLoops; }).empty());
  CHECK(verdict([](TargetModel &t) { t.maxSequencerEntries = kSequencerLoops + 1; }) ==
        "target big has maxSequencerEntries = 9, more than the 8 loop entries of a "
        "configuration block");
  CHECK(verdict([](TargetModel &t) { t.maxSequencerEntrySize = 131071; }).empty());
  CHECK(verdict([](TargetModel &t) { t.maxSequencerEntrySize = 131072; }) ==
        "target big has maxSequencerEntrySize = 131072, more than the 131071 a configuration "
        "block's `limits` holds");
  CHECK(verdict([](TargetModel &t) { t.dmaMaxLoops = kDescriptorLoops; }).empty());
  CHECK(verdict([](TargetModel &t) { t.dmaMaxLoops = kDescriptorLoops + 1; }) ==
        "target big has dmaMaxLoops = 9, more than the 8 loop entries of a descriptor");
  CHECK(verdict([](TargetModel &t) { t.dmaMaxLoopIterations = 4294967295; }).empty());
  CHECK(verdict([](TargetModel &t) { t.dmaMaxLoopIterations = 4294967296; }) ==
        "target big has dmaMaxLoopIterations = 4294967296, more than the 4294967295 a "
        "descriptor's `limits` holds");
  CHECK(verdict([](TargetModel &t) { t.slicesPerCluster = 256, t.clusters = 2; }).empty());
  CHECK(verdict([](TargetModel &t) { t.clusters = 3; }) ==
        "target big has clusters x slicesPerCluster = 768, more than the 512 bits of a "
        "slice-enable bitmap");
  CHECK(verdict([](TargetModel &t) { t.maxFetchAccessBytes = 256; }).find("access_log2") !=
        std::string::npos);
  CHECK(verdict([](TargetModel &t) { t.vectorReduceSlots = 16; }).find("reduce_slots") !=
        std::string::npos);
}

TEST_CASE("the descriptor table: layout, values and text form", "[isa][dma]") {
  std::vector<std::string> names;
  std::vector<int> offsets;
  for (const DescriptorField &f : kDescriptorFields) {
    names.push_back(f.name);
    offsets.push_back(f.offset);
  }
  CHECK(names == std::vector<std::string>{"kind", "engine", "src", "dst", "packet_bytes",
                                          "loops", "limits", "src_strides", "dst_strides",
                                          "index_address", "index_count", "indirect_loop"});
  CHECK(offsets == std::vector<int>{0, 4, 8, 16, 24, 28, 32, 64, 96, 128, 136, 140});
  CHECK(kDescriptorReservedAt == 144);

  Descriptor g = test::descriptor(test::hbmAddr(0), test::dmAddr(0, 0), 8, {3, 2}, {0, 4},
                                  {16, -8}, 1);
  g.kind = uint32_t(DmaKind::Scatter);
  g.indexAddress = test::hbmAddr(256);
  g.indexCount = 2;
  g.indirectLoop = 1;
  DescriptorValues v = descriptorValues(g);
  CHECK(v[5] == std::vector<int64_t>{2}); // the loop count
  std::string why;
  CHECK(checkDescriptorValues(v, why));
  Descriptor back = descriptorFromValues(v);
  CHECK(descriptorValues(back) == v);
  CHECK(formatDescriptor(v) == "engine 1 src 0xc000000000 dst 0x10000000 packet 8 limits [3, 2] "
                               "src_strides [0, 4] dst_strides [16, -8] scatter index "
                               "0xc000000100 count 2 loop 1");
  for (size_t r : {0, 9, 10, 11}) // kind and index fields: a tensor loop writes none
    v[r] = {0};
  CHECK(formatDescriptor(v) == "engine 1 src 0xc000000000 dst 0x10000000 packet 8 limits [3, 2] "
                               "src_strides [0, 4] dst_strides [16, -8]");

  // The text form's values are wider than the fields: at a field's edge and one past it.
  v[1] = {4294967295};
  CHECK(checkDescriptorValues(v, why));
  v[1] = {4294967296};
  CHECK_FALSE(checkDescriptorValues(v, why));
  CHECK(why == "engine = 4294967296 does not fit 32 unsigned bits");
  v[1] = {0};
  v[7] = {-2147483648, 2147483647};
  CHECK(checkDescriptorValues(v, why));
  v[7] = {-2147483649, 0};
  CHECK_FALSE(checkDescriptorValues(v, why));
  CHECK(why == "src_strides[0] = -2147483649 does not fit 32 signed bits");
  v[7] = {0};
  CHECK_FALSE(checkDescriptorValues(v, why));
  CHECK(why == "has 2 loops (limits) but 1 src_strides");
  v = descriptorValues(test::descriptor(0, 0, 8, std::vector<uint32_t>(8, 1),
                                        std::vector<int32_t>(8, 0), std::vector<int32_t>(8, 0)));
  CHECK(checkDescriptorValues(v, why));
  v[5] = {9};
  CHECK_FALSE(checkDescriptorValues(v, why));
  CHECK(why == "has 9 loops; a descriptor holds at most 8");
}

// ---- The engine blocks: contract, trf_write, vrf_write, switch, transpose, vector, cast -------

namespace {

// Packs, unpacks and re-reads a block; returns the validation verdict (why on failure).
bool roundTrip(Unit unit, const std::vector<int64_t> &values, std::string &why) {
  const UnitSpec &spec = *findUnit(unit);
  std::vector<uint64_t> words;
  if (!packBlock(spec, values, words, why))
    return false;
  REQUIRE(words.size() == wordCount(spec));
  CHECK(unpackBlock(spec, words) == values);
  return validateBlock(defaultTarget(), spec, values, why);
}

std::vector<std::string> fieldNames(const char *unit) {
  std::vector<std::string> names;
  for (const FieldSpec &f : findUnit(unit)->fields)
    names.push_back(f.name);
  return names;
}

} // namespace

TEST_CASE("engine unit tables: names, ids, field order and sizes", "[isa]") {
  CHECK(findUnit("contract")->unit == Unit::Contract);
  CHECK(findUnit("trf_write")->unit == Unit::TrfWrite);
  CHECK(findUnit("vrf_write")->unit == Unit::VrfWrite);
  CHECK(findUnit("switch")->unit == Unit::Switch);
  CHECK(findUnit("transpose")->unit == Unit::Transpose);
  CHECK(int(Unit::Contract) == 5);
  CHECK(int(Unit::Transpose) == 9);
  CHECK(fieldNames("vector") ==
        std::vector<std::string>{"steps", "alu", "op", "mode", "imm", "imm2", "vrf_base",
                                 "vrf_flit_stride", "vrf_elem_stride", "vrf_period",
                                 "reduce_slots", "reduce_tree", "inter_group_log2"});
  CHECK(fieldNames("contract") ==
        std::vector<std::string>{"pack", "lanes_log2", "mac", "packet_elems", "trf_base",
                                 "window", "slots", "limits", "stream_strides", "trf_strides",
                                 "acc_strides", "lane_mode"});
  CHECK(fieldNames("trf_write") == std::vector<std::string>{"base", "lanes_log2", "lane_bytes"});
  CHECK(fieldNames("vrf_write") == std::vector<std::string>{"base", "bytes"});
  CHECK(fieldNames("switch") == std::vector<std::string>{"mode", "slice1", "slice0", "time0"});
  CHECK(fieldNames("transpose") ==
        std::vector<std::string>{"elem_log2", "in_rows", "in_cols", "out_rows"});
  // contract: 2+2+2+7+17+4+8 + 8 x (17+16+24+9) + 1 = 571 bits; the others fit one word.
  CHECK(wordCount(*findUnit("contract")) == 9);
  CHECK(valueCount(*findUnit("contract")) == 7 + 4 * 8 + 1);
  CHECK(valueCount(*findUnit("vector")) == 1 + 5 * 8 + 7);
  for (const char *one : {"trf_write", "vrf_write", "switch", "transpose", "cast"})
    CHECK(wordCount(*findUnit(one)) == 1);
  CHECK(std::string(unitBitName(8)) == "trf");
  CHECK(std::string(unitBitName(9)) == "vrf");
  CHECK(unitBitName(10) == nullptr);
}

TEST_CASE("contract blocks: limits at and past their ranges", "[isa][contract]") {
  ContractConfig c;
  c.pack = 2;
  c.lanesLog2 = 3;
  c.mac = MacType::Bf16;
  c.packetElems = 32;
  c.trfBase = (1 << 17) - 1;
  c.window = 8;
  c.slots = 255;
  c.limits = {65536, 2, 1, 1, 1, 1, 1, 3};
  c.streamStrides = {-32768, 32767, 0, 0, 0, 0, 0, 1};
  c.trfStrides = {-(1 << 23), (1 << 23) - 1, 0, 0, 0, 0, 0, 64};
  c.accStrides = {0, 127, 0, 0, 0, 0, 0, 0}; // max slot 127 < 255
  c.laneMode = LaneMode::Sequential;
  std::string why;
  CHECK(roundTrip(Unit::Contract, c.values(), why));
  auto back = ContractConfig::fromValues(c.values());
  CHECK(back.values() == c.values());
  CHECK(back.trfStrides[0] == -(1 << 23));
  CHECK(back.mac == MacType::Bf16);
  CHECK(back.laneMode == LaneMode::Sequential);

  auto rejects = [&](auto patch, const std::string &needle) {
    ContractConfig d = c;
    patch(d);
    std::string w;
    CHECK_FALSE(roundTrip(Unit::Contract, d.values(), w));
    INFO(w);
    CHECK(w.find(needle) != std::string::npos);
  };
  rejects([](ContractConfig &d) { d.pack = 3; }, "contract.pack = 3 is not 1 or 2");
  rejects([](ContractConfig &d) { d.pack = 0; }, "contract.pack = 0");
  rejects([](ContractConfig &d) { d.mac = MacType(2); }, "contract.mac = 2 is not a known MAC");
  rejects([](ContractConfig &d) { d.packetElems = 16; },
          "contract.packet_elems = 16 but a packet of 2 flits holds 32 bf16 elements");
  rejects([](ContractConfig &d) { d.mac = MacType::I8; },
          "packet of 2 flits holds 64 i8 elements");
  rejects([](ContractConfig &d) { d.window = 9; }, "contract.window = 9 is outside 0..8");
  rejects([](ContractConfig &d) { d.slots = 0; }, "contract.slots = 0");
  rejects([](ContractConfig &d) { d.slots = 256; }, "contract.slots = 256 does not fit 8");
  rejects([](ContractConfig &d) { d.limits[2] = 0; }, "contract.limits[2] = 0 is outside");
  rejects([](ContractConfig &d) { d.limits[2] = 65537; },
          "contract.limits[2] = 65537 is outside 1..65536");
  rejects([](ContractConfig &d) { d.streamStrides[1] = 32768; },
          "contract.stream_strides[1] = 32768 does not fit 16 signed bits");
  rejects([](ContractConfig &d) { d.trfBase = 1 << 17; }, "contract.trf_base = 131072");
  rejects([](ContractConfig &d) { d.accStrides[1] = 512; }, "does not fit 9 unsigned bits");
  rejects([](ContractConfig &d) { d.accStrides[1] = 255; },
          "contract accumulator slot index reaches 255");
  ContractConfig i8 = c;
  i8.mac = MacType::I8;
  i8.pack = 1;
  i8.packetElems = 32;
  CHECK(roundTrip(Unit::Contract, i8.values(), why));
}

TEST_CASE("register-file write, switch and transpose blocks", "[isa]") {
  std::string why;
  TrfWriteConfig t{(1 << 17) - 1, 3, (1 << 17) - 1};
  CHECK(roundTrip(Unit::TrfWrite, t.values(), why));
  CHECK(TrfWriteConfig::fromValues(t.values()).laneBytes == (1 << 17) - 1);
  t.laneBytes = 0;
  CHECK_FALSE(roundTrip(Unit::TrfWrite, t.values(), why));
  CHECK(why == "trf_write.lane_bytes = 0 must be at least 1");
  t.laneBytes = 1 << 17;
  CHECK_FALSE(roundTrip(Unit::TrfWrite, t.values(), why));
  CHECK(why == "trf_write.lane_bytes = 131072 does not fit 17 unsigned bits");

  VrfWriteConfig v{8191, 16383};
  CHECK(roundTrip(Unit::VrfWrite, v.values(), why));
  v.bytes = 0;
  CHECK_FALSE(roundTrip(Unit::VrfWrite, v.values(), why));
  CHECK(why == "vrf_write.bytes = 0 must be at least 1");
  v = {8192, 1};
  CHECK_FALSE(roundTrip(Unit::VrfWrite, v.values(), why));
  CHECK(why == "vrf_write.base = 8192 does not fit 13 unsigned bits");

  SwitchConfig s{SwitchMode::Broadcast01, 256, 1, (1 << 17) - 1};
  CHECK(roundTrip(Unit::Switch, s.values(), why));
  CHECK(SwitchConfig::fromValues(s.values()).mode == SwitchMode::Broadcast01);
  for (auto mode : {SwitchMode::Broadcast1, SwitchMode::Transpose,
                    SwitchMode::TransposedBroadcast1})
    CHECK(roundTrip(Unit::Switch, SwitchConfig{mode, 16, 16, 0}.values(), why));
  CHECK(roundTrip(Unit::Switch, SwitchConfig{SwitchMode::InterTranspose, 2, 16, 2}.values(), why));
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode(0), 2, 2, 1}.values(), why));
  CHECK(why.find("switch.mode = 0 is not a known switch mode") == 0);
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode(6), 2, 2, 1}.values(), why));
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode::Transpose, 256, 2, 0}.values(), why));
  CHECK(why == "switch ring size slice1 x slice0 = 512 is not a power of two up to a cluster's 256 slices");
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode::Transpose, 3, 1, 0}.values(), why));
  CHECK(why == "switch ring size slice1 x slice0 = 3 is not a power of two up to a cluster's 256 slices");
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode::Transpose, 0, 4, 0}.values(), why));
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode::Broadcast01, 2, 2, 0}.values(), why));
  CHECK(why == "switch.time0 = 0; Broadcast01 and InterTranspose need time0 >= 1");
  CHECK_FALSE(roundTrip(Unit::Switch, SwitchConfig{SwitchMode::Broadcast1, 512, 1, 0}.values(), why));
  CHECK(why == "switch.slice1 = 512 does not fit 9 unsigned bits");

  for (int64_t e = 0; e <= 2; ++e)
    for (int64_t cols : {8, 16, 32}) {
      TransposeConfig c{e, 8 >> e, cols, cols};
      CHECK(roundTrip(Unit::Transpose, c.values(), why));
      c.inRows = (8 >> e) + 1; // one row past the element size's limit
      CHECK_FALSE(roundTrip(Unit::Transpose, c.values(), why));
      CHECK(why.find("transpose.in_rows = " + std::to_string((8 >> e) + 1) + " is outside 1..") ==
            0);
    }
  CHECK_FALSE(roundTrip(Unit::Transpose, TransposeConfig{3, 1, 8, 8}.values(), why));
  CHECK(why.find("transpose.elem_log2 = 3") == 0);
  CHECK_FALSE(roundTrip(Unit::Transpose, TransposeConfig{0, 8, 24, 8}.values(), why));
  CHECK(why == "transpose.in_cols = 24 is not 8, 16 or 32");
  CHECK_FALSE(roundTrip(Unit::Transpose, TransposeConfig{0, 8, 16, 17}.values(), why));
  CHECK(why == "transpose.out_rows = 17 is outside 1..in_cols (16)");
  CHECK_FALSE(roundTrip(Unit::Transpose, TransposeConfig{0, 0, 16, 1}.values(), why));

  CHECK(roundTrip(Unit::Cast, {int64_t(CastMode::I32ToI8)}, why));
  CHECK_FALSE(roundTrip(Unit::Cast, {3}, why));
  CHECK(why == "cast.mode = 3 is not a known cast (0 none, 1 f32->bf16, 2 i32->i8)");
}

TEST_CASE("vector blocks: the ALU/op table, step order, stash and fields", "[isa][vector]") {
  std::string why;
  auto step = [](Alu alu, VectorOp op, OperandMode mode = OperandMode::Immediate,
                 uint32_t imm = 0, uint32_t imm2 = 0) {
    return VectorStep{int64_t(alu), int64_t(op), int64_t(mode), imm, imm2};
  };
  // Every ALU with every op it implements, one per block (plus the ones that need company).
  struct Pair {
    Alu alu;
    std::vector<VectorOp> ops;
  };
  std::vector<Pair> table = {
      {Alu::FxpAdd, {VectorOp::Add, VectorOp::Sub}},
      {Alu::FxpMul, {VectorOp::Mul}},
      {Alu::FxpToFp, {VectorOp::ToF32}},
      {Alu::FpFma, {VectorOp::Add, VectorOp::Sub, VectorOp::Fma}},
      {Alu::FpFpu, {VectorOp::Sqrt, VectorOp::Sigmoid, VectorOp::Div}},
      {Alu::FpExp, {VectorOp::Exp}},
      {Alu::FpMul0, {VectorOp::Mul}},
      {Alu::FpMul1, {VectorOp::Mul}},
      {Alu::IntraReduce, {VectorOp::Add, VectorOp::Max}},
      {Alu::FpDiv, {VectorOp::Div}},
      {Alu::FpToFxp, {VectorOp::ToI32}},
      {Alu::Clip, {VectorOp::Max, VectorOp::Min, VectorOp::Add}},
      {Alu::InterReduce, {VectorOp::Add, VectorOp::Max}},
      {Alu::Stash, {VectorOp::None}},
  };
  int accepted = 0;
  for (const Pair &p : table)
    for (int64_t op = 0; op <= 12; ++op) {
      VectorConfig v;
      v.steps = 1;
      isa::setVectorStep(v, 0, step(p.alu, VectorOp(op)));
      v.reduceSlots = 1;
      bool allowed =
          std::find(p.ops.begin(), p.ops.end(), VectorOp(op)) != p.ops.end();
      INFO(aluName(int64_t(p.alu)) << " op " << op);
      CHECK(roundTrip(Unit::Vector, v.values(), why) == allowed);
      if (!allowed)
        CHECK(why.find(std::string("ALU ") + aluName(int64_t(p.alu)) + " does not implement op") !=
              std::string::npos);
      accepted += allowed;
    }
  CHECK(accepted == 23);
  VectorConfig logic;
  logic.steps = 1;
  isa::setVectorStep(logic, 0, step(Alu::Logic, VectorOp::Add));
  CHECK_FALSE(roundTrip(Unit::Vector, logic.values(), why));
  CHECK(why == "vector step 0: the Logic ALU has no implemented ops yet");
  isa::setVectorStep(logic, 0, step(Alu(0), VectorOp::Add));
  CHECK_FALSE(roundTrip(Unit::Vector, logic.values(), why));
  CHECK(why == "vector step 0: unknown ALU 0");

  // A full chain at the field limits: eight steps, stash anywhere, ALUs in stage order.
  VectorConfig v;
  v.steps = 8;
  isa::setVectorStep(v, 0, step(Alu::FxpToFp, VectorOp::ToF32));
  isa::setVectorStep(v, 1, step(Alu::Stash, VectorOp::None));
  isa::setVectorStep(v, 2, step(Alu::FpFma, VectorOp::Fma, OperandMode::Vrf, 0, 0xbf800000u));
  isa::setVectorStep(v, 3, step(Alu::FpExp, VectorOp::Exp));
  isa::setVectorStep(v, 4, step(Alu::FpMul0, VectorOp::Mul, OperandMode::Stash));
  isa::setVectorStep(v, 5, step(Alu::IntraReduce, VectorOp::Max));
  isa::setVectorStep(v, 6, step(Alu::FpDiv, VectorOp::Div, OperandMode::Immediate, 0xffffffffu));
  isa::setVectorStep(v, 7, step(Alu::InterReduce, VectorOp::Add));
  v.vrfBase = 8191;
  v.vrfFlitStride = -32768;
  v.vrfElemStride = 4;
  v.vrfPeriod = 65535;
  v.reduceSlots = 8;
  v.reduceTree = 1;
  v.interGroupLog2 = 8;
  CHECK(roundTrip(Unit::Vector, v.values(), why));
  auto back = VectorConfig::fromValues(v.values());
  CHECK(back.values() == v.values());
  CHECK(back.imm2[2] == 0xbf800000u);
  CHECK(back.vrfFlitStride == -32768);
  CHECK(back.interGroupLog2 == 8);

  auto rejects = [&](auto patch, const std::string &needle) {
    VectorConfig d = v;
    patch(d);
    std::string w;
    CHECK_FALSE(roundTrip(Unit::Vector, d.values(), w));
    INFO(w);
    CHECK(w.find(needle) != std::string::npos);
  };
  rejects([](VectorConfig &d) {
            isa::VectorStep two = isa::vectorStep(d, 2);
            isa::setVectorStep(d, 2, isa::vectorStep(d, 3));
            isa::setVectorStep(d, 3, two);
          },
          "vector step 3 uses FpFma after FpExp; ALUs run in stage order");
  rejects([&](VectorConfig &d) { isa::setVectorStep(d, 3, isa::vectorStep(d, 2)); }, "uses FpFma after FpFma");
  rejects([&](VectorConfig &d) { isa::setVectorStep(d, 1, step(Alu::FpMul1, VectorOp::Mul)); },
          "vector step 2 uses FpFma after FpMul1");
  rejects([&](VectorConfig &d) { isa::setVectorStep(d, 0, step(Alu::FxpAdd, VectorOp::Add));
                                 isa::setVectorStep(d, 1, step(Alu::FxpToFp, VectorOp::ToF32)); },
          "vector step 4 reads the stash, but no earlier Stash step");
  rejects([&](VectorConfig &d) { isa::setVectorStep(d, 6, step(Alu::FpDiv, VectorOp::Div, OperandMode::Stash)); },
          "vector step 6 reads the stash"); // the stash was saved before the reducer
  rejects([&](VectorConfig &d) { d.steps = 8, isa::setVectorStep(d, 7, step(Alu::InterReduce, VectorOp::Add));
                                isa::setVectorStep(d, 6, step(Alu::InterReduce, VectorOp::Max)); },
          "vector step 7 follows InterReduce, which must be the last step");
  rejects([&](VectorConfig &d) { d.mode[4] = 3; }, "operand mode 3 is not 0");
  rejects([](VectorConfig &d) { d.vrfElemStride = 2; },
          "vector.vrf_elem_stride = 2 is not 0 (broadcast) or 4");
  rejects([](VectorConfig &d) { d.reduceSlots = 9; }, "vector.reduce_slots = 9 is outside 1..8");
  rejects([](VectorConfig &d) { d.reduceSlots = 0; }, "vector.reduce_slots = 0 is outside 1..8");
  rejects([](VectorConfig &d) { d.interGroupLog2 = 9; }, "vector.inter_group_log2 = 9");
  rejects([](VectorConfig &d) { d.steps = 9; }, "vector.steps = 9 exceeds 8");
  rejects([](VectorConfig &d) { d.vrfBase = 8192; }, "vector.vrf_base = 8192 does not fit 13");
  rejects([](VectorConfig &d) { d.reduceTree = 2; }, "vector.reduce_tree = 2 does not fit 1");
  rejects([](VectorConfig &d) { d.steps = 7; }, "vector step 7 is unused (steps = 7) but its alu");
  rejects([](VectorConfig &d) { d.steps = 6, isa::setVectorStep(d, 6, {}), isa::setVectorStep(d, 7, {}), d.imm2[7] = 1; },
          "vector step 7 is unused (steps = 6) but its imm2 is nonzero");
  // InterReduce must be the last step; a Stash may not follow it either.
  VectorConfig last;
  last.steps = 2;
  isa::setVectorStep(last, 0, step(Alu::InterReduce, VectorOp::Max));
  isa::setVectorStep(last, 1, step(Alu::Stash, VectorOp::None));
  CHECK_FALSE(roundTrip(Unit::Vector, last.values(), why));
  CHECK(why == "vector step 1 follows InterReduce, which must be the last step");
  // Without an IntraReduce step reduce_slots is not used: 0 and 1..8 both pass.
  last.steps = 1;
  isa::setVectorStep(last, 1, isa::VectorStep{});
  for (int64_t slots : {0, 1, 8}) {
    last.reduceSlots = slots;
    CHECK(roundTrip(Unit::Vector, last.values(), why));
  }
}

TEST_CASE("gather and scatter descriptors", "[isa][dma]") {
  Descriptor d = test::descriptor(test::hbmAddr(0), test::dmAddr(1, 0), 64, {4, 2}, {0, 32},
                                  {128, 32});
  d.kind = uint32_t(DmaKind::Gather);
  d.indexAddress = test::hbmAddr(4096);
  d.indexCount = 4;
  d.indirectLoop = 0;
  uint8_t bytes[kDescriptorBytes];
  encodeDescriptor(d, bytes);
  std::string why;
  auto back = decodeDescriptor(bytes, why);
  REQUIRE(back);
  CHECK(back->kind == 1);
  CHECK(back->indexAddress == test::hbmAddr(4096));
  CHECK(back->indexCount == 4);
  CHECK(back->indirectLoop == 0);
  CHECK(test::get64(std::vector<uint8_t>(bytes, bytes + 256), 128) == test::hbmAddr(4096));
  CHECK(bytes[136] == 4);
  CHECK(bytes[140] == 0);

  Descriptor s = d;
  s.kind = uint32_t(DmaKind::Scatter);
  s.indirectLoop = 1;
  s.indexCount = 2;
  const TargetModel &t = defaultTarget();
  CHECK(checkDescriptor(t, s, why));
  s.indirectLoop = 2;
  CHECK_FALSE(checkDescriptor(t, s, why));
  CHECK(why == "scatter descriptor's indirect loop 2 is not below its loop count 2");
  s.indirectLoop = 1;
  s.indexCount = 3;
  CHECK_FALSE(checkDescriptor(t, s, why));
  CHECK(why == "scatter descriptor has index count 3 but limits[1] = 2");
  Descriptor plain = test::descriptor(test::hbmAddr(0), test::hbmAddr(256), 8);
  plain.indexCount = 1;
  CHECK_FALSE(checkDescriptor(t, plain, why));
  CHECK(why == "descriptor of kind 0 (tensor loop) has nonzero index fields");
  Descriptor none = d;
  none.limits.clear(), none.srcStrides.clear(), none.dstStrides.clear();
  CHECK_FALSE(checkDescriptor(t, none, why)); // a gather needs its indirect loop
}

TEST_CASE("commit blocks: the commit adapter's cast is the last field", "[isa][commit]") {
  CHECK(fieldNames("commit") ==
        std::vector<std::string>{"base", "write_bytes", "limits", "strides", "slices", "cast"});
  const UnitSpec &spec = *findUnit(Unit::Commit);
  CHECK(valueCount(spec) == 2 + 3 * 8 + 1);
  CommitConfig c;
  c.writeBytes = 16;
  c.slices = {~0ull, 0, 0, 0, 0, 0, 0, ~0ull};
  c.cast = CommitCast::F32ToBf16;
  std::vector<int64_t> v = c.values();
  REQUIRE(v.size() == valueCount(spec));
  CHECK(v.back() == 1); // table order: cast after the slice bitmap
  std::vector<uint64_t> words;
  std::string why;
  REQUIRE(packBlock(spec, v, words, why));
  // slices[7] ends at bit 867 (bit 35 of word 13); cast occupies [869:868], nothing after it.
  CHECK(words[13] == ((~0ull >> 28) | (uint64_t(1) << 36)));
  CHECK(unpackBlock(spec, words) == v);
  CHECK(CommitConfig::fromValues(v).cast == CommitCast::F32ToBf16);
  CHECK(validateBlock(defaultTarget(), spec, v, why));
  c.cast = CommitCast::None;
  CHECK(validateBlock(defaultTarget(), spec, c.values(), why));
  v.back() = 2;
  CHECK_FALSE(validateBlock(defaultTarget(), spec, v, why));
  CHECK(why == "commit.cast = 2 is not a known commit cast (0 none, 1 f32->bf16)");
  v.back() = 3;
  CHECK(packBlock(spec, v, words, why)); // fits its 2 bits, but the rules reject it
  CHECK_FALSE(validateBlock(defaultTarget(), spec, v, why));
  v.back() = 4;
  CHECK_FALSE(packBlock(spec, v, words, why));
  CHECK(why == "commit.cast = 4 does not fit 2 unsigned bits");
}

TEST_CASE("contract blocks: the lane folder's mode is the last field", "[isa][contract]") {
  const UnitSpec &spec = *findUnit(Unit::Contract);
  CHECK(spec.fields.back().name == std::string("lane_mode"));
  CHECK(spec.fields.back().bits == 1);
  ContractConfig c; // defaults: interleaved
  CHECK(c.laneMode == LaneMode::Interleaved);
  std::vector<int64_t> v = c.values();
  REQUIRE(v.size() == valueCount(spec));
  CHECK(v.back() == 0);
  std::string why;
  CHECK(validateBlock(defaultTarget(), spec, v, why));
  c.laneMode = LaneMode::Sequential;
  v = c.values();
  CHECK(v.back() == 1); // table order: lane_mode after acc_strides[7]
  std::vector<uint64_t> words;
  REQUIRE(packBlock(spec, v, words, why));
  REQUIRE(words.size() == 9);
  // acc_strides[7] ends at bit 569 (bit 57 of word 8); lane_mode is bit 570 (bit 58), the last.
  CHECK((words[8] >> 58) == 1);
  CHECK(unpackBlock(spec, words) == v);
  CHECK(ContractConfig::fromValues(v).laneMode == LaneMode::Sequential);
  CHECK(validateBlock(defaultTarget(), spec, v, why));
  // lane_mode 2: a 1-bit field, so packing rejects it; the rules reject it as well.
  v.back() = 2;
  CHECK_FALSE(packBlock(spec, v, words, why));
  CHECK(why == "contract.lane_mode = 2 does not fit 1 unsigned bits");
  CHECK_FALSE(validateBlock(defaultTarget(), spec, v, why));
  CHECK(why == "contract.lane_mode = 2 is not 0 (interleaved) or 1 (sequential)");
  // A block without the field (the 39 values of the previous table) is the wrong size.
  v.pop_back();
  CHECK_FALSE(validateBlock(defaultTarget(), spec, v, why));
  CHECK(why == "contract block has 39 values, expected 40");
}
