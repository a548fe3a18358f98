// The Switch Engine (docs/isa.md, "switch"): permutes and broadcasts fetch packets between the
// slices of each ring of slice1 x slice0 consecutive slices within a cluster. Packets are moved
// whole; input slices the fetch bitmap does not enable contribute zero packets.
#include "Engines.h"

#include <cstring>

namespace rngd::sim {
namespace {

bool fail(std::string &why, std::string m) {
  why = std::move(m);
  return false;
}

} // namespace

bool planSwitch(const isa::SwitchConfig &c, int64_t packets, const isa::SliceBitmap &fetched,
                const TargetModel &t, SwitchPlan &p, std::string &why) {
  p = SwitchPlan();
  p.cfg = c;
  p.ring = c.slice1 * c.slice0;
  p.packets = packets;
  p.slicesPerCluster = t.slicesPerCluster;
  if (p.ring > t.slicesPerCluster)
    return fail(why, "switch ring of " + std::to_string(p.ring) + " slices exceeds the " +
                         std::to_string(t.slicesPerCluster) + " slices of a cluster");
  switch (c.mode) {
  case isa::SwitchMode::Broadcast01:
    if (packets % c.time0 != 0)
      return fail(why, "switch Broadcast01 with time0 = " + std::to_string(c.time0) +
                           " needs a multiple of time0 packets per slice, got " +
                           std::to_string(packets));
    p.outPackets = packets * p.ring;
    break;
  case isa::SwitchMode::Broadcast1:
    p.outPackets = packets * c.slice1;
    break;
  case isa::SwitchMode::Transpose:
    p.outPackets = packets;
    break;
  case isa::SwitchMode::InterTranspose:
    if (packets % (c.slice1 * c.time0) != 0)
      return fail(why, "switch InterTranspose needs a multiple of slice1 x time0 = " +
                           std::to_string(c.slice1 * c.time0) + " packets per slice, got " +
                           std::to_string(packets));
    p.outPackets = packets;
    break;
  case isa::SwitchMode::TransposedBroadcast1:
    p.outPackets = packets * c.slice0;
    break;
  }
  int64_t total = t.totalSlices();
  for (int64_t g = 0; g < total; ++g)
    if ((fetched[g / 64] >> (g % 64)) & 1) {
      int64_t base = switchRingBase(p, g);
      for (int64_t s = base; s < base + p.ring; ++s)
        p.flow[s / 64] |= uint64_t(1) << (s % 64);
    }
  return true;
}

int64_t switchRingBase(const SwitchPlan &p, int64_t slice) {
  int64_t cluster = slice / p.slicesPerCluster, local = slice % p.slicesPerCluster;
  return cluster * p.slicesPerCluster + local / p.ring * p.ring;
}

int64_t switchShareKey(const SwitchPlan &p, int64_t slice) {
  const isa::SwitchConfig &c = p.cfg;
  int64_t base = switchRingBase(p, slice), pos = slice - base;
  switch (c.mode) {
  case isa::SwitchMode::Broadcast01: // every slice of the ring: the whole ring's packets
    return base * (p.ring + 1);
  case isa::SwitchMode::Broadcast1: // the slices with this j0
    return base * (p.ring + 1) + 1 + pos % c.slice0;
  case isa::SwitchMode::TransposedBroadcast1: // the slices with this b
    return base * (p.ring + 1) + 1 + pos % c.slice1;
  default: // Transpose, InterTranspose: each slice its own packets
    return -1 - slice;
  }
}

void runSwitch(const SwitchPlan &p, int64_t slice, const std::vector<const uint8_t *> &in,
               int64_t packetBytes, uint8_t *out) {
  const isa::SwitchConfig &c = p.cfg;
  int64_t base = switchRingBase(p, slice), pos = slice - base;
  int64_t s1 = c.slice1, s0 = c.slice0, T = p.packets;
  size_t bytes = static_cast<size_t>(packetBytes);
  uint8_t *o = out;
  // Input slice (j1, j0) of this ring; packet t of it goes to the next output position.
  auto put = [&](int64_t j1, int64_t j0, int64_t t) {
    const uint8_t *src = in[static_cast<size_t>(base + j1 * s0 + j0)];
    if (src)
      std::memcpy(o, src + t * packetBytes, bytes);
    else
      std::memset(o, 0, bytes);
    o += bytes;
  };
  switch (c.mode) {
  case isa::SwitchMode::Broadcast01: { // slice (s2, x, y): for t1, j1, t0, j0
    int64_t time0 = c.time0, time1 = T / time0;
    for (int64_t t1 = 0; t1 < time1; ++t1)
      for (int64_t j1 = 0; j1 < s1; ++j1)
        for (int64_t t0 = 0; t0 < time0; ++t0)
          for (int64_t j0 = 0; j0 < s0; ++j0)
            put(j1, j0, t1 * time0 + t0);
    break;
  }
  case isa::SwitchMode::Broadcast1: { // slice (s2, x, j0): for t, j
    int64_t j0 = pos % s0;
    for (int64_t t = 0; t < T; ++t)
      for (int64_t j = 0; j < s1; ++j)
        put(j, j0, t);
    break;
  }
  case isa::SwitchMode::Transpose: { // slice a * slice1 + b holds input (b, a)
    int64_t a = pos / s1, b = pos % s1;
    for (int64_t t = 0; t < T; ++t)
      put(b, a, t);
    break;
  }
  case isa::SwitchMode::InterTranspose: { // (s2, a, j0) at (t2, b, t0) = (s2, b, j0) at (t2, a, t0)
    int64_t a = pos / s0, j0 = pos % s0, time0 = c.time0, time2 = T / (s1 * time0);
    for (int64_t t2 = 0; t2 < time2; ++t2)
      for (int64_t b = 0; b < s1; ++b)
        for (int64_t t0 = 0; t0 < time0; ++t0)
          put(b, j0, (t2 * s1 + a) * time0 + t0);
    break;
  }
  case isa::SwitchMode::TransposedBroadcast1: { // slice x * slice1 + b: for t, a: input (b, a)
    int64_t b = pos % s1;
    for (int64_t t = 0; t < T; ++t)
      for (int64_t a = 0; a < s0; ++a)
        put(b, a, t);
    break;
  }
  }
}

} // namespace rngd::sim
