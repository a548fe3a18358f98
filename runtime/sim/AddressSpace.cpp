// Descriptor addresses: HBM at hbmAddressBase + offset, DM at dmAddressBase + slice x
// dmSliceWindowBytes + offset. Only the first dmBytesPerSlice of a slice window exist.
#include "Machine.h"

#include <algorithm>
#include <iterator>

namespace rngd::sim {

bool resolveAddress(const Env &env, uint64_t addr, uint64_t len, Place &out, std::string &why) {
  const TargetModel &t = env.target;
  uint64_t window = static_cast<uint64_t>(t.dmSliceWindowBytes);
  uint64_t slices = static_cast<uint64_t>(t.totalSlices());
  if (addr >= t.hbmAddressBase) {
    uint64_t off = addr - t.hbmAddressBase, size = env.exe.hbmBytes;
    if (off > size || len > size - off) {
      why = "address " + hexString(addr) + " (+" + std::to_string(len) +
            ") is outside the kernel's HBM [" + hexString(t.hbmAddressBase) + ", +" +
            std::to_string(size) + ")";
      return false;
    }
    // The last binding starting at or before `off`; the range must stay inside it (or, when
    // `off` is before or past it, must not reach the next one).
    const std::vector<HbmBinding> &bound = env.hbm.bound;
    auto next = std::upper_bound(bound.begin(), bound.end(), off,
                                 [](uint64_t o, const HbmBinding &b) { return o < b.offset; });
    if (next != bound.begin() && off < std::prev(next)->offset + std::prev(next)->bytes) {
      const HbmBinding &b = *std::prev(next);
      if (len > b.offset + b.bytes - off) {
        why = "address " + hexString(addr) + " (+" + std::to_string(len) +
              ") runs past the end of the bound argument range [" + std::to_string(b.offset) +
              ", +" + std::to_string(b.bytes) + ")";
        return false;
      }
      out = {false, 0, off, b.data + (off - b.offset)};
      return true;
    }
    if (next != bound.end() && len > next->offset - off) {
      why = "address " + hexString(addr) + " (+" + std::to_string(len) +
            ") runs into the bound argument range [" + std::to_string(next->offset) + ", +" +
            std::to_string(next->bytes) + ")";
      return false;
    }
    out = {false, 0, off, env.hbm.base + off};
    return true;
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
