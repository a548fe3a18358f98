#include "SharedBandwidth.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rngd {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kEpsilon = 1e-9;
} // namespace

double SharedBandwidth::freeAt(double t) const {
  auto it = used_.upper_bound(t);
  if (it == used_.begin())
    return capacity_;
  return capacity_ - std::prev(it)->second;
}

double SharedBandwidth::nextChange(double t) const {
  auto it = used_.upper_bound(t);
  return it == used_.end() ? kInfinity : it->first;
}

void SharedBandwidth::split(double t) {
  if (used_.count(t))
    return;
  auto it = used_.upper_bound(t);
  double level = it == used_.begin() ? 0.0 : std::prev(it)->second;
  used_.emplace(t, level);
}

void SharedBandwidth::reserve(double from, double to, double rate) {
  if (!(to > from) || rate <= 0)
    return;
  split(from);
  split(to);
  for (auto it = used_.find(from); it != used_.end() && it->first < to; ++it)
    it->second += rate;
}

double placeTransfer(double start, int64_t dataCycles, const std::vector<BandwidthDemand> &demands,
                     bool &slowed) {
  slowed = false;
  double work = static_cast<double>(dataCycles); // full-speed cycles still to run
  double t = start;
  while (work > kEpsilon) {
    double speed = 1.0, next = kInfinity;
    for (const BandwidthDemand &d : demands) {
      if (d.rate <= 0)
        continue;
      speed = std::min(speed, std::max(0.0, d.memory->freeAt(t)) / d.rate);
      next = std::min(next, d.memory->nextChange(t));
    }
    if (speed < 1.0 - kEpsilon)
      slowed = true;
    if (speed <= kEpsilon) { // nothing left until an earlier DMA finishes
      if (next == kInfinity)
        return kInfinity; // cannot happen: every reservation ends
      t = next;
      continue;
    }
    double finish = t + work / speed;
    double until = std::min(finish, next);
    for (const BandwidthDemand &d : demands)
      if (d.rate > 0)
        d.memory->reserve(t, until, d.rate * speed);
    work -= (until - t) * speed;
    t = until;
    if (until == finish)
      break;
  }
  return t;
}

} // namespace rngd
