// The one C++ description of the RNGD machine that rngdc, the runtime and the simulator use.
// Every hardware number in the project lives here; docs/hardware.md gives each one's source,
// docs/machine-model.md explains each choice.
// Plain C++ (no MLIR), so the runtime and the simulator link it too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rngd {

struct TargetModel {
  std::string name = "rngd-1chip";

  // Geometry (docs/hardware.md section 1).
  int64_t clusters = 2;
  int64_t slicesPerCluster = 256;
  int64_t slicesPerDmn = 32;
  int64_t lanesPerSlice = 8;
  int64_t dmnsPerCluster = 8;
  int64_t dmaEngines = 8;

  // Capacities and address windows.
  int64_t dmBytesPerSlice = 512 * 1024;
  int64_t dmBanks = 16;
  int64_t dmBankBytes = 8;          // byte address bits [2:0]
  int64_t dmSliceWindowBytes = 4 << 20; // DM virtual window per slice (slice_stride)
  int64_t trfBytesPerSlice = 64 * 1024;
  int64_t vrfBytesPerSlice = 8 * 1024;
  uint64_t dmAddressBase = 0x10000000ull;   // SRAM_BASE in descriptors
  uint64_t hbmAddressBase = 0xC000000000ull; // DRAM_BASE in descriptors
  uint64_t hbmCapacityBytes = 48ull << 30;   // 48 GB per chip
  int64_t hbmArgumentAlignment = 256;        // HBM transfer unit
  int64_t dmAllocationAlignment = 128;       // one row across all 16 banks
  int64_t trfAllocationAlignment = 64;       // a wide read covers both banks (64 B)
  int64_t vrfAllocationAlignment = 32;       // one VRF row

  // Transfer granules and sequencer limits (docs/hardware.md sections 1.5, 2.2, 2.3, 3.3, 5.3).
  int64_t flitBytes = 32;
  int64_t maxSequencerEntries = 8;
  int64_t maxSequencerEntrySize = 65536;
  int64_t maxFetchAccessBytes = 32;  // main context
  int64_t subFetchAccessBytes = 8;   // sub context
  int64_t fetchPacketAlignment = 8;
  int64_t commitStrideAlignment = 8;
  int64_t dmaMaxPacketBytes = 4096;
  int64_t dmaRequestBytes = 256;     // one AXI request
  int64_t dmaAlignment = 8;          // HBM<->DM addresses and packet size
  int64_t dmaMaxLoops = 8;           // loop dims per descriptor side
  int64_t dmaMaxLoopIterations = 65536; // iterations of one descriptor loop (limits 1..65536)
  int64_t sameBankAccessLimit = 64;  // < 64 consecutive same-bank accesses

  // Rates and latencies at the core clock (docs/hardware.md sections 2, 9).
  double coreClockGHz = 1.0;
  int64_t dmaStartupCycles = 500;
  int64_t dmaEngineBytesPerCycle = 256;
  int64_t hbmBytesPerCycle = 1500;          // 1.5 TB/s at 1 GHz
  int64_t dmBytesPerCyclePerCluster = 1024; // 8 DMNs x 128 B
  int64_t hbmToHbmRequestCycles = 2;        // read and write share HBM
  int64_t sameClusterDmToDmRequestCycles = 2; // read then write phase
  int64_t commandIssueCycles = 1;           // one queue word
  int64_t configWordCycles = 1;             // one 64-bit register word written
  int64_t fetchCastLatency = 2;
  int64_t vectorAluLatency = 1;
  int64_t vectorWay8Elements = 8;           // Logic/Fxp/Clip
  int64_t vectorWay4Elements = 4;           // Float/Reduce/Div
  int64_t vectorReduceSlots = 8;            // intra-slice reduce: InnerTime <= 8
  int64_t vectorImmediates = 3;             // immediates per Vector Engine invocation
  int64_t transposeValidElements = 8;       // valid_size of 8/16/32-bit input flits
  int64_t transposeColumnBytes = 8;         // in_rows x element bytes (8 x i8, 4 x bf16, 2 x f32)
  int64_t pipelineFillCycles = 4;           // fetch -> commit minimum latency of a pass
  int64_t contractLaneFoldCycles = 1;       // lane folder after the time reducer
  int64_t timeReducerCells = 128;           // accumulator: slots x packet elements (interleaved)
  int64_t trfLanes = 8;                     // TRF lane segments per slice
  int64_t kernelLaunchCycles = 2000;        // host launch overhead per kernel
  int64_t pcieBytesPerCycle = 30;           // PCIe DMA, each way: the chip-to-chip path

  /// Calls `visit(name, field)` for every field above, in declaration order: the one list
  /// that describe() prints and hash() covers. The "TargetModel fields" unit test checks that
  /// it reaches every byte of the struct, so a field added above and not here fails it.
  template <typename Self, typename Visit> static void forEachField(Self &self, Visit &&visit);

