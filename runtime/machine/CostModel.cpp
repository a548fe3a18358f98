#include "rngd/machine/CostModel.h"

#include <algorithm>

namespace rngd {

int64_t dmaCycles(const TargetModel &t, DmaRoute route, int64_t packetBytes, int64_t packets) {
  int64_t requestsPerPacket = (packetBytes + t.dmaRequestBytes - 1) / t.dmaRequestBytes;
  int64_t requests = requestsPerPacket * packets;
  int64_t perRequest = 1;
  if (route == DmaRoute::HbmToHbm)
    perRequest = t.hbmToHbmRequestCycles;
  else if (route == DmaRoute::DmToDmSameCluster)
    perRequest = t.sameClusterDmToDmRequestCycles;
  return t.dmaStartupCycles + requests * perRequest;
}

static int64_t log2Ceil(int64_t v) {
  int64_t l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

int64_t tensorPassCycles(const TargetModel &t, const TensorPassShape &s) {
  int64_t vectorCycles = 0;
  if (s.vectorFloatAlus > 0)
    vectorCycles = s.vectorFlits * (t.vectorWay8Elements / t.vectorWay4Elements);
  else if (s.vectorIntAlus > 0)
    vectorCycles = s.vectorFlits;
  int64_t slowest = std::max({s.fetchAccesses, s.switchCycles, s.flits, s.contractIterations,
                              vectorCycles, s.castFlits, s.transposeCycles, s.commitWrites,
                              s.registerWrites});
  int64_t latency = t.pipelineFillCycles + (s.fetchCast ? t.fetchCastLatency : 0) +
                    (s.vectorFloatAlus + s.vectorIntAlus) * t.vectorAluLatency +
                    s.interReduceSlices;
  if (s.contractIterations > 0)
    latency += log2Ceil(s.contractPacketElems) + s.contractSlots + t.contractLaneFoldCycles;
  return slowest + latency;
}

int64_t fetchCycles(int64_t timeSize, int64_t packetBytes, int64_t readBytes) {
  return timeSize * ((packetBytes + readBytes - 1) / readBytes);
}

int64_t switchCycles(int64_t ringSize, int64_t timeSize, int64_t flitsPerPacket) {
  return ringSize * timeSize * flitsPerPacket;
}

int64_t transposeCycles(int64_t inRows, int64_t inCols, int64_t outRows, int64_t validSize,
                        int64_t matrices) {
  int64_t inFlits = inRows * inCols / validSize;
  if (inCols <= 16) // double buffer: load the next matrix while emitting this one
    return inFlits + (matrices - 1) * std::max(inFlits, outRows) + outRows;
  return matrices * (inFlits + outRows);
}

int64_t sameBankRun(const TargetModel &t,
                    const std::vector<std::pair<int64_t, int64_t>> &loops) {
  const int64_t row = t.dmBanks * t.dmBankBytes;
  int64_t run = 1;
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    if (it->first == 1)
      continue;
    if (it->second % row != 0)
      break;
    run *= it->first;
  }
  return run;
}

int64_t configLoadCycles(const TargetModel &t, uint64_t wordMask) {
  int64_t words = __builtin_popcountll(wordMask);
  int64_t runs = __builtin_popcountll(wordMask & ~(wordMask << 1)); // each run's first word
  return runs * t.commandIssueCycles + words * t.configWordCycles;
}

} // namespace rngd
