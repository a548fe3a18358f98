// A test rig for Tensor Unit passes: builds an executable pass by pass, runs it on a Device and
// reads/writes the per-slice memories directly.
#pragma once

#include "Builders.h"
#include "rngd/Runtime.h"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

namespace rngd::test {

/// (limit, stride) pairs, outermost first; they fill the innermost sequencer entries.
using Loops = std::vector<std::pair<int64_t, int64_t>>;

template <typename A> void setLoops(A &limits, A &strides, const Loops &loops) {
  size_t n = loops.size();
  for (size_t i = 0; i < n; ++i) {
    limits[limits.size() - n + i] = loops[i].first;
    strides[strides.size() - n + i] = loops[i].second;
  }
}

inline isa::FetchConfig fetchCfg(const isa::SliceBitmap &s, int64_t base, int64_t accessLog2,
                                 int64_t packet, const Loops &loops) {
  isa::FetchConfig f;
  f.base = base;
  f.accessLog2 = accessLog2;
  f.packetBytes = packet;
  f.slices = s;
  setLoops(f.limits, f.strides, loops);
  return f;
}

/// `bytes` contiguous bytes from `base` in accesses of 2^accessLog2 bytes.
inline isa::FetchConfig fetchLinear(const isa::SliceBitmap &s, int64_t base, int64_t bytes,
                                    int64_t packet, int64_t accessLog2 = 5) {
  int64_t access = int64_t(1) << accessLog2;
  return fetchCfg(s, base, accessLog2, packet, {{bytes / access, access}});
}

inline isa::CommitConfig commitCfg(const isa::SliceBitmap &s, int64_t base, int64_t writeBytes,
                                   const Loops &loops) {
  isa::CommitConfig c;
  c.base = base;
  c.writeBytes = writeBytes;
  c.slices = s;
  setLoops(c.limits, c.strides, loops);
  return c;
}

/// One write per flit, packed back to back.
inline isa::CommitConfig commitLinear(const isa::SliceBitmap &s, int64_t base, int64_t flits,
                                      int64_t writeBytes) {
  return commitCfg(s, base, writeBytes, {{flits, writeBytes}});
}

constexpr uint16_t kFetchCollect = isa::UnitFetch | isa::UnitCollect;

struct Rig {
  Executable e = makeExe("engines", 4096);
  Device device;

  int64_t config(isa::Unit unit, std::vector<int64_t> values) {
    e.configs.push_back(block(unit, std::move(values)));
    return static_cast<int64_t>(e.configs.size()) - 1;
  }
  /// Loads the configs, runs the units and (unless told not to) waits for the pass.
  void pass(uint16_t units, const std::vector<int64_t> &configs,
            isa::Context ctx = isa::Context::Main, bool wait = true) {
    for (int64_t c : configs)
      e.commands.push_back(load(static_cast<uint32_t>(c), ctx));
    e.commands.push_back(exec(units, ctx));
    if (wait)
      e.commands.push_back(waitCtx(ctx));
  }
  Status run(LaunchResult *result = nullptr, std::unique_ptr<Kernel> *kernel = nullptr) {
    std::unique_ptr<Kernel> k;
    Status st = Kernel::fromExecutable(e, k);
    if (!st)
      return st;
    LaunchResult r;
    st = device.launch(*k, r);
    if (result)
      *result = std::move(r);
    if (kernel)
      *kernel = std::move(k);
    return st;
  }
  template <typename T>
  void put(int64_t slice, uint64_t offset, const std::vector<T> &v,
           sim::SliceMemory m = sim::SliceMemory::Dm) {
    REQUIRE(device.dataMemory().write(m, slice, offset, v.data(), v.size() * sizeof(T)).ok());
  }
  template <typename T>
  std::vector<T> get(int64_t slice, uint64_t offset, size_t count,
                     sim::SliceMemory m = sim::SliceMemory::Dm) {
    std::vector<T> v(count);
    REQUIRE(device.dataMemory().read(m, slice, offset, v.data(), count * sizeof(T)).ok());
    return v;
  }
};

/// Deterministic values: a 32-bit LCG stream.
struct Lcg {
  uint32_t state;
  explicit Lcg(uint32_t seed) : state(seed * 2654435761u + 12345u) {}
  uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state;
  }
  /// A float in [lo, hi) with a full mantissa.
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f);
  }
};

} // namespace rngd::test