  /// Stable 64-bit hash of every field (FNV-1a over describe()).
  uint64_t hash() const;
  /// Canonical "name = value" lines of every field, used for the hash and
  /// `rngd-run --print-target`.
  std::string describe() const;

  int64_t totalSlices() const { return clusters * slicesPerCluster; }
  /// bf16 multiply-accumulates per cycle at peak (docs/hardware.md section 2.3): every TRF lane of
  /// every slice against a packet of two flits (64 bytes, 32 bf16) each cycle.
  int64_t bf16MacsPerCycle() const { return totalSlices() * trfLanes * (2 * flitBytes / 2); }
};

template <typename Self, typename Visit>
void TargetModel::forEachField(Self &self, Visit &&visit) {
  visit("name", self.name);
  visit("clusters", self.clusters);
  visit("slicesPerCluster", self.slicesPerCluster);
  visit("slicesPerDmn", self.slicesPerDmn);
  visit("lanesPerSlice", self.lanesPerSlice);
  visit("dmnsPerCluster", self.dmnsPerCluster);
  visit("dmaEngines", self.dmaEngines);
  visit("dmBytesPerSlice", self.dmBytesPerSlice);
  visit("dmBanks", self.dmBanks);
  visit("dmBankBytes", self.dmBankBytes);
  visit("dmSliceWindowBytes", self.dmSliceWindowBytes);
  visit("trfBytesPerSlice", self.trfBytesPerSlice);
  visit("vrfBytesPerSlice", self.vrfBytesPerSlice);
  visit("dmAddressBase", self.dmAddressBase);
  visit("hbmAddressBase", self.hbmAddressBase);
  visit("hbmCapacityBytes", self.hbmCapacityBytes);
  visit("hbmArgumentAlignment", self.hbmArgumentAlignment);
  visit("dmAllocationAlignment", self.dmAllocationAlignment);
  visit("trfAllocationAlignment", self.trfAllocationAlignment);
  visit("vrfAllocationAlignment", self.vrfAllocationAlignment);
  visit("flitBytes", self.flitBytes);
  visit("maxSequencerEntries", self.maxSequencerEntries);
  visit("maxSequencerEntrySize", self.maxSequencerEntrySize);
  visit("maxFetchAccessBytes", self.maxFetchAccessBytes);
  visit("subFetchAccessBytes", self.subFetchAccessBytes);
  visit("fetchPacketAlignment", self.fetchPacketAlignment);
  visit("commitStrideAlignment", self.commitStrideAlignment);
  visit("dmaMaxPacketBytes", self.dmaMaxPacketBytes);
  visit("dmaRequestBytes", self.dmaRequestBytes);
  visit("dmaAlignment", self.dmaAlignment);
  visit("dmaMaxLoops", self.dmaMaxLoops);
  visit("dmaMaxLoopIterations", self.dmaMaxLoopIterations);
  visit("sameBankAccessLimit", self.sameBankAccessLimit);
  visit("coreClockGHz", self.coreClockGHz);
  visit("dmaStartupCycles", self.dmaStartupCycles);
  visit("dmaEngineBytesPerCycle", self.dmaEngineBytesPerCycle);
  visit("hbmBytesPerCycle", self.hbmBytesPerCycle);
  visit("dmBytesPerCyclePerCluster", self.dmBytesPerCyclePerCluster);
  visit("hbmToHbmRequestCycles", self.hbmToHbmRequestCycles);
  visit("sameClusterDmToDmRequestCycles", self.sameClusterDmToDmRequestCycles);
  visit("commandIssueCycles", self.commandIssueCycles);
  visit("configWordCycles", self.configWordCycles);
  visit("fetchCastLatency", self.fetchCastLatency);
  visit("vectorAluLatency", self.vectorAluLatency);
  visit("vectorWay8Elements", self.vectorWay8Elements);
  visit("vectorWay4Elements", self.vectorWay4Elements);
  visit("vectorReduceSlots", self.vectorReduceSlots);
  visit("vectorImmediates", self.vectorImmediates);
  visit("transposeValidElements", self.transposeValidElements);
  visit("transposeColumnBytes", self.transposeColumnBytes);
  visit("pipelineFillCycles", self.pipelineFillCycles);
  visit("contractLaneFoldCycles", self.contractLaneFoldCycles);
  visit("timeReducerCells", self.timeReducerCells);
  visit("trfLanes", self.trfLanes);
  visit("kernelLaunchCycles", self.kernelLaunchCycles);
  visit("pcieBytesPerCycle", self.pcieBytesPerCycle);
}

/// The default instance, "rngd-1chip".
const TargetModel &defaultTarget();

/// The targets rngdc compiles for and the runtime runs, by name: "rngd-1chip" (the default)
/// and "rngd-1cluster" (one cluster, four DMA engines, 800 MHz: a second machine that shows
/// every consumer follows the target it is given). nullptr for an unknown name.
const TargetModel *findTarget(const std::string &name);
/// Their names, the default first, comma separated ("rngd-1chip, rngd-1cluster"): what an
/// error about an unknown target lists.
std::string targetNames();

} // namespace rngd
