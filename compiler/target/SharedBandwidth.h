// Bandwidth of a shared memory (HBM, one cluster's DM intake) over time, handed out to DMAs in
// issue order. Used by rngd::QueueClock, so the scheduler and the simulator time concurrent
// DMAs alike (docs/machine-model.md, "Concurrent DMAs").
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace rngd {

/// Bytes per cycle in use, as a step function of time: earlier DMAs keep what they reserved,
/// a later one takes what is left.
class SharedBandwidth {
public:
  explicit SharedBandwidth(double bytesPerCycle) : capacity_(bytesPerCycle) {}
  double capacity() const { return capacity_; }
  /// Free bytes per cycle at time t.
  double freeAt(double t) const;
  /// The first time after t where the use changes (infinity when none).
  double nextChange(double t) const;
  /// Adds `rate` bytes per cycle of use over [from, to).
  void reserve(double from, double to, double rate);

private:
  void split(double t);
  double capacity_;
  std::map<double, double> used_; // use from this time until the next key
};

/// One shared memory a DMA moves bytes through, at `rate` bytes per cycle when it runs at the
/// full speed of its engine.
struct BandwidthDemand {
  SharedBandwidth *memory;
  double rate;
};

/// Runs `dataCycles` cycles of full-speed work from `start`, each cycle slowed to the fraction
/// of its demands the memories can still give; reserves what it uses and returns the end
/// (not rounded). With enough free bandwidth throughout it ends at start + dataCycles.
double placeTransfer(double start, int64_t dataCycles, const std::vector<BandwidthDemand> &demands,
                     bool &slowed);

} // namespace rngd
