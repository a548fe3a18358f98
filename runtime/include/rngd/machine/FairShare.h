// Max-min fair sharing of memory bandwidth among concurrent DMAs. Used by rngd::QueueClock, so
// the scheduler and the simulator time concurrent DMAs alike (docs/machine-model.md,
// "Concurrent DMAs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rngd {

/// The memories concurrent DMAs share: HBM (index kHbm), and the DM intake of each cluster
/// (dmIntake(c)); a target with C clusters has 1 + C.
constexpr size_t kHbm = 0;
constexpr size_t dmIntake(int64_t cluster) { return 1 + static_cast<size_t>(cluster); }
inline size_t sharedMemories(int64_t clusters) { return dmIntake(clusters); }

/// Bytes per cycle a DMA moves through each shared memory when its engine runs at full speed
/// (one entry per shared memory; all of a flow's rates have the same length).
using MemoryRates = std::vector<double>;

/// The speed (fraction of full speed, in (0, 1]) of each DMA in `demands` when they share
/// memories of `capacity` bytes per cycle max-min fairly: every DMA speeds up alike until it
/// reaches full speed or a memory it uses is full (progressive filling). DMAs that use no
/// shared memory run at full speed.
std::vector<double> fairSpeeds(const std::vector<MemoryRates> &demands,
                               const MemoryRates &capacity);

} // namespace rngd
