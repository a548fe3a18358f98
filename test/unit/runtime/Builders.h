// Small hand-built executables for the runtime tests.
#pragma once

#include "rngd/machine/TargetModel.h"
#include "rngd/Executable.h"
#include "rngd/Isa.h"

#include <cstring>

namespace rngd::test {

inline Executable makeExe(const std::string &name, uint64_t hbmBytes) {
  Executable e;
  e.kernelName = name;
  e.targetName = defaultTarget().name;
  e.targetHash = defaultTarget().hash();
  e.compilerVersion = "test-0.1";
  e.hbmBytes = hbmBytes;
  return e;
}

inline ArgInfo arg(const std::string &name, ArgKind kind, DType dtype, std::vector<int64_t> shape,
                   uint64_t offset) {
  ArgInfo a;
  a.name = name;
  a.kind = kind;
  a.dtype = dtype;
  a.shape = shape;
  a.mapping = "[A]";
  a.hbmOffset = offset;
  a.bytes = static_cast<uint64_t>(dtypeBytes(dtype));
  for (int64_t d : shape)
    a.bytes *= static_cast<uint64_t>(d);
  return a;
}

inline uint32_t load(uint32_t config, isa::Context ctx = isa::Context::Main, uint8_t bank = 0) {
  isa::Command c;
  c.opcode = isa::Opcode::Config;
  c.context = ctx;
  c.bank = bank;
  c.index = config;
  return isa::encode(c);
}
inline uint32_t exec(uint16_t units, isa::Context ctx = isa::Context::Main, uint8_t bank = 0) {
  isa::Command c;
  c.opcode = isa::Opcode::Exec;
  c.context = ctx;
  c.bank = bank;
  c.units = units;
  return isa::encode(c);
}
inline uint32_t waitCtx(isa::Context ctx = isa::Context::Main) {
  isa::Command c;
  c.opcode = isa::Opcode::Wait;
  c.context = ctx;
  return isa::encode(c);
}
inline uint32_t waitTag(uint8_t tag) {
  isa::Command c;
  c.opcode = isa::Opcode::Wait;
  c.waitOnTag = true;
  c.tag = tag;
  return isa::encode(c);
}
inline uint32_t dma(uint32_t descriptor, uint8_t tag) {
  isa::Command c;
  c.opcode = isa::Opcode::Dma;
  c.index = descriptor;
  c.tag = tag;
  return isa::encode(c);
}

inline uint64_t hbmAddr(uint64_t offset) { return defaultTarget().hbmAddressBase + offset; }
inline uint64_t dmAddr(int64_t slice, uint64_t offset) {
  const TargetModel &t = defaultTarget();
  return t.dmAddressBase + static_cast<uint64_t>(slice * t.dmSliceWindowBytes) + offset;
}

inline isa::Descriptor descriptor(uint64_t src, uint64_t dst, uint32_t packet,
                                  std::vector<uint32_t> limits = {},
                                  std::vector<int32_t> srcStrides = {},
                                  std::vector<int32_t> dstStrides = {}, uint32_t engine = 0) {
  isa::Descriptor d;
  d.engine = engine;
  d.src = src;
  d.dst = dst;
  d.packetBytes = packet;
  d.limits = limits;
  d.srcStrides = srcStrides;
  d.dstStrides = dstStrides;
  return d;
}

inline isa::SliceBitmap slices(int64_t first, int64_t count) {
  isa::SliceBitmap b{};
  for (int64_t s = first; s < first + count; ++s)
    b[s / 64] |= uint64_t(1) << (s % 64);
  return b;
}

inline ConfigBlock block(isa::Unit unit, std::vector<int64_t> values) {
  ConfigBlock c;
  c.unit = unit;
  c.values = std::move(values);
  return c;
}

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Recomputes the file checksum after a test patched some bytes.
inline void fixChecksum(std::vector<uint8_t> &file) {
  for (int i = 0; i < 8; ++i)
    file[24 + i] = 0;
  uint64_t h = fnv1a64(file.data(), file.size());
  for (int i = 0; i < 8; ++i)
    file[24 + i] = static_cast<uint8_t>(h >> (8 * i));
}

inline void put32(std::vector<uint8_t> &file, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    file[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void put64(std::vector<uint8_t> &file, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    file[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline uint64_t get64(const std::vector<uint8_t> &file, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | file[at + i];
  return v;
}

} // namespace rngd::test
