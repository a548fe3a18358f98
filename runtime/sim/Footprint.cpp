#include "Footprint.h"

#include <algorithm>

namespace rngd::sim {

DmRegionBuilder::DmRegionBuilder(int64_t slices)
    : lo_(static_cast<size_t>(slices), UINT64_MAX), hi_(static_cast<size_t>(slices), 0) {}

void DmRegionBuilder::add(int64_t s, uint64_t lo, uint64_t hi) {
  size_t i = static_cast<size_t>(s);
  if (lo_[i] == UINT64_MAX && hi_[i] == 0)
    touched_.push_back(s);
  lo_[i] = std::min(lo_[i], lo);
  hi_[i] = std::max(hi_[i], hi);
}

std::vector<DmRegion> DmRegionBuilder::regions() const {
  std::vector<DmRegion> out;
  for (int64_t s : touched_) {
    size_t i = static_cast<size_t>(s);
    DmRegion *group = nullptr;
    for (DmRegion &r : out)
      if (r.lo == lo_[i] && r.hi == hi_[i])
        group = &r;
    if (!group) {
      out.push_back({{}, lo_[i], hi_[i]});
      group = &out.back();
    }
    setSlice(group->slices, s);
  }
  return out;
}

static std::string range(uint64_t lo, uint64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
}

static std::optional<std::string> overlapSlices(const char *name,
                                                const std::vector<DmRegion> &mine,
                                                const std::vector<DmRegion> &theirs) {
  for (const DmRegion &a : mine)
    for (const DmRegion &b : theirs) {
      if (!(a.lo < b.hi && b.lo < a.hi))
        continue;
      for (int w = 0; w < isa::kSliceBitmapWords; ++w) {
        uint64_t common = a.slices[w] & b.slices[w];
        if (common)
          return std::string(name) + " slice " +
                 std::to_string(w * 64 + __builtin_ctzll(common)) + " " + range(a.lo, a.hi);
      }
    }
  return std::nullopt;
}

std::optional<std::string> overlap(const Footprint &mine, const Footprint &theirs) {
  for (const HbmRegion &a : mine.hbm)
    for (const HbmRegion &b : theirs.hbm)
      if (a.lo < b.hi && b.lo < a.hi)
        return "HBM " + range(a.lo, a.hi);
  if (auto r = overlapSlices("DM", mine.dm, theirs.dm))
    return r;
  if (auto r = overlapSlices("TRF", mine.trf, theirs.trf))
    return r;
  return overlapSlices("VRF", mine.vrf, theirs.vrf);
}

static void sliceRanges(std::vector<MemoryRange> &out, SliceMemory m,
                        const std::vector<DmRegion> &regions) {
  for (const DmRegion &r : regions) {
    int64_t total = int64_t(isa::kSliceBitmapWords) * 64;
    for (int64_t s = 0; s < total;) {
      if (!testSlice(r.slices, s)) {
        ++s;
        continue;
      }
      int64_t first = s;
      while (s < total && testSlice(r.slices, s))
        ++s;
      out.push_back({true, first, s, r.lo, r.hi, m});
    }
  }
}

std::vector<MemoryRange> traceRanges(const Footprint &f) {
  std::vector<MemoryRange> out;
  for (const HbmRegion &r : f.hbm)
    out.push_back({false, 0, 0, r.lo, r.hi});
  sliceRanges(out, SliceMemory::Dm, f.dm);
  sliceRanges(out, SliceMemory::Trf, f.trf);
  sliceRanges(out, SliceMemory::Vrf, f.vrf);
  return out;
}

} // namespace rngd::sim
