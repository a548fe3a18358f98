// Cycle formulas shared by the scheduler (predicted cycles) and the simulator (simulated
// cycles). Both call these functions with numbers they derive on their own side: the scheduler
// from tcp types, the simulator from the executable's loops and descriptors.
#pragma once

#include "rngd/machine/FairShare.h"
#include "rngd/machine/TargetModel.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace rngd {

enum class DmaRoute { HbmToHbm, HbmToDm, DmToHbm, DmToDmSameCluster, DmToDmCrossCluster };

/// Cycles of one DMA command: start-up plus one cycle per 256-B request (two when the
/// transfer reads and writes the same memory), docs/hardware.md section 2.2.
int64_t dmaCycles(const TargetModel &t, DmaRoute route, int64_t packetBytes, int64_t packets);

/// The per-pass work that decides a Tensor Unit pass's duration. Stages stream concurrently,
/// so the pass takes as long as its slowest stage plus the pipeline's fill latency. Counts are
/// per slice (all slices run in lock-step).
struct TensorPassShape {
  int64_t fetchAccesses = 0;       // one DM read per cycle
  bool fetchCast = false;          // fetch adapter cast adds latency
  int64_t switchCycles = 0;        // switchCycles(), 0 without a switch
  int64_t flits = 0;               // flits through Collect
  int64_t contractIterations = 0;  // one packet against every lane per cycle, 0 without
  int64_t contractPacketElems = 0; // packet reducer tree depth is log2 of this
  int64_t contractSlots = 0;       // time-reducer slots emitted per window
  int64_t vectorFlits = 0;         // flits entering the Vector Engine
  int64_t vectorFloatAlus = 0;     // Way4 stages: two cycles per 32-bit x 8 flit
  int64_t vectorIntAlus = 0;       // Way8 stages: one cycle per flit
  int64_t interReduceSlices = 0;   // inter-slice reducer group: ring traversal tail
  int64_t castFlits = 0;           // cast engine, one flit per cycle
  int64_t transposeCycles = 0;     // transposeCycles(), 0 without a transpose
  int64_t commitWrites = 0;        // one DM write per cycle
  int64_t registerWrites = 0;      // TRF/VRF writes, one flit per cycle
};

int64_t tensorPassCycles(const TargetModel &t, const TensorPassShape &shape);

/// Fetch: Time x ceil(packet / read size) reads, one per cycle (docs/hardware.md section 2.3).
int64_t fetchCycles(int64_t timeSize, int64_t packetBytes, int64_t readBytes);

/// Switch Engine: ring_size x Time::SIZE x flits per packet (docs/hardware.md section 2.3).
int64_t switchCycles(int64_t ringSize, int64_t timeSize, int64_t flitsPerPacket);

/// Transpose Engine over `matrices` matrices of in_rows x in_cols elements (valid_size per
/// input flit): double-buffered when in_cols <= 16, else single-buffered
/// (docs/hardware.md section 2.3).
int64_t transposeCycles(int64_t inRows, int64_t inCols, int64_t outRows, int64_t validSize,
                        int64_t matrices);

/// Longest run of consecutive sequencer accesses to one DM bank, from the loop nest (sizes and
/// byte strides, outer to inner): the innermost loops whose stride is a whole number of bank
/// rows (16 banks x 8 bytes) revisit the same bank on every iteration (docs/hardware.md
/// sections 1.2 and 3.3).
int64_t sameBankRun(const TargetModel &t, const std::vector<std::pair<int64_t, int64_t>> &loops);

/// Cycles to write the words of a configuration block that `wordMask` names (bit w = 64-bit
/// register word w): one command issue per contiguous run of words (a register-range write
/// each) plus configWordCycles per word.
int64_t configLoadCycles(const TargetModel &t, uint64_t wordMask);

