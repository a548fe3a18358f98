// Tensor DMA: walks the descriptor's loop nest (loop 0 outermost), copies one packet per
// iteration, and derives the route, the footprint and the cycles from what it walked.
#include "Machine.h"
#include "Sequencer.h"

#include <algorithm>
#include <cstring>

namespace rngd::sim {
namespace {

template <typename T> std::string listText(const std::vector<T> &v) {
  std::string s;
  for (const T &x : v)
    s += (s.empty() ? "" : ", ") + std::to_string(x);
  return "[" + s + "]";
}

/// The bytes one side (source or destination) of a descriptor spans, from its lowest packet's
/// start to its highest packet's end. The address is linear in the loop indices, so the two
/// are corners of the nest. No sum overflows int64 (8 x 65,535 x 2^31 < 2^50).
uint64_t footprintBytes(const std::vector<uint32_t> &limits, const std::vector<int64_t> &strides,
                        uint64_t packetBytes) {
  int64_t down = 0, up = 0;
  for (size_t k = 0; k < limits.size(); ++k) {
    int64_t reach = (static_cast<int64_t>(limits[k]) - 1) * strides[k];
    (reach < 0 ? down : up) += reach;
  }
  return static_cast<uint64_t>(up - down) + packetBytes;
}

/// Bytes from the lowest address a descriptor may name (the first DM slice window, or HBM) to
/// the end of the highest (the last window, or the kernel's HBM): no side's footprint can be
/// larger and have every packet resolve.
uint64_t addressExtent(const Env &env) {
  const TargetModel &t = env.target;
  uint64_t dmEnd = t.dmAddressBase + static_cast<uint64_t>(t.totalSlices()) *
                                         static_cast<uint64_t>(t.dmSliceWindowBytes);
  uint64_t hbmEnd = t.hbmAddressBase + env.exe.hbmBytes;
  return std::max(dmEnd, hbmEnd) - std::min<uint64_t>(t.dmAddressBase, t.hbmAddressBase);
}

/// A side whose footprint is larger than every address it could name is refused before any
/// packet moves, with the numbers; smaller ones are checked packet by packet by the walk.
Status checkFootprint(const Env &env, const std::string &label, const isa::Descriptor &d,
                      bool source, const std::vector<int64_t> &strides) {
  uint64_t bytes = footprintBytes(d.limits, strides, d.packetBytes);
  uint64_t extent = addressExtent(env);
  if (bytes <= extent)
    return Status::success();
  const char *side = source ? "src" : "dst";
  return Status::failure(
      label + ": the descriptor's " + (source ? "source" : "destination") + " footprint spans " +
      std::to_string(bytes) + " bytes (limits " + listText(d.limits) + " x " + side +
      "_strides " + listText(source ? d.srcStrides : d.dstStrides) + " from " + side + " " +
      hexString(source ? d.src : d.dst) + ", packets of " + std::to_string(d.packetBytes) +
      " bytes), more than the " + std::to_string(extent) +
      " bytes a DMA can address (the first DM slice window to the end of the kernel's HBM)");
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
  // A packet weighs as much as one access on each slice of a cluster does in a pass: the walk
  // moves about 45 million packets a second here, so the cap's 2^24 packets take under half a
  // second and a stride-0 nest past them is refused at once (at 2^32 it took ~100 s).
  const int64_t perPacket = t.slicesPerCluster;
  const int64_t cap = env.options.maxWorkPerCommand / perPacket;
  int64_t packets = cappedProduct(d.limits, cap);
  if (packets > cap)
    return Status::failure(label + ": descriptor loop nest makes " + nestProduct(d.limits) +
                           " packets, over the simulator's per-command cap of " +
                           std::to_string(env.options.maxWorkPerCommand) +
                           " (SimOptions::maxWorkPerCommand, " + std::to_string(perPacket) +
                           " per packet: at most " + std::to_string(cap) + " packets)");

  size_t loops = d.limits.size();
  std::vector<uint32_t> idx(loops, 0);
  std::vector<int64_t> srcStrides(d.srcStrides.begin(), d.srcStrides.end());
  std::vector<int64_t> dstStrides(d.dstStrides.begin(), d.dstStrides.end());
  SideBounds reads(t.totalSlices()), writes(t.totalSlices());

  // Gather/scatter: the index tensor (i32 byte offsets in HBM) is read when the DMA starts; the
  // indirect loop's term on that side is index[i] instead of i x stride.
  bool gather = d.kind == static_cast<uint32_t>(isa::DmaKind::Gather);
  bool scatter = d.kind == static_cast<uint32_t>(isa::DmaKind::Scatter);
  const char *kindName = gather ? "gather" : "scatter";
  std::vector<int32_t> index;
  size_t indirect = d.indirectLoop;
  if (gather || scatter) {
    Place ip;
    std::string why;
    uint64_t indexBytes = uint64_t(4) * d.indexCount;
    if (!resolveAddress(env, d.indexAddress, indexBytes, ip, why))
      return Status::failure(label + ": " + kindName + " index tensor " + why);
    if (ip.dm)
      return Status::failure(label + ": " + kindName + " index tensor at " +
                             hexString(d.indexAddress) + " is in DM; indices must be in HBM");
    index.resize(d.indexCount);
    std::memcpy(index.data(), ip.ptr, indexBytes);
    reads.add(ip, indexBytes);
    out.traffic.hbmBytes += static_cast<int64_t>(indexBytes);
    (gather ? srcStrides : dstStrides)[indirect] = 0;
  }
  // The indexed side's addresses come from the index tensor: the walk checks each packet.
  for (bool source : {true, false})
    if (!(source ? gather : scatter))
      if (Status st = checkFootprint(env, label, d, source, source ? srcStrides : dstStrides);
          !st)
        return st;
  // The indexed side stays inside the argument its base address is in: an index past the
  // tensor's end is an error, not a read or write of the next argument.
  const ArgInfo *indexed = nullptr;
  if (gather || scatter) {
    uint64_t base = (gather ? d.src : d.dst) - t.hbmAddressBase;
    for (const ArgInfo &a : env.exe.args)
      if (base >= a.hbmOffset && base - a.hbmOffset < a.bytes)
        indexed = &a;
  }
  auto indexNote = [&]() {
    if (index.empty())
      return std::string();
    return std::string(" (") + kindName + " index[" + std::to_string(idx[indirect]) + "] = " +
           std::to_string(index[idx[indirect]]) + ")";
  };

  // An engine reaches the DM of its own cluster only (docs/machine-model.md).
  const int64_t enginesPerCluster = t.dmaEngines / t.clusters;
  const int64_t engineCluster = static_cast<int64_t>(d.engine) / enginesPerCluster;
  uint64_t src = d.src, dst = d.dst; // wrap-around arithmetic; resolve rejects wild values
  uint64_t len = d.packetBytes;
  uint64_t align = static_cast<uint64_t>(t.dmaAlignment);
  for (int64_t p = 0; p < packets; ++p) {
    uint64_t from = src, to = dst;
    if (!index.empty()) {
      uint64_t term = static_cast<uint64_t>(static_cast<int64_t>(index[idx[indirect]]));
      (gather ? from : to) += term;
    }
    if (indexed) {
      uint64_t off = (gather ? from : to) - t.hbmAddressBase;
      if (off < indexed->hbmOffset || off - indexed->hbmOffset > indexed->bytes ||
          len > indexed->hbmOffset + indexed->bytes - off)
        return Status::failure(label + ": packet " + std::to_string(p) + indexNote() +
                               (gather ? " reads" : " writes") + " HBM bytes [" +
                               std::to_string(static_cast<int64_t>(off)) + ", +" +
                               std::to_string(len) +
                               "), outside argument '" + indexed->name + "' [" +
                               std::to_string(indexed->hbmOffset) + ", +" +
                               std::to_string(indexed->bytes) + ") that the " + kindName +
                               " indexes");
    }
    Place s, w;
    std::string why;
    if (!resolveAddress(env, from, len, s, why))
      return Status::failure(label + ": packet " + std::to_string(p) + indexNote() + " reads " +
                             why);
    if (!resolveAddress(env, to, len, w, why))
      return Status::failure(label + ": packet " + std::to_string(p) + indexNote() +
                             " writes " + why);
    // DM to DM may read the other cluster (a cluster shuffle): the engine is the writer's.
    for (const Place *place : {&s, &w}) {
      int64_t cluster = place->slice / t.slicesPerCluster;
      if (place == &s && w.dm)
        continue;
      if (place->dm && cluster != engineCluster)
        return Status::failure(label + ": packet " + std::to_string(p) + indexNote() +
                               (place == &s ? " reads" : " writes") + " DM slice " +
                               std::to_string(place->slice) + " of cluster " +
                               std::to_string(cluster) + ", but DMA engine " +
                               std::to_string(d.engine) + " serves cluster " +
                               std::to_string(engineCluster) + " (engines " +
                               std::to_string(engineCluster * enginesPerCluster) + ".." +
                               std::to_string((engineCluster + 1) * enginesPerCluster - 1) + ")");
    }
    if ((s.dm || w.dm) && (from % align || to % align || len % align))
      return Status::failure(label + ": packet " + std::to_string(p) + indexNote() + " from " +
                             hexString(from) + " to " + hexString(to) + " of " +
                             std::to_string(len) + " bytes: a transfer touching DM needs " +
                             std::to_string(align) + "-byte aligned addresses and size");
    if (p == 0)
      out.route = routeOf(t, s, w);
    std::memmove(w.ptr, s.ptr, len);
    reads.add(s, len);
    writes.add(w, len);
    int64_t bytes = static_cast<int64_t>(len);
    out.traffic.hbmBytes += (s.dm ? 0 : bytes) + (w.dm ? 0 : bytes);
    if (w.dm)
      out.traffic.dmWriteBytes[w.slice / t.slicesPerCluster != 0] += bytes;
    // Odometer: the innermost loop advances; a loop that wraps rewinds its stride.
    for (size_t k = loops; k-- > 0;) {
      src += static_cast<uint64_t>(srcStrides[k]);
      dst += static_cast<uint64_t>(dstStrides[k]);
      if (++idx[k] < d.limits[k])
        break;
      idx[k] = 0;
      src -= static_cast<uint64_t>(srcStrides[k] * d.limits[k]);
      dst -= static_cast<uint64_t>(dstStrides[k] * d.limits[k]);
    }
  }
  out.packets = packets;
  out.effects.reads = reads.footprint();
  out.effects.writes = writes.footprint();
  out.cycles = dmaCycles(t, out.route, len, packets);
  return Status::success();
}

} // namespace rngd::sim
