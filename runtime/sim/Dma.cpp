// Tensor DMA: walks the descriptor's loop nest (loop 0 outermost), copies one packet per
// iteration, and derives the route, the footprint and the cycles from what it walked.
#include "Machine.h"

#include <cstring>

namespace rngd::sim {
namespace {

// Saturating product of the loop limits: the guard must not overflow on 65536^8.
int64_t packetCount(const isa::Descriptor &d, int64_t cap) {
  int64_t n = 1;
  for (uint32_t l : d.limits) {
    if (n > cap / static_cast<int64_t>(l))
      return cap + 1;
    n *= l;
  }
  return n;
}

class SideBounds {
public:
  explicit SideBounds(int64_t slices) : dm_(slices) {}
  void add(const Place &p, uint64_t len) {
    if (p.dm) {
      dm_.add(p.slice, p.offset, p.offset + len);
      return;
    }
    hbmLo_ = std::min(hbmLo_, p.offset);
    hbmHi_ = std::max(hbmHi_, p.offset + len);
  }
  Footprint footprint() const {
    Footprint f;
    if (hbmHi_ > 0)
      f.hbm.push_back({hbmLo_, hbmHi_});
    f.dm = dm_.regions();
    return f;
  }

private:
  uint64_t hbmLo_ = UINT64_MAX, hbmHi_ = 0;
  DmRegionBuilder dm_;
};

DmaRoute routeOf(const TargetModel &t, const Place &src, const Place &dst) {
  if (!src.dm)
    return dst.dm ? DmaRoute::HbmToDm : DmaRoute::HbmToHbm;
  if (!dst.dm)
    return DmaRoute::DmToHbm;
  return src.slice / t.slicesPerCluster == dst.slice / t.slicesPerCluster
             ? DmaRoute::DmToDmSameCluster
             : DmaRoute::DmToDmCrossCluster;
}

} // namespace

Status runDma(const Env &env, const std::string &label, const isa::Descriptor &d,
              DmaOutcome &out) {
  const TargetModel &t = env.target;
  if (d.engine >= static_cast<uint32_t>(t.dmaEngines))
    return Status::failure(label + ": DMA engine " + std::to_string(d.engine) +
                           " does not exist (the target has " + std::to_string(t.dmaEngines) +
                           ")");
  if (d.packetBytes > static_cast<uint64_t>(t.dmaMaxPacketBytes))
    return Status::failure(label + ": packet of " + std::to_string(d.packetBytes) +
                           " bytes exceeds the DMA maximum " +
                           std::to_string(t.dmaMaxPacketBytes));
  int64_t cap = env.options.maxWorkPerCommand;
  int64_t packets = packetCount(d, cap);
  if (packets > cap)
    return Status::failure(label + ": descriptor moves more than " + std::to_string(cap) +
                           " packets, over the simulator's per-command cap");

  size_t loops = d.limits.size();
  std::vector<uint32_t> idx(loops, 0);
  uint64_t src = d.src, dst = d.dst; // wrap-around arithmetic; resolve rejects wild values
  uint64_t len = d.packetBytes;
  uint64_t align = static_cast<uint64_t>(t.dmaAlignment);
  SideBounds reads(t.totalSlices()), writes(t.totalSlices());
  for (int64_t p = 0; p < packets; ++p) {
    Place s, w;
    std::string why;
    if (!resolveAddress(env, src, len, s, why))
      return Status::failure(label + ": packet " + std::to_string(p) + " reads " + why);
    if (!resolveAddress(env, dst, len, w, why))
      return Status::failure(label + ": packet " + std::to_string(p) + " writes " + why);
    if ((s.dm || w.dm) && (src % align || dst % align || len % align))
      return Status::failure(label + ": packet " + std::to_string(p) + " from " +
                             hexString(src) + " to " + hexString(dst) + " of " +
                             std::to_string(len) + " bytes: a transfer touching DM needs " +
                             std::to_string(align) + "-byte aligned addresses and size");
    if (p == 0)
      out.route = routeOf(t, s, w);
    std::memmove(w.ptr, s.ptr, len);
    reads.add(s, len);
    writes.add(w, len);
    // Odometer: the innermost loop advances; a loop that wraps rewinds its stride.
    for (size_t k = loops; k-- > 0;) {
      src += static_cast<uint64_t>(static_cast<int64_t>(d.srcStrides[k]));
      dst += static_cast<uint64_t>(static_cast<int64_t>(d.dstStrides[k]));
      if (++idx[k] < d.limits[k])
        break;
      idx[k] = 0;
      src -= static_cast<uint64_t>(static_cast<int64_t>(d.srcStrides[k]) * d.limits[k]);
      dst -= static_cast<uint64_t>(static_cast<int64_t>(d.dstStrides[k]) * d.limits[k]);
    }
  }
  out.packets = packets;
  out.effects.reads = reads.footprint();
  out.effects.writes = writes.footprint();
  out.cycles = dmaCycles(t, out.route, len, packets);
  return Status::success();
}

} // namespace rngd::sim
