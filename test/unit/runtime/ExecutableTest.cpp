// The .rngd file: writer/reader round trip, the loader's rejections, and the printed text form.
#include "Builders.h"

#include <catch2/catch.hpp>

using namespace rngd;
using namespace rngd::test;

namespace {

// A small executable with every section populated.
Executable sample() {
  Executable e = makeExe("copy_add", 1024);
  e.flags = 3;
  e.predictedMakespan = 1234;
  e.args.push_back(arg("x", ArgKind::In, DType::BF16, {2, 4}, 0));
  e.args.push_back(arg("y", ArgKind::InOut, DType::F32, {8}, 256));
  e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(1, 0), 16, {1}, {0}, {0}));
  e.descriptors.push_back(descriptor(dmAddr(1, 64), hbmAddr(256), 8, {2}, {8}, {-8}, 3));
  isa::CastConfig cast;
  cast.mode = isa::CastMode::F32ToBf16;
  e.configs.push_back(block(isa::Unit::Cast, cast.values()));
  isa::FetchConfig f;
  f.packetBytes = 16;
  f.accessLog2 = 4;
  f.strides[7] = -16;
  f.slices = slices(1, 1);
  e.configs.push_back(block(isa::Unit::Fetch, f.values()));
  e.commands = {dma(0, 0), waitTag(0), load(1), load(0, isa::Context::Sub), dma(1, 5),
                waitTag(5)};
  return e;
}

std::vector<uint8_t> sampleBytes() {
  std::vector<uint8_t> bytes;
  std::string why;
  REQUIRE(writeExecutable(sample(), bytes, why));
  return bytes;
}

std::string loadError(const std::vector<uint8_t> &bytes) {
  Executable e;
  std::string why;
  if (readExecutable(bytes, e, why))
    return "";
  REQUIRE_FALSE(why.empty());
  return why;
}

// Section table entry i: kind @0, count @4, offset @8, size @16, after the 128-byte header.
size_t sectionEntry(int i) { return 128 + 24 * static_cast<size_t>(i); }

} // namespace

TEST_CASE("writeExecutable and readExecutable round-trip", "[executable]") {
  Executable in = sample();
  std::vector<uint8_t> bytes = sampleBytes();
  Executable out;
  std::string why;
  REQUIRE(readExecutable(bytes, out, why));
  CHECK(out.kernelName == in.kernelName);
  CHECK(out.targetName == in.targetName);
  CHECK(out.targetHash == in.targetHash);
  CHECK(out.compilerVersion == in.compilerVersion);
  CHECK(out.flags == 3);
  CHECK(out.predictedMakespan == 1234);
  CHECK(out.hbmBytes == 1024);
  REQUIRE(out.args.size() == 2);
  CHECK(out.args[1].name == "y");
  CHECK(out.args[1].kind == ArgKind::InOut);
  CHECK(out.args[1].shape == std::vector<int64_t>{8});
  CHECK(out.args[1].bytes == 32);
  CHECK(out.commands == in.commands);
  REQUIRE(out.configs.size() == 2);
  CHECK(out.configs[1].values == in.configs[1].values);
  REQUIRE(out.descriptors.size() == 2);
  CHECK(out.descriptors[1].dstStrides == std::vector<int32_t>{-8});
  // Deterministic: writing the loaded executable gives the same bytes.
  std::vector<uint8_t> again;
  REQUIRE(writeExecutable(out, again, why));
  CHECK(again == bytes);
  CHECK(std::string(bytes.begin(), bytes.begin() + 8) == std::string("RNGDEXE\0", 8));
  // A partial block keeps its load mask.
  in.configs[1].partialMask = 0x21;
  REQUIRE(writeExecutable(in, again, why));
  REQUIRE(readExecutable(again, out, why));
  CHECK(out.configs[1].partialMask == 0x21);
  CHECK(out.configs[0].partialMask == 0);
}

TEST_CASE("loader rejects every truncation", "[executable][loader]") {
  std::vector<uint8_t> bytes = sampleBytes();
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    INFO("prefix of " << n << " bytes");
    CHECK_FALSE(loadError(prefix).empty());
  }
  CHECK(loadError(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 100)) ==
        "truncated: file has 100 bytes, header needs 128");
  CHECK(loadError(std::vector<uint8_t>(bytes.begin(), bytes.end() - 1)) ==
        "truncated: header says " + std::to_string(bytes.size()) + " bytes, file has " +
            std::to_string(bytes.size() - 1));
}

TEST_CASE("loader rejects every single flipped bit", "[executable][loader]") {
  std::vector<uint8_t> bytes = sampleBytes();
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> bad = bytes;
    bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
    INFO("byte " << i);
    CHECK_FALSE(loadError(bad).empty());
  }
}

