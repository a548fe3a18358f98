#include "CostModel.h"

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

int64_t tensorPassCycles(const TargetModel &t, const TensorPassShape &s) {
  int64_t vectorCycles = 0;
  if (s.vectorFloatAlus > 0)
    vectorCycles = s.flits * (t.vectorWay8Elements / t.vectorWay4Elements);
  else if (s.vectorIntAlus > 0)
    vectorCycles = s.flits;
  int64_t castCycles = s.cast ? s.flits : 0;
  int64_t slowest =
      std::max({s.fetchAccesses, s.flits, vectorCycles, castCycles, s.commitWrites});
  int64_t latency = t.pipelineFillCycles + (s.fetchCast ? t.fetchCastLatency : 0) +
                    (s.vectorFloatAlus + s.vectorIntAlus) * t.vectorAluLatency;
  return slowest + latency;
}

int64_t configLoadCycles(const TargetModel &t, int64_t words) {
  return t.commandIssueCycles + words * t.configWordCycles;
}

QueueClock::QueueClock(const TargetModel &t) : t_(t) {}

QueueClock::Interval QueueClock::dma(int64_t engine, int64_t cycles) {
  int64_t &free = engineFree_[engine & 15];
  Interval span{std::max(queue_, free), 0};
  span.end = span.start + cycles;
  free = span.end;
  queue_ += t_.commandIssueCycles;
  makespan_ = std::max({makespan_, span.end, queue_});
  return span;
}

QueueClock::Interval QueueClock::exec(int64_t context, int64_t cycles) {
  int64_t &free = contextFree_[context & 1];
  Interval span{std::max(queue_, free), 0};
  span.end = span.start + cycles;
  free = span.end;
  queue_ += t_.commandIssueCycles;
  makespan_ = std::max({makespan_, span.end, queue_});
  return span;
}

void QueueClock::load(int64_t words) {
  queue_ += configLoadCycles(t_, words);
  makespan_ = std::max(makespan_, queue_);
}

void QueueClock::wait(int64_t until) {
  queue_ = std::max(queue_ + t_.commandIssueCycles, until);
  makespan_ = std::max(makespan_, queue_);
}

} // namespace rngd
