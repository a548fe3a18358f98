#include "Choice.h"

namespace rngd::tcp::sched {

size_t chooseNext(llvm::ArrayRef<Candidate> candidates, int64_t dmaStartupCycles,
                  ChoiceRules rules) {
  size_t best = 0;
  for (size_t c = 1; c < candidates.size(); ++c) {
    const Candidate &x = candidates[c], &b = candidates[best];
    if (x.ready < b.ready || (x.ready == b.ready && x.path > b.path))
      best = c;
  }
  const int64_t window = candidates[best].ready + dmaStartupCycles;
  for (size_t c = 0; c < candidates.size(); ++c)
    if (candidates[c].ready <= window && candidates[c].isStream &&
        candidates[c].path > candidates[best].path)
      best = c;
  if (rules.criticalDmasFirst && candidates[best].isStream) {
    const Candidate stream = candidates[best];
    for (size_t c = 0; c < candidates.size(); ++c) {
      const Candidate &x = candidates[c];
      if (x.isDma && x.path > candidates[best].path &&
          x.ready <= stream.ready + stream.ownCycles)
        best = c;
    }
  }
  if (!candidates[best].isDma) {
    int64_t loadsEnd = candidates[best].ready + candidates[best].loadCycles;
    size_t longer = best;
    for (size_t c = 0; c < candidates.size(); ++c)
      if (!candidates[c].isDma && candidates[c].ready <= loadsEnd &&
          candidates[c].path > candidates[longer].path)
        longer = c;
    best = longer;
  }
  if (rules.shortStreamsFirst && candidates[best].isStream) {
    size_t first = best;
    const Candidate &f = candidates[first];
    for (size_t c = 0; c < candidates.size(); ++c) {
      const Candidate &x = candidates[c];
      if (x.isStream && x.ready <= f.ready && 4 * x.ownCycles <= f.ownCycles &&
          x.path + f.ownCycles > f.path && x.ownCycles < candidates[best].ownCycles)
        best = c;
    }
  }
  if (rules.unlockDmas && !candidates[best].isDma) {
    size_t first = best;
    for (size_t c = 0; c < candidates.size(); ++c) {
      const Candidate &x = candidates[c];
      if (!x.isDma && x.ready <= candidates[first].ready &&
          x.unlock <= candidates[first].ownCycles / 2 && x.unlock < candidates[best].unlock)
        best = c;
    }
  }
  return best;
}

} // namespace rngd::tcp::sched
