#include "rngd/machine/TargetModel.h"

#include <sstream>

namespace rngd {

std::string TargetModel::describe() const {
  std::ostringstream os;
  auto line = [&](const char *key, auto value) { os << key << " = " << value << "\n"; };
  line("name", name);
  line("clusters", clusters);
  line("slicesPerCluster", slicesPerCluster);
  line("slicesPerDmn", slicesPerDmn);
  line("lanesPerSlice", lanesPerSlice);
  line("dmnsPerCluster", dmnsPerCluster);
  line("dmaEngines", dmaEngines);
  line("dmBytesPerSlice", dmBytesPerSlice);
  line("dmBanks", dmBanks);
  line("dmBankBytes", dmBankBytes);
  line("dmSliceWindowBytes", dmSliceWindowBytes);
  line("trfBytesPerSlice", trfBytesPerSlice);
  line("vrfBytesPerSlice", vrfBytesPerSlice);
  line("dmAddressBase", dmAddressBase);
  line("hbmAddressBase", hbmAddressBase);
  line("hbmCapacityBytes", hbmCapacityBytes);
  line("hbmArgumentAlignment", hbmArgumentAlignment);
  line("dmAllocationAlignment", dmAllocationAlignment);
  line("trfAllocationAlignment", trfAllocationAlignment);
  line("vrfAllocationAlignment", vrfAllocationAlignment);
  line("flitBytes", flitBytes);
  line("maxSequencerEntries", maxSequencerEntries);
  line("maxSequencerEntrySize", maxSequencerEntrySize);
  line("maxFetchAccessBytes", maxFetchAccessBytes);
  line("subFetchAccessBytes", subFetchAccessBytes);
  line("fetchPacketAlignment", fetchPacketAlignment);
  line("commitStrideAlignment", commitStrideAlignment);
  line("dmaMaxPacketBytes", dmaMaxPacketBytes);
  line("dmaRequestBytes", dmaRequestBytes);
  line("dmaAlignment", dmaAlignment);
  line("dmaMaxLoops", dmaMaxLoops);
  line("sameBankAccessLimit", sameBankAccessLimit);
  line("coreClockMHz", static_cast<int64_t>(coreClockGHz * 1000));
  line("dmaStartupCycles", dmaStartupCycles);
  line("dmaEngineBytesPerCycle", dmaEngineBytesPerCycle);
  line("hbmBytesPerCycle", hbmBytesPerCycle);
  line("dmBytesPerCyclePerCluster", dmBytesPerCyclePerCluster);
  line("hbmToHbmRequestCycles", hbmToHbmRequestCycles);
  line("sameClusterDmToDmRequestCycles", sameClusterDmToDmRequestCycles);
  line("commandIssueCycles", commandIssueCycles);
  line("configWordCycles", configWordCycles);
  line("fetchCastLatency", fetchCastLatency);
  line("vectorAluLatency", vectorAluLatency);
  line("vectorWay8Elements", vectorWay8Elements);
  line("vectorWay4Elements", vectorWay4Elements);
  line("vectorReduceSlots", vectorReduceSlots);
  line("vectorImmediates", vectorImmediates);
  line("transposeValidElements", transposeValidElements);
  line("transposeColumnBytes", transposeColumnBytes);
  line("pipelineFillCycles", pipelineFillCycles);
  line("contractLaneFoldCycles", contractLaneFoldCycles);
  line("timeReducerCells", timeReducerCells);
  line("trfLanes", trfLanes);
  line("kernelLaunchCycles", kernelLaunchCycles);
  return os.str();
}

uint64_t TargetModel::hash() const {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : describe()) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

const TargetModel &defaultTarget() {
  static const TargetModel model;
  return model;
}

namespace {
TargetModel oneCluster() {
  TargetModel t;
  t.name = "rngd-1cluster";
  t.clusters = 1;
  t.dmaEngines = 4;
  t.coreClockGHz = 0.8;
  return t;
}
} // namespace

const TargetModel *findTarget(const std::string &name) {
  static const TargetModel second = oneCluster();
  for (const TargetModel *t : {&defaultTarget(), &second})
    if (t->name == name)
      return t;
  return nullptr;
}

std::string targetNames() { return defaultTarget().name + ", rngd-1cluster"; }

} // namespace rngd
