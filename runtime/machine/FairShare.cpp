#include "rngd/machine/FairShare.h"

#include <algorithm>
#include <limits>

namespace rngd {

namespace {
constexpr double kEpsilon = 1e-12;
} // namespace

std::vector<double> fairSpeeds(const std::vector<MemoryRates> &demands,
                               const MemoryRates &capacity) {
  const size_t n = demands.size();
  const size_t memories = capacity.size();
  std::vector<double> speed(n, 0.0);
  std::vector<bool> frozen(n, false);
  double level = 0.0; // the common speed of the DMAs not frozen yet
  for (size_t left = n; left > 0;) {
    // The largest raise of every unfrozen speed that fills no memory and passes no full speed.
    double raise = 1.0 - level;
    MemoryRates used(memories, 0.0), growing(memories, 0.0);
    for (size_t i = 0; i < n; ++i)
      for (size_t m = 0; m < memories; ++m) {
        used[m] += speed[i] * demands[i][m];
        if (!frozen[i])
          growing[m] += demands[i][m];
      }
    for (size_t m = 0; m < memories; ++m)
      if (growing[m] > 0)
        raise = std::min(raise, std::max(0.0, capacity[m] - used[m]) / growing[m]);
    level += raise;
    for (size_t i = 0; i < n; ++i)
      if (!frozen[i])
        speed[i] = level;
    // Freeze the DMAs at full speed and those using a memory that is now full.
    std::vector<bool> full(memories, false);
    for (size_t m = 0; m < memories; ++m) {
      double total = 0;
      for (size_t i = 0; i < n; ++i)
        total += speed[i] * demands[i][m];
      full[m] = growing[m] > 0 && total >= capacity[m] * (1 - 1e-12) - kEpsilon;
    }
    const size_t before = left;
    for (size_t i = 0; i < n; ++i) {
      if (frozen[i])
        continue;
      bool stop = level >= 1.0 - kEpsilon;
      for (size_t m = 0; m < memories; ++m)
        stop = stop || (full[m] && demands[i][m] > 0);
      if (stop) {
        frozen[i] = true;
        --left;
      }
    }
    if (left == before) // rounding kept a full memory just under its capacity: stop there
      break;
  }
  return speed;
}

} // namespace rngd
