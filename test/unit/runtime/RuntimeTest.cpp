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

TEST_CASE("device buffers: bound arguments read and write the buffer", "[runtime][buffers]") {
  Device device;
  Buffer *a = nullptr, *b = nullptr;
  REQUIRE(device.allocate("a", 32, a).ok());
  REQUIRE(device.allocate("b", 32, b).ok());
  const TargetModel &t = defaultTarget();
  CHECK(a->address() == t.hbmAddressBase);
  CHECK(b->address() == t.hbmAddressBase + 256); // 256-byte aligned placement
  CHECK(device.hbmUsed() == 512);
  CHECK(device.bufferCount() == 2);

  std::unique_ptr<Kernel> k1, k2;
  REQUIRE(Kernel::fromExecutable(copyKernel(), k1).ok());
  REQUIRE(Kernel::fromExecutable(copyKernel(), k2).ok());
  // k1: a -> b, then k2: b -> a. Nothing is copied by the host between the launches.
  REQUIRE(k1->bind("x", *a).ok());
  REQUIRE(k1->bind("y", *b).ok());
  REQUIRE(k2->bind("x", *b).ok());
  REQUIRE(k2->bind("y", *a).ok());
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8}, got(8);
  REQUIRE(a->write(x.data(), 32).ok());
  LaunchResult r;
  REQUIRE(device.launch(*k1, r).ok());
  REQUIRE(b->read(got.data(), 32).ok());
  CHECK(got == x);
  // The kernel's own range of y was never touched.
  REQUIRE(k1->unbind("y").ok());
  REQUIRE(k1->download("y", got.data(), 32).ok());
  CHECK(got == std::vector<float>(8, 0.0f));
  REQUIRE(k1->bind("y", *b).ok());

  std::vector<float> z = {9, 8, 7, 6, 5, 4, 3, 2};
  REQUIRE(k2->upload("x", z.data(), 32).ok()); // upload follows the binding: writes b
  REQUIRE(device.launch(*k2, r).ok());
  REQUIRE(a->read(got.data(), 32).ok());
  CHECK(got == z);
  REQUIRE(k1->download("x", got.data(), 32).ok()); // k1's x is a too
  CHECK(got == z);
  REQUIRE(k2->zero("y").ok());
  REQUIRE(a->read(got.data(), 32).ok());
  CHECK(got == std::vector<float>(8, 0.0f));
}

TEST_CASE("device buffers: an argument bound as a view of a larger buffer", "[runtime][buffers]") {
  Device device;
  Buffer *big = nullptr, *out = nullptr;
  REQUIRE(device.allocate("big", 96, big).ok());
  REQUIRE(device.allocate("out", 32, out).ok());
  std::unique_ptr<Kernel> k;
  REQUIRE(Kernel::fromExecutable(copyKernel(), k).ok());
  // x is bytes 32..63 of big: the copy reads those, not the start.
  std::vector<float> all(24);
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = float(i);
  REQUIRE(big->write(all.data(), 96).ok());
  REQUIRE(k->bind("x", *big, 32).ok());
  REQUIRE(k->bind("y", *out).ok());
  CHECK(k->bindingOffset(0) == 32);
  LaunchResult r;
  REQUIRE(device.launch(*k, r).ok());
  std::vector<float> got(8);
  REQUIRE(out->read(got.data(), 32).ok());
  CHECK(got == std::vector<float>(all.begin() + 8, all.begin() + 16));
  // The view writes through too: y as the last 32 bytes of big (x back in the kernel's own
  // range: a buffer the kernel writes backs one argument only).
  REQUIRE(k->unbind("x").ok());
  REQUIRE(k->bind("y", *big, 64).ok());
  std::vector<float> x = {1, 1, 2, 3, 5, 8, 13, 21};
  REQUIRE(k->upload("x", x.data(), 32).ok());
  REQUIRE(device.launch(*k, r).ok());
  REQUIRE(big->read(got.data(), 32, 64).ok());
  CHECK(got == x);
  // At the limit, and one byte past it.
  REQUIRE(k->unbind("y").ok());
  CHECK(k->bind("x", *big, 64).ok());
  CHECK(k->bind("x", *big, 65).message() ==
        "cannot bind argument 'x' (32 bytes) at offset 65 of buffer 'big' (96 bytes)");
  CHECK(k->bind("x", *big, 1000).message() ==
        "cannot bind argument 'x' (32 bytes) at offset 1000 of buffer 'big' (96 bytes)");
  CHECK_FALSE(k->bind("nope", *big, 0).ok());
}

