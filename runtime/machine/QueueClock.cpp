// rngd::QueueClock (CostModel.h): the command queue's timing, with concurrent DMAs sharing
// memory bandwidth fairly. DMAs are advanced together as a flow: between two events (a DMA
// beginning to move bytes, a DMA finishing) every running DMA keeps the speed fairSpeeds()
// gives it.
#include "rngd/machine/CostModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rngd {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr double kDone = 1e-6; // full-speed cycles of work left that count as none

using Flow = QueueClock::Flow;

/// DMA `i` starts once its engine is free at `after`; one that shares no memory ends then.
void begin(Flow &f, size_t i, int64_t after) {
  for (int64_t at = after; i != size_t(-1);) {
    QueueClock::Transfer &d = f.dmas[i];
    d.start = std::max(d.issued, at);
    bool shares = std::any_of(d.rates.begin(), d.rates.end(), [](double r) { return r > 0; });
    if (d.work > 0 && shares)
      return;
    d.end = d.start + d.cycles;
    at = d.end;
    i = d.next < 0 ? size_t(-1) : static_cast<size_t>(d.next);
  }
}

/// Runs the flow until DMA `until` has ended (every DMA when `until` is -1).
void advance(Flow &f, int64_t until, int64_t startup, const MemoryRates &capacity) {
  std::vector<size_t> running;
  std::vector<MemoryRates> demands;
  while (until < 0 || f.dmas[static_cast<size_t>(until)].end < 0) {
    f.open.erase(std::remove_if(f.open.begin(), f.open.end(),
                                [&](size_t i) { return f.dmas[i].end >= 0; }),
                 f.open.end());
    running.clear();
    demands.clear();
    double next = kNever;
    for (size_t i : f.open) {
      const QueueClock::Transfer &d = f.dmas[i];
      if (d.start < 0)
        continue;
      double dataStart = static_cast<double>(d.start + startup);
      if (dataStart > f.at) {
        next = std::min(next, dataStart);
        continue;
      }
      running.push_back(i);
      demands.push_back(d.rates);
    }
    std::vector<double> speed = fairSpeeds(demands, capacity);
    for (size_t k = 0; k < running.size(); ++k)
      next = std::min(next, f.at + f.dmas[running[k]].work / speed[k]);
    if (next == kNever)
      return; // nothing in flight
    double dt = next - f.at;
    f.at = next;
    for (size_t k = 0; k < running.size(); ++k) {
      QueueClock::Transfer &d = f.dmas[running[k]];
      d.work -= dt * speed[k];
      if (d.work > kDone)
        continue;
      d.work = 0;
      d.end = std::max(d.start + d.cycles, static_cast<int64_t>(std::ceil(next - 1e-6)));
      if (d.next >= 0)
        begin(f, static_cast<size_t>(d.next), d.end);
    }
  }
}

} // namespace

QueueClock::QueueClock(const TargetModel &t)
    : t_(t), lastOnEngine_(static_cast<size_t>(t.dmaEngines), -1) {}

QueueClock::DmaId QueueClock::dma(int64_t engine, int64_t cycles, const DmaTraffic &traffic) {
  DmaId id = flow_.dmas.size();
  Transfer d;
  d.engine = engine;
  d.cycles = cycles;
  d.issued = queue_;
  d.rates.assign(sharedMemories(t_.clusters), 0.0);
  int64_t dataCycles = cycles - t_.dmaStartupCycles;
  if (dataCycles > 0) {
    d.work = static_cast<double>(dataCycles);
    auto rate = [&](int64_t bytes) {
      return static_cast<double>(bytes) / static_cast<double>(dataCycles);
    };
    d.rates[kHbm] = rate(traffic.hbmBytes);
    for (int64_t c = 0; c < t_.clusters; ++c)
      d.rates[dmIntake(c)] = rate(traffic.dmWriteBytes[static_cast<size_t>(c)]);
  }
  flow_.dmas.push_back(d);
  flow_.open.push_back(id);
  // Engines come checked against the target (checkDescriptor, the schedule's verifier); one
  // past its count still gets a queue of its own rather than another engine's.
  size_t e = static_cast<size_t>(std::max<int64_t>(engine, 0));
  if (e >= lastOnEngine_.size())
    lastOnEngine_.resize(e + 1, -1);
  int64_t &last = lastOnEngine_[e];
  if (last < 0)
    begin(flow_, id, 0);
  else if (flow_.dmas[static_cast<size_t>(last)].end >= 0)
    begin(flow_, id, flow_.dmas[static_cast<size_t>(last)].end);
  else
    flow_.dmas[static_cast<size_t>(last)].next = static_cast<int64_t>(id);
  last = static_cast<int64_t>(id);
  queue_ += t_.commandIssueCycles;
  makespan_ = std::max(makespan_, queue_);
  projectedValid_ = false;
  return id;
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

void QueueClock::load(uint64_t wordMask) {
  queue_ += configLoadCycles(t_, wordMask);
  makespan_ = std::max(makespan_, queue_);
}

void QueueClock::wait(int64_t until) {
  queue_ = std::max(queue_ + t_.commandIssueCycles, until);
  makespan_ = std::max(makespan_, queue_);
}

static MemoryRates capacities(const TargetModel &t) {
  MemoryRates capacity(sharedMemories(t.clusters),
                       static_cast<double>(t.dmBytesPerCyclePerCluster));
  capacity[kHbm] = static_cast<double>(t.hbmBytesPerCycle);
  return capacity;
}

void QueueClock::waitDma(DmaId id) {
  advance(flow_, static_cast<int64_t>(id), t_.dmaStartupCycles, capacities(t_));
  const Transfer &d = flow_.dmas[id];
  makespan_ = std::max(makespan_, d.end);
  wait(d.end);
}

void QueueClock::finish() {
  advance(flow_, -1, t_.dmaStartupCycles, capacities(t_));
  for (const Transfer &d : flow_.dmas)
    makespan_ = std::max(makespan_, d.end);
}

QueueClock::Interval QueueClock::dmaSpan(DmaId id) const {
  const Transfer *d = &flow_.dmas[id];
  if (d->end < 0) {
    if (!projectedValid_) {
      projected_ = flow_;
      advance(projected_, -1, t_.dmaStartupCycles, capacities(t_));
      projectedValid_ = true;
    }
    d = &projected_.dmas[id];
  }
  return {d->start, d->end};
}

int64_t QueueClock::engineFree(int64_t engine) const {
  if (engine < 0 || static_cast<size_t>(engine) >= lastOnEngine_.size())
    return 0;
  int64_t last = lastOnEngine_[static_cast<size_t>(engine)];
  return last < 0 ? 0 : dmaSpan(static_cast<size_t>(last)).end;
}

} // namespace rngd
