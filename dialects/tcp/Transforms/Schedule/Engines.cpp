#include "Engines.h"
#include "dialects/tcp/Analysis/DmaParts.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

namespace rngd::tcp::sched {

int64_t pickEngine(const TargetModel &t, const QueueClock &clock, int64_t engine) {
  EngineGeometry g(t);
  if (engine != g.spareOf(engine))
    return engine;
  int64_t best = engine;
  for (int64_t e = g.base(engine); e < engine; ++e)
    if (clock.engineFree(e) < clock.engineFree(best))
      best = e;
  return best;
}

std::optional<llvm::SmallVector<int64_t>> idleSplitChunks(const TargetModel &t,
                                                          const QueueClock &clock,
                                                          llvm::ArrayRef<DmaPart> parts) {
  EngineGeometry g(t);
  llvm::SmallVector<int64_t> chunks;
  bool split = false;
  for (const DmaPart &part : parts) {
    int64_t base = g.base(part.engine), n = part.cutIterations;
    llvm::SmallVector<int64_t> idle;
    for (int64_t e = base; e < base + g.perCluster; ++e)
      if (clock.engineFree(e) <= clock.now())
        idle.push_back(e);
    if (n == 0)
      return std::nullopt; // a piece with no loop to cut: leave the DMA whole
    int64_t count = std::min<int64_t>(static_cast<int64_t>(idle.size()), n);
    if (count >= 2 && part.packets - part.packets / count > count) {
      split = true;
    } else { // whole, on the engine pickEngine would give it
      idle.assign(1, pickEngine(t, clock, part.engine));
      count = 1;
    }
    llvm::SmallVector<int64_t> sizes(g.perCluster, 0);
    for (int64_t c = 0; c < count; ++c)
      sizes[idle[c] - base] = (c + 1) * n / count - c * n / count;
    chunks.append(sizes.begin(), sizes.end());
  }
  if (!split)
    return std::nullopt;
  return chunks;
}

double streamedCycles(const StreamWindow &w, double end) {
  return std::max(0.0, std::min(end + w.after, w.cap) - w.ready);
}

double commonEnd(llvm::ArrayRef<StreamWindow> windows, int64_t n, double perIteration) {
  auto iterations = [&](double end) {
    double sum = 0;
    for (const StreamWindow &w : windows)
      sum += streamedCycles(w, end) / perIteration;
    return sum;
  };
  double minReady = windows.front().ready, maxReady = minReady, maxAfter = windows.front().after;
  for (const StreamWindow &w : windows) {
    minReady = std::min(minReady, w.ready);
    maxReady = std::max(maxReady, w.ready);
    maxAfter = std::max(maxAfter, w.after);
  }
  double lo = minReady - maxAfter;
  double hi = maxReady + n * perIteration;
  for (int k = 0; k < 100; ++k) {
    double mid = (lo + hi) / 2;
    (iterations(mid) < double(n) ? lo : hi) = mid;
  }
  return hi;
}

llvm::SmallVector<int64_t> wholeIterations(llvm::ArrayRef<StreamWindow> windows, double end,
                                           int64_t n, double perIteration) {
  llvm::SmallVector<int64_t> size;
  llvm::SmallVector<double> rest;
  int64_t given = 0;
  for (const StreamWindow &w : windows) {
    double share = streamedCycles(w, end) / perIteration;
    size.push_back(static_cast<int64_t>(std::floor(share)));
    rest.push_back(!w.usable() ? -1.0 : share - std::floor(share)); // -1: unusable
    given += size.back();
  }
  for (; given < n; ++given) {
    size_t best = 0;
    for (size_t i = 1; i < rest.size(); ++i)
      if (rest[i] > rest[best])
        best = i;
    ++size[best];
    rest[best] = -1;
  }
  for (; given > n; --given) // rounding never gives more, but stay exact
    for (int64_t &sz : llvm::reverse(size))
      if (sz > 0) {
        --sz;
        break;
      }
  return size;
}

} // namespace rngd::tcp::sched