TEST_CASE("device buffers: errors name the numbers", "[runtime][buffers]") {
  Device device, other;
  Buffer *small = nullptr, *ok = nullptr, *foreign = nullptr;
  REQUIRE(device.allocate("small", 16, small).ok());
  REQUIRE(device.allocate("ok", 32, ok).ok());
  REQUIRE(other.allocate("foreign", 32, foreign).ok());
  std::unique_ptr<Kernel> k;
  REQUIRE(Kernel::fromExecutable(copyKernel(), k).ok());

  CHECK(k->bind("x", *small).message() ==
        "cannot bind argument 'x' (32 bytes) to buffer 'small' (16 bytes)");
  CHECK(k->bind("w", *ok).message() ==
        "kernel 'copy' has no argument 'w'; its arguments are: x (in f32 [4, 2]), "
        "y (out f32 [8])");
  REQUIRE(k->bind("x", *ok).ok());
  CHECK(k->bind("y", *ok).message() ==
        "cannot bind argument 'y' to bytes [0, +32) of buffer 'ok': argument 'x' is bound to "
        "bytes [0, +32) of it and the kernel writes one of them");
  // Disjoint views of one buffer do not alias: x reads bytes [0, 32), y writes [32, 64).
  Buffer *two = nullptr;
  REQUIRE(device.allocate("two", 64, two).ok());
  REQUIRE(k->bind("x", *two, 0).ok());
  CHECK(k->bind("y", *two, 16).message() ==
        "cannot bind argument 'y' to bytes [16, +32) of buffer 'two': argument 'x' is bound to "
        "bytes [0, +32) of it and the kernel writes one of them");
  REQUIRE(k->bind("y", *two, 32).ok());
  REQUIRE(k->bind("x", *ok).ok());

  REQUIRE(k->bind("y", *foreign).ok());
  LaunchResult r;
  CHECK(device.launch(*k, r).message() ==
        "kernel 'copy': argument 'y' is bound to buffer 'foreign' of another device");

  std::vector<uint8_t> bytes(64);
  CHECK(ok->write(bytes.data(), 8, 30).message() ==
        "cannot write bytes [30, +8) of buffer 'ok' (32 bytes)");
  CHECK(ok->read(bytes.data(), 64).message() ==
        "cannot read bytes [0, +64) of buffer 'ok' (32 bytes)");
  REQUIRE(ok->write(bytes.data(), 32).ok()); // exactly the size: the limit

  // Capacity at the limit and one past, on a target with 1 KB of HBM.
  TargetModel smallHbm = defaultTarget();
  smallHbm.hbmCapacityBytes = 1024;
  Device tiny(smallHbm);
  Buffer *none = nullptr;
  CHECK(tiny.allocate("empty", 0, none).message() ==
        "cannot allocate buffer 'empty' of 0 bytes: a buffer needs at least one byte");
  REQUIRE(tiny.allocate("first", 200, none).ok()); // takes 256 with the alignment
  CHECK(tiny.allocate("huge", uint64_t(1) << 62, none).message() ==
        "cannot allocate buffer 'huge' of 4611686018427387904 bytes: the device HBM has 256 "
        "of 1024 bytes in use, the largest free range 768 bytes");
  CHECK(tiny.allocate("too big", 769, none).message() ==
        "cannot allocate buffer 'too big' of 769 bytes: the device HBM has 256 of 1024 bytes "
        "in use, the largest free range 768 bytes");
  CHECK(none == nullptr);
  REQUIRE(tiny.allocate("rest", 768, none).ok());
  CHECK(tiny.hbmUsed() == 1024);
  CHECK(tiny.allocate("one more", 1, none).message() ==
        "cannot allocate buffer 'one more' of 1 bytes: the device HBM has 1024 of 1024 bytes "
        "in use, the largest free range 0 bytes");
}