/// Bytes per cluster, as many entries as the clusters written to: reading a cluster past the
/// last entry gives 0, writing one adds the entries up to it.
class ClusterBytes {
public:
  int64_t operator[](size_t cluster) const {
    return cluster < bytes_.size() ? bytes_[cluster] : 0;
  }
  int64_t &operator[](size_t cluster) {
    if (cluster >= bytes_.size())
      bytes_.resize(cluster + 1, 0);
    return bytes_[cluster];
  }
  size_t size() const { return bytes_.size(); }

private:
  std::vector<int64_t> bytes_;
};

/// The bytes a DMA moves through the shared memories: HBM (read plus written) and each
/// cluster's DM (written).
struct DmaTraffic {
  int64_t hbmBytes = 0;
  ClusterBytes dmWriteBytes; // per cluster
};

/// Timing of the in-order command queue. The scheduler predicts with it and the simulator
/// times with it, each feeding it the commands it sees. Every word costs commandIssueCycles
/// of queue time (a config load, configLoadCycles); an engine command starts once the queue
/// reaches it and its engine is free; a wait holds the queue until the awaited end.
///
/// A DMA pays its start-up, then moves its bytes at its engine's speed unless concurrent DMAs
/// fill a memory they share: HBM (hbmBytesPerCycle) or a cluster's DM intake
/// (dmBytesPerCyclePerCluster). Then the DMAs running at that moment share it max-min fairly
/// (FairShare.h), speeds changing whenever a DMA starts or stops moving bytes. One DMA alone is
/// never slowed (an engine's 256 B/cycle is below both rates). So a DMA's end depends on the
/// DMAs issued after it while it runs: it is known once the queue waits for it (waitDma) or
/// after finish(); before that, dmaSpan() gives it as if nothing more were issued.
class QueueClock {
public:
  struct Interval {
    int64_t start = 0;
    int64_t end = 0;
  };
  using DmaId = size_t;

  explicit QueueClock(const TargetModel &t);
  DmaId dma(int64_t engine, int64_t cycles, const DmaTraffic &traffic = {});
  Interval exec(int64_t context, int64_t cycles);
  void load(uint64_t wordMask); // a configuration load of those words (configLoadCycles)
  /// Holds the queue until `until` (a pass's end).
  void wait(int64_t until);
  /// Holds the queue until DMA `id` ends.
  void waitDma(DmaId id);
  /// Runs every DMA issued to its end: all spans and the makespan are final.
  void finish();
  /// DMA `id`'s start and end if nothing more were issued (final after waitDma or finish).
  Interval dmaSpan(DmaId id) const;
  /// When DMA engine `engine` would finish the work given to it so far (0 for an engine past
  /// the target's count, which has none).
  int64_t engineFree(int64_t engine) const;
  int64_t now() const { return queue_; }
  /// The last end known so far (of every command after finish()).
  int64_t makespan() const { return makespan_; }

  /// The DMAs in flight, advanced in time together (QueueClock.cpp).
  struct Transfer {
    int64_t engine = 0, cycles = 0, issued = 0;
    MemoryRates rates;     // bytes per cycle through each shared memory at full speed
    double work = 0;       // full-speed data cycles still to move
    int64_t start = -1;    // -1 until the engine's previous DMA has ended
    int64_t end = -1;      // -1 until known
    int64_t next = -1;     // the engine's next DMA
  };
  struct Flow {
    std::vector<Transfer> dmas;
    std::vector<size_t> open; // started or queued, not ended
    double at = 0;            // every DMA's progress is final up to this time
  };

private:
  const TargetModel &t_;
  int64_t queue_ = 0;
  int64_t makespan_ = 0;
  std::vector<int64_t> lastOnEngine_; // per engine: its last DMA (-1: none yet)
  int64_t contextFree_[2] = {};       // main, sub: when the pass running there ends
  Flow flow_;
  mutable Flow projected_; // flow_ run to its end; valid while projectedValid_
  mutable bool projectedValid_ = false;
};

} // namespace rngd