TEST_CASE("loader messages for wrong magic, version, target and checksum", "[executable][loader]") {
  std::vector<uint8_t> bytes = sampleBytes();
  auto bad = bytes;
  bad[0] = 'X';
  CHECK(loadError(bad).find("bad magic") == 0);

  bad = bytes;
  put32(bad, 8, 7);
  fixChecksum(bad);
  CHECK(loadError(bad) == "unsupported format version 7 (this runtime reads 3)");

  bad = bytes;
  put64(bad, 32, 0x1234);
  fixChecksum(bad);
  CHECK(loadError(bad).find("target hash mismatch: the executable was compiled for "
                            "'rngd-1chip' with hash 0x1234, this runtime's 'rngd-1chip' is 0x") ==
        0);

  bad = bytes;
  bad[40] ^= 1; // makespan, checksum left stale
  std::string why = loadError(bad);
  CHECK(why.find("checksum mismatch: stored 0x") == 0);
  CHECK(why.find(", computed 0x") != std::string::npos);

  bad = bytes;
  bad.push_back(0);
  CHECK(loadError(bad).find("trailing bytes") != std::string::npos);
}

TEST_CASE("loader rejects a section past the end even with a valid checksum", "[executable][loader]") {
  std::vector<uint8_t> bytes = sampleBytes();
  auto bad = bytes;
  put64(bad, sectionEntry(2) + 8, 9999); // commands offset
  fixChecksum(bad);
  CHECK(loadError(bad) == "section 'commands' [offset 9999, size 24) ends past the end of the "
                          "file (" + std::to_string(bytes.size()) + " bytes)");
  bad = bytes;
  put64(bad, sectionEntry(4) + 16, UINT64_MAX); // descriptor size: offset + size overflows
  fixChecksum(bad);
  CHECK(loadError(bad).find("section 'descriptors'") == 0);
  bad = bytes;
  put32(bad, sectionEntry(4) + 4, 0x7fffffff); // descriptor count far beyond the bytes
  fixChecksum(bad);
  CHECK(loadError(bad).find("records of 256 bytes") != std::string::npos);
  bad = bytes;
  put32(bad, sectionEntry(3) + 4, 0xffffffff); // config count
  fixChecksum(bad);
  CHECK(loadError(bad).find("too few for") != std::string::npos);
}

TEST_CASE("loader rejects records that break the rules", "[executable][loader]") {
  std::vector<uint8_t> bytes = sampleBytes();
  size_t commands = get64(bytes, sectionEntry(2) + 8);
  auto bad = bytes;
  put32(bad, commands + 8, load(5)); // third command: config 5 does not exist
  fixChecksum(bad);
  CHECK(loadError(bad) ==
        "command #2: `rngd.load 5 main` references config block 5 but the file has 2");
  bad = bytes;
  put32(bad, commands, dma(2, 0));
  fixChecksum(bad);
  CHECK(loadError(bad).find("references descriptor 2 but the file has 2") != std::string::npos);
  bad = bytes;
  put32(bad, commands, 0x7f000000u);
  fixChecksum(bad);
  CHECK(loadError(bad).find("unknown opcode") != std::string::npos);

  size_t args = get64(bytes, sectionEntry(1) + 8);
  bad = bytes;
  put32(bad, args + 12, 9); // dtype
  fixChecksum(bad);
  CHECK(loadError(bad).find("unknown dtype 9") != std::string::npos);
  bad = bytes;
  put64(bad, args + 104 + 88, 128); // y's offset (record 1 at 104, field at 88): not 256-aligned
  fixChecksum(bad);
  CHECK(loadError(bad).find("not 256-byte aligned") != std::string::npos);
  bad = bytes;
  put64(bad, args + 104 + 96, 36); // y's bytes != 8 x 4
  fixChecksum(bad);
  CHECK(loadError(bad).find("bytes 36 != 8 elements x 4 bytes") != std::string::npos);
  bad = bytes;
  put32(bad, args, 5000); // name string offset
  fixChecksum(bad);
  CHECK(loadError(bad).find("past the strings section") != std::string::npos);

  size_t configs = get64(bytes, sectionEntry(3) + 8);
  bad = bytes;
  put32(bad, configs, 10); // unit id
  fixChecksum(bad);
  CHECK(loadError(bad) == "config block 0: unknown unit 10");
  bad = bytes;
  put64(bad, configs + 16, 1u << 4); // cast block: a bit past its 4-bit field
  fixChecksum(bad);
  CHECK(loadError(bad).find("unused bits") != std::string::npos);
  bad = bytes;
  put64(bad, configs + 8, 2); // the cast block has one word: a load of word 1 names none of it
  fixChecksum(bad);
  CHECK(loadError(bad) == "config block 0 (cast): load mask 0x2 names words past the block's 1");
  bad = bytes;
  put64(bad, configs + 8, 1); // its one word: the whole block, which has mask 0
  fixChecksum(bad);
  CHECK(loadError(bad) ==
        "config block 0 (cast): load mask 0x1 is the whole block (a whole load has mask 0)");
}

