// The simulator device: executes an executable's command stream functionally (bit-exact bf16 /
// f32 / i32) and counts cycles with the target model's cost formulas. docs/simulator.md states
// its semantics and its honesty rules: addresses come only from the file's loops and
// descriptors, cycles only from the commands; the predicted makespan is never read.
#pragma once

#include "rngd/machine/TargetModel.h"
#include "rngd/Executable.h"
#include "rngd/Status.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace rngd::sim {

/// The per-slice memories: Data Memory (512 KB), Tensor Register File (64 KB, flat: lane
/// segment l of a 2^g-lane access starts at l x (64 KB >> g)) and Vector Register File (8 KB).
enum class SliceMemory { Dm, Trf, Vrf };
const char *sliceMemoryName(SliceMemory m); // "DM" | "TRF" | "VRF"

/// Per-slice memories of 512 slices. Each memory kind is one zero-filled region for all slices,
/// reserved on the first touch of any slice; the OS hands out its pages on first use, so a
/// kernel that uses few slices costs little host memory. Contents persist across launches on
/// the same DataMemory, as they do on the device.
class DataMemory {
public:
  explicit DataMemory(const TargetModel &t = defaultTarget());
  int64_t sliceCount() const { return slices_; }
  int64_t sliceBytes() const { return sliceBytes_; }
  int64_t bytes(SliceMemory m) const;
  /// The slice's DM bytes (allocated on first use). `slice` must be < sliceCount().
  uint8_t *slice(int64_t slice);
  /// The slice's DM, TRF or VRF bytes (allocated on first use). `slice` must be < sliceCount().
  /// Throws std::bad_alloc when the host has no memory for the region.
  uint8_t *memory(SliceMemory m, int64_t slice);
  /// Whether the slice's memory was touched since construction or the last clear().
  bool allocated(int64_t slice) const;
  bool allocated(SliceMemory m, int64_t slice) const;
  /// Host access with bounds checks (DM).
  Status read(int64_t slice, uint64_t offset, void *dst, uint64_t bytes);
  Status write(int64_t slice, uint64_t offset, const void *src, uint64_t bytes);
  /// Host access with bounds checks to any of the slice's memories.
  Status read(SliceMemory m, int64_t slice, uint64_t offset, void *dst, uint64_t bytes);
  Status write(SliceMemory m, int64_t slice, uint64_t offset, const void *src, uint64_t bytes);
  /// Drops every slice's DM, TRF and VRF (all read as zero again).
  void clear();

private:
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  static constexpr int kKinds = 3; // DM, TRF, VRF: indexed by SliceMemory
  int64_t sliceBytes_;
  int64_t trfBytes_, vrfBytes_;
  int64_t slices_;
  // calloc'd per kind, all slices back to back: one allocation (not one per slice) and zero
  // pages from the OS, so a slice costs only the pages a kernel touches.
  std::unique_ptr<uint8_t, Free> region_[kKinds];
  std::vector<uint8_t> touched_[kKinds]; // per slice
};

/// One memory range a command reads or writes. HBM ranges are offsets in the kernel's HBM space;
/// DM/TRF/VRF ranges are byte offsets within each slice of [sliceLo, sliceHi) (TRF offsets are
/// flat, lane segments included). All ranges half-open.
struct MemoryRange {
  bool dm = false;                  // any per-slice memory (DM, TRF or VRF)
  int64_t sliceLo = 0, sliceHi = 0; // per-slice memories only
  uint64_t lo = 0, hi = 0;          // [lo, hi)
  SliceMemory memory = SliceMemory::Dm; // which per-slice memory, when `dm`
};

struct TraceOp {
  int64_t id = 0;              // command index in the stream
  std::string name;            // "rngd.load" | "rngd.exec" | "rngd.wait" | "rngd.dma"
  std::string text;            // the command's line in the dump
  std::string context;         // "main" | "sub" | "tdma" | "queue"
  std::vector<std::string> engines;
  int64_t start = 0, end = 0;  // cycles
  std::vector<MemoryRange> reads, writes;
};

struct SimOptions {
  int64_t maxCycles = int64_t(1) << 40;        // a run past this is an error, not a hang
  int64_t maxWorkPerCommand = int64_t(1) << 32; // accesses, writes or packets of one command
  int64_t maxStreamBytesPerSlice = int64_t(1) << 30; // host memory guard for one pass
  bool recordTrace = true;
};

struct SimResult {
  int64_t makespan = 0;
  std::vector<TraceOp> ops;
};

/// A range of the kernel's HBM space (an argument's [hbmOffset, +bytes)) that refers to other
/// host memory: the device buffer the argument is bound to.
struct HbmBinding {
  uint64_t offset = 0, bytes = 0;
  uint8_t *data = nullptr;
};

/// The kernel's HBM space as the simulator sees it: `base` (bytes long, arguments at their
/// hbmOffset) except for the bound ranges, which go to their buffers. Addresses, footprints and
/// hazards stay in the kernel's own offsets; only the bytes come from elsewhere, as when a
/// device runtime relocates descriptor addresses into buffers at launch.
struct HbmSpace {
  uint8_t *base = nullptr;
  uint64_t bytes = 0;
  std::vector<HbmBinding> bound; // sorted by offset, disjoint, each inside [0, bytes)
};

/// Runs the command stream of a validated executable against `hbm` and `dm`.
Status simulate(const Executable &exe, const HbmSpace &hbm, DataMemory &dm,
                const SimOptions &options, SimResult &result,
                const TargetModel &target = defaultTarget());

/// The trace in the schedule JSON format (format "rngd-trace", version 1).
std::string traceJson(const Executable &exe, const SimResult &result,
                      const TargetModel &target = defaultTarget());

} // namespace rngd::sim