TEST_CASE("device buffers: release returns the range, merged with its free neighbours",
          "[runtime][buffers]") {
  TargetModel smallHbm = defaultTarget();
  smallHbm.hbmCapacityBytes = 1024;
  Device device(smallHbm);
  const uint64_t base = smallHbm.hbmAddressBase;
  Buffer *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  REQUIRE(device.allocate("a", 256, a).ok());
  REQUIRE(device.allocate("b", 200, b).ok());
  REQUIRE(device.allocate("c", 512, c).ok());
  CHECK(device.hbmUsed() == 1024);

  // b's range is reused by the next buffer that fits it; a larger one does not fit anywhere.
  REQUIRE(device.release(*b).ok());
  CHECK(device.hbmUsed() == 768);
  CHECK(device.bufferCount() == 2);
  CHECK(device.largestFree() == 256);
  CHECK(device.allocate("too big", 257, d).message() ==
        "cannot allocate buffer 'too big' of 257 bytes: the device HBM has 768 of 1024 bytes in "
        "use, the largest free range 256 bytes");
  REQUIRE(device.allocate("d", 256, d).ok()); // exactly the free range: the limit
  CHECK(d->address() == base + 256);

  // a and d are neighbours: released, they form one range of 512 at the start.
  REQUIRE(device.release(*a).ok());
  REQUIRE(device.release(*d).ok());
  CHECK(device.largestFree() == 512);
  Buffer *e = nullptr;
  REQUIRE(device.allocate("e", 512, e).ok());
  CHECK(e->address() == base);
  CHECK(device.hbmUsed() == 1024);

  // A bound buffer is not released until no argument refers to it; a kernel's end unbinds.
  std::unique_ptr<Kernel> k;
  REQUIRE(Kernel::fromExecutable(copyKernel(), k).ok());
  Buffer *x = nullptr;
  REQUIRE(device.release(*c).ok());
  REQUIRE(device.allocate("x", 32, x).ok());
  REQUIRE(k->bind("x", *x).ok());
  CHECK(x->bindings() == 1);
  CHECK(device.release(*x).message() ==
        "cannot release buffer 'x': 1 kernel argument(s) are bound to it (unbind them first)");
  REQUIRE(k->unbind("x").ok());
  CHECK(x->bindings() == 0);
  REQUIRE(k->bind("x", *x).ok());
  k.reset();
  CHECK(x->bindings() == 0);
  REQUIRE(device.release(*x).ok());
  CHECK(device.bufferCount() == 1);

  Device other(smallHbm);
  Buffer *foreign = nullptr;
  REQUIRE(other.allocate("foreign", 32, foreign).ok());
  CHECK(device.release(*foreign).message() ==
        "cannot release buffer 'foreign': it belongs to another device");

  // A kernel bound to a device's buffers may end after the device.
  std::unique_ptr<Kernel> late;
  REQUIRE(Kernel::fromExecutable(copyKernel(), late).ok());
  {
    Device shortLived;
    Buffer *y = nullptr;
    REQUIRE(shortLived.allocate("y", 32, y).ok());
    REQUIRE(late->bind("y", *y).ok());
  }
  late.reset();
}

TEST_CASE("device buffers: a DMA crossing into a bound range is an error",
          "[runtime][buffers]") {
  // y is at [256, 288); a packet reading 32 bytes from 240 reaches into it.
  Executable e = copyKernel();
  e.descriptors[0] = descriptor(hbmAddr(240), hbmAddr(512), 32);
  std::unique_ptr<Kernel> k;
  REQUIRE(Kernel::fromExecutable(e, k).ok());
  Device device;
  Buffer *b = nullptr;
  REQUIRE(device.allocate("y", 32, b).ok());
  LaunchResult r;
  REQUIRE(device.launch(*k, r).ok()); // unbound: one flat space, fine
  REQUIRE(k->bind("y", *b).ok());
  Status st = device.launch(*k, r);
  CHECK(st.message().find("runs into the bound argument range [256, +32)") != std::string::npos);
}
