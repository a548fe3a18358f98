// Descriptor addresses: HBM at hbmAddressBase + offset, DM at dmAddressBase + slice x
// dmSliceWindowBytes + offset. Only the first dmBytesPerSlice of a slice window exist.
#include "Machine.h"

namespace rngd::sim {

bool resolveAddress(const Env &env, uint64_t addr, uint64_t len, Place &out, std::string &why) {
  const TargetModel &t = env.target;
  uint64_t window = static_cast<uint64_t>(t.dmSliceWindowBytes);
  uint64_t slices = static_cast<uint64_t>(t.totalSlices());
  if (addr >= t.hbmAddressBase) {
    uint64_t off = addr - t.hbmAddressBase;
    if (off <= env.hbmBytes && len <= env.hbmBytes - off) {
      out = {false, 0, off, env.hbm + off};
      return true;
    }
    why = "address " + hexString(addr) + " (+" + std::to_string(len) +
          ") is outside the kernel's HBM [" + hexString(t.hbmAddressBase) + ", +" +
          std::to_string(env.hbmBytes) + ")";
    return false;
  }
  if (addr >= t.dmAddressBase && (addr - t.dmAddressBase) / window < slices) {
    uint64_t rel = addr - t.dmAddressBase;
    int64_t slice = static_cast<int64_t>(rel / window);
    uint64_t off = rel % window;
    uint64_t size = static_cast<uint64_t>(t.dmBytesPerSlice);
    if (off <= size && len <= size - off) {
      out = {true, slice, off, env.dm.slice(slice) + off};
      return true;
    }
    why = "address " + hexString(addr) + " (+" + std::to_string(len) + ") is DM slice " +
          std::to_string(slice) + " offset " + std::to_string(off) + ", past the slice's " +
          std::to_string(size) + " bytes";
    return false;
  }
  why = "address " + hexString(addr) + " is neither in HBM nor in a DM slice window";
  return false;
}

} // namespace rngd::sim