TEST_CASE("writer rejects executables the loader would reject", "[executable]") {
  std::vector<uint8_t> out;
  std::string why;
  Executable e = sample();
  e.args[1].hbmOffset = 1024;
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why.find("ends past the kernel's HBM size 1024") != std::string::npos);
  e = sample();
  e.args[1].hbmOffset = 0;
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why.find("overlaps argument #0 'x'") != std::string::npos);
  e = sample();
  e.kernelName = "has space";
  CHECK_FALSE(writeExecutable(e, out, why));
  e = sample();
  e.args[0].mapping = "[\"A\"]";
  CHECK_FALSE(writeExecutable(e, out, why));
  e = sample();
  e.args[0].shape = {1, 1, 1, 1, 1, 1, 1, 8}; // the limit: rank 8
  CHECK(writeExecutable(e, out, why));
  e.args[0].shape = {1, 1, 1, 1, 1, 1, 1, 1, 8};
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why.find("rank 9 exceeds 8") != std::string::npos);
  e = sample();
  e.configs[1].values[4] = 0; // fetch.limits[0]
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why == "config block 1: fetch.limits[0] = 0 is outside 1..65536");
  e = sample();
  e.configs[1].partialMask = 0x3fff; // all 14 words of a fetch block
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why == "config block 1: load mask 0x3fff is the whole block (a whole load has mask 0)");
  e.configs[1].partialMask = 0x4000;
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why == "config block 1: load mask 0x4000 names words past the block's 14");
  e = sample();
  e.targetName = "rngd-2chip";
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why == "target 'rngd-2chip' is not one this runtime knows (rngd-1chip, rngd-1cluster)");
}

TEST_CASE("the executable's target sets the machine numbers the loader checks",
          "[executable][target]") {
  std::vector<uint8_t> out;
  std::string why;
  // rngd-1chip: DMA engines 0..7. The last one is fine, one past it is not.
  Executable e = sample();
  e.descriptors[1].engine = 7;
  CHECK(writeExecutable(e, out, why));
  e.descriptors[1].engine = 8;
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why == "descriptor 1: DMA engine 8 is outside 0..7 (target rngd-1chip has 8)");
  // rngd-1cluster: four engines, so engine 5 is refused and engine 3 taken.
  const TargetModel &one = *findTarget("rngd-1cluster");
  e = sample();
  e.targetName = one.name;
  e.targetHash = one.hash();
  e.descriptors[1].engine = 3;
  CHECK(writeExecutable(e, out, why));
  e.descriptors[1].engine = 5;
  CHECK_FALSE(writeExecutable(e, out, why));
  CHECK(why == "descriptor 1: DMA engine 5 is outside 0..3 (target rngd-1cluster has 4)");
}

