// The runtime API and host data helpers.
#include "Builders.h"
#include "rngd/Bf16.h"
#include "rngd/HostData.h"
#include "rngd/Runtime.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

using namespace rngd;
using namespace rngd::test;

namespace {
Executable copyKernel() {
  Executable e = makeExe("copy", 1024);
  e.args.push_back(arg("x", ArgKind::In, DType::F32, {4, 2}, 0));
  e.args.push_back(arg("y", ArgKind::Out, DType::F32, {8}, 256));
  e.descriptors.push_back(descriptor(hbmAddr(0), hbmAddr(256), 32));
  e.commands = {dma(0, 0), waitTag(0)};
  return e;
}
} // namespace

TEST_CASE("kernel buffers: upload, download, sizes and names", "[runtime]") {
  std::unique_ptr<Kernel> k;
  REQUIRE(Kernel::fromExecutable(copyKernel(), k).ok());
  std::vector<float> y(8, 1.0f);
  REQUIRE(k->download("y", y.data(), 32).ok());
  CHECK(y == std::vector<float>(8, 0.0f)); // zero-filled by default
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  Status st = k->upload("x", x.data(), 16);
  CHECK(st.message() == "argument 'x' has 32 bytes, the host buffer 16");
  st = k->upload("z", x.data(), 32);
  CHECK(st.message() == "kernel 'copy' has no argument 'z'; its arguments are: x (in f32 [4, 2]), "
                        "y (out f32 [8])");
  REQUIRE(k->upload("x", x.data(), 32).ok());
  Device device;
  LaunchResult r;
  REQUIRE(device.launch(*k, r).ok());
  REQUIRE(k->download("y", y.data(), 32).ok());
  CHECK(y == x);
  REQUIRE(k->zero("y").ok());
  std::vector<uint8_t> raw;
  REQUIRE(k->download("y", raw).ok());
  CHECK(raw == std::vector<uint8_t>(32, 0));

  Executable huge = copyKernel();
  huge.hbmBytes = uint64_t(1) << 40;
  CHECK(Kernel::fromExecutable(huge, k).message() ==
        "kernel 'copy' needs 1099511627776 bytes of HBM, the device has 51539607552");

  Executable wrong = copyKernel();
  wrong.targetHash ^= 1;
  CHECK(Kernel::fromExecutable(wrong, k).message().find("target hash mismatch") == 0);
}

TEST_CASE("loading files: missing and malformed", "[runtime]") {
  Executable e;
  CHECK(loadExecutableFile("/nonexistent/file.rngd", e).message() ==
        "cannot open '/nonexistent/file.rngd'");
  CHECK(loadExecutableBytes({1, 2, 3}, e).message() ==
        "truncated: file has 3 bytes, header needs 128");
}

TEST_CASE(".npy files round-trip and are checked", "[runtime][hostdata]") {
  std::vector<uint8_t> data = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0};
  auto file = encodeNpy("<u2", {2, 3}, data);
  CHECK((file.size() - data.size()) % 64 == 0);
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<uint8_t> back;
  REQUIRE(decodeNpy(file, descr, shape, back).ok());
  CHECK(descr == "<u2");
  CHECK(shape == std::vector<int64_t>{2, 3});
  CHECK(back == data);
  REQUIRE(decodeNpy(encodeNpy("<f4", {5}, std::vector<uint8_t>(20)), descr, shape, back).ok());
  CHECK(shape == std::vector<int64_t>{5});

  std::string path = "rngd-runtime-test-input.npy";
  ArgInfo a = arg("w", ArgKind::In, DType::BF16, {3}, 0);
  std::vector<uint8_t> f32(12);
  float vals[3] = {1.0f, 1.00390625f, -2.5f};
  std::memcpy(f32.data(), vals, 12);
  {
    auto img = encodeNpy("<f4", {3}, f32);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(img.data()),
                                                 static_cast<std::streamsize>(img.size()));
  }
  std::vector<uint8_t> bytes;
  REQUIRE(readArgFile(path, a, bytes).ok());
  CHECK(bytes == std::vector<uint8_t>{0x80, 0x3f, 0x80, 0x3f, 0x20, 0xc0}); // tie rounds to even
  ArgInfo wrongShape = arg("w", ArgKind::In, DType::BF16, {4}, 0);
  CHECK(readArgFile(path, wrongShape, bytes).message().find("has 3 elements, argument 'w' needs 4") !=
        std::string::npos);
  ArgInfo i32 = arg("w", ArgKind::In, DType::I32, {3}, 0);
  CHECK(readArgFile(path, i32, bytes).message().find("has dtype '<f4'") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("seeded fill is deterministic and in range", "[runtime][hostdata]") {
  uint64_t s = 0;
  CHECK(splitmix64(s) == 0xe220a8397b1dcdafull); // the reference splitmix64 sequence from 0
  CHECK(splitmix64(s) == 0x6e789e6aa1b965f4ull);
  ArgInfo b = arg("b", ArgKind::In, DType::BF16, {1000}, 0);
  std::vector<uint8_t> one, two, other;
  fillSeeded(b, 42, 0, one);
  fillSeeded(b, 42, 0, two);
  fillSeeded(b, 42, 1, other);
  CHECK(one == two);
  CHECK(one != other);
  for (size_t i = 0; i < 1000; ++i) {
    float v = bf16ToF32(static_cast<uint16_t>(one[2 * i] | one[2 * i + 1] << 8));
    CHECK((v >= 0.0f && v < 1.0f));
  }
  ArgInfo n = arg("n", ArgKind::In, DType::I8, {100}, 0);
  fillSeeded(n, 7, 3, one);
  for (uint8_t v : one)
    CHECK((static_cast<int8_t>(v) >= -8 && static_cast<int8_t>(v) < 8));
}
