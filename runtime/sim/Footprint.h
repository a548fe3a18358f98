// What an in-flight command reads and writes, for the hazard check (docs/simulator.md,
// "Hazards"). Ranges are bounding ranges: HBM one [lo, hi) per command side, DM/TRF/VRF one
// [lo, hi) per group of slices that share it (TRF: one per lane segment).
#pragma once

#include "rngd/Isa.h"
#include "rngd/Simulator.h"

#include <optional>
#include <string>
#include <vector>

namespace rngd::sim {

struct HbmRegion {
  uint64_t lo = 0, hi = 0;
};
struct DmRegion {
  isa::SliceBitmap slices{};
  uint64_t lo = 0, hi = 0;
};
struct Footprint {
  std::vector<HbmRegion> hbm;
  std::vector<DmRegion> dm, trf, vrf;
};
struct Effects {
  Footprint reads, writes;
};

/// Builds DM regions from per-slice bounds, grouping slices with identical ranges.
class DmRegionBuilder {
public:
  explicit DmRegionBuilder(int64_t slices);
  void add(int64_t slice, uint64_t lo, uint64_t hi);
  std::vector<DmRegion> regions() const;

private:
  std::vector<uint64_t> lo_, hi_;
  std::vector<int64_t> touched_;
};

/// The first overlap between a footprint of the new command and one of an older command, as
/// "DM slice 3 [0, 8)" / "HBM [0, 256)" describing the new command's range.
std::optional<std::string> overlap(const Footprint &mine, const Footprint &theirs);

/// Trace ranges: one per HBM region and per contiguous run of slices in a DM region.
std::vector<MemoryRange> traceRanges(const Footprint &f);

inline bool testSlice(const isa::SliceBitmap &b, int64_t s) { return (b[s / 64] >> (s % 64)) & 1; }
inline void setSlice(isa::SliceBitmap &b, int64_t s) { b[s / 64] |= uint64_t(1) << (s % 64); }

} // namespace rngd::sim