TEST_CASE("printExecutable golden", "[executable][printer]") {
  Executable e = makeExe("tiny", 512);
  e.targetHash = 0xabc;
  e.flags = 1;
  e.predictedMakespan = 600;
  e.args.push_back(arg("x", ArgKind::In, DType::I32, {8}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::I32, {2, 4}, 256));
  e.args[1].mapping = "[B, A]";
  e.descriptors.push_back(descriptor(hbmAddr(0), hbmAddr(256), 32, {1}, {0}, {0}));
  e.descriptors.push_back(descriptor(hbmAddr(0), dmAddr(2, 0), 8, {4, 2}, {8, -4}, {4194304, 0}, 5));
  isa::Descriptor g = descriptor(hbmAddr(0), dmAddr(0, 0), 8, {3, 2}, {0, 4}, {16, 8}, 1);
  g.kind = uint32_t(isa::DmaKind::Gather);
  g.indexAddress = hbmAddr(256);
  g.indexCount = 3;
  g.indirectLoop = 0;
  e.descriptors.push_back(g);
  g.kind = uint32_t(isa::DmaKind::Scatter);
  g.indirectLoop = 1;
  g.indexCount = 2;
  e.descriptors.push_back(g);
  isa::CastConfig cast;
  e.configs.push_back(block(isa::Unit::Cast, cast.values()));
  isa::VectorConfig v;
  v.steps = 1;
  isa::setVectorStep(v, 0, isa::VectorStep{int64_t(isa::Alu::FxpAdd), int64_t(isa::VectorOp::Add), 0, 1});
  e.configs.push_back(block(isa::Unit::Vector, v.values()));
  isa::CommitConfig c;
  c.base = 64;
  c.writeBytes = 8;
  c.limits[7] = 4;
  c.strides[7] = -8;
  c.slices = slices(0, 2);
  c.slices[7] = 0x8000000000000000ull;
  c.cast = isa::CommitCast::F32ToBf16;
  e.configs.push_back(block(isa::Unit::Commit, c.values()));
  e.commands = {dma(0, 1),    waitTag(1), load(2), load(1, isa::Context::Sub),
                exec(isa::UnitFetch | isa::UnitCollect | isa::UnitVector | isa::UnitCommit),
                waitCtx(),    exec(0, isa::Context::Sub), waitCtx(isa::Context::Sub)};
  std::string expected =
      "rngd.executable @tiny target \"rngd-1chip\" hash 0xabc compiler \"test-0.1\" flags 1 "
      "makespan 600 hbm 512 {\n"
      "  rngd.arg @x in i32 [8] \"[A]\" offset 0 bytes 32\n"
      "  rngd.arg @y out i32 [2, 4] \"[B, A]\" offset 256 bytes 32\n"
      "  rngd.descriptor 0 engine 0 src 0xc000000000 dst 0xc000000100 packet 32 limits [1] "
      "src_strides [0] dst_strides [0]\n"
      "  rngd.descriptor 1 engine 5 src 0xc000000000 dst 0x10800000 packet 8 limits [4, 2] "
      "src_strides [8, -4] dst_strides [4194304, 0]\n"
      "  rngd.descriptor 2 engine 1 src 0xc000000000 dst 0x10000000 packet 8 limits [3, 2] "
      "src_strides [0, 4] dst_strides [16, 8] gather index 0xc000000100 count 3 loop 0\n"
      "  rngd.descriptor 3 engine 1 src 0xc000000000 dst 0x10000000 packet 8 limits [3, 2] "
      "src_strides [0, 4] dst_strides [16, 8] scatter index 0xc000000100 count 2 loop 1\n"
      "  rngd.config 0 cast {mode = 0}\n"
      "  rngd.config 1 vector {steps = 1, alu = [2, 0, 0, 0, 0, 0, 0, 0], op = [1, 0, 0, 0, 0, "
      "0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, "
      "0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = "
      "0, reduce_slots = 0, reduce_tree = 0, inter_group_log2 = 0}\n"
      "  rngd.config 2 commit {base = 64, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 4], "
      "strides = [0, 0, 0, 0, 0, 0, 0, -8], slices = [0x3, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, "
      "0x8000000000000000], cast = 1}\n"
      "  rngd.dma 0 tag 1\n"
      "  rngd.wait tag 1\n"
      "  rngd.load 2 main\n"
      "  rngd.load 1 sub\n"
      "  rngd.exec main [fetch, collect, vector, commit]\n"
      "  rngd.wait main\n"
      "  rngd.exec sub []\n"
      "  rngd.wait sub\n"
      "}\n";
  CHECK(printExecutable(e) == expected);
}

TEST_CASE("printExecutable golden: a contract block ends with its lane_mode",
          "[executable][printer][contract]") {
  Executable e = makeExe("lanes", 512);
  isa::ContractConfig k;
  k.pack = 2, k.lanesLog2 = 3, k.packetElems = 32, k.trfBase = 64, k.window = 1, k.slots = 2;
  k.limits[0] = 3, k.trfStrides[0] = -128;
  k.limits[7] = 2, k.streamStrides[7] = 1, k.accStrides[7] = 1;
  e.configs.push_back(block(isa::Unit::Contract, k.values()));
  k.laneMode = isa::LaneMode::Sequential;
  e.configs.push_back(block(isa::Unit::Contract, k.values()));
  e.commands = {load(1)};
  // Through the file and back: the field survives the writer and the reader.
  std::vector<uint8_t> bytes;
  std::string why;
  REQUIRE(writeExecutable(e, bytes, why));
  Executable back;
  REQUIRE(readExecutable(bytes, back, why));
  REQUIRE(back.configs.size() == 2);
  CHECK(isa::ContractConfig::fromValues(back.configs[1].values).laneMode ==
        isa::LaneMode::Sequential);
  std::string fields =
      "{pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 64, window = 1, "
      "slots = 2, limits = [3, 1, 1, 1, 1, 1, 1, 2], stream_strides = [0, 0, 0, 0, 0, 0, 0, 1], "
      "trf_strides = [-128, 0, 0, 0, 0, 0, 0, 0], acc_strides = [0, 0, 0, 0, 0, 0, 0, 1], ";
  std::string text = printExecutable(back);
  CHECK(text.find("  rngd.config 0 contract " + fields + "lane_mode = 0}\n") != std::string::npos);
  CHECK(text.find("  rngd.config 1 contract " + fields + "lane_mode = 1}\n") != std::string::npos);
}
