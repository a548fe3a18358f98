// Max-min fair sharing of memory bandwidth among concurrent DMAs. Used by rngd::QueueClock, so
// the scheduler and the simulator time concurrent DMAs alike (docs/machine-model.md,
// "Concurrent DMAs").
#pragma once

#include <array>
#include <vector>

namespace rngd {

/// The memories concurrent DMAs share: HBM, and the DM intake of each cluster.
enum SharedMemory { kHbm = 0, kDmCluster0 = 1, kDmCluster1 = 2, kSharedMemories = 3 };

/// Bytes per cycle a DMA moves through each shared memory when its engine runs at full speed.
using MemoryRates = std::array<double, kSharedMemories>;

/// The speed (fraction of full speed, in (0, 1]) of each DMA in `demands` when they share
/// memories of `capacity` bytes per cycle max-min fairly: every DMA speeds up alike until it
/// reaches full speed or a memory it uses is full (progressive filling). DMAs that use no
/// shared memory run at full speed.
std::vector<double> fairSpeeds(const std::vector<MemoryRates> &demands,
                               const MemoryRates &capacity);

} // namespace rngd
