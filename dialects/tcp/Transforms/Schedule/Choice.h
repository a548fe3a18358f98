// Which ready unit the list scheduler issues next.
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <limits>

namespace rngd::tcp::sched {

/// A unit whose predecessors are all issued.
struct Candidate {
  size_t unit;           // its index, in program order
  int64_t ready;         // when it could issue without stalling the queue (>= now)
  int64_t path;          // its longest path of dependent cycles to the kernel's end
  bool isDma = false;
  bool isStream = false; // a weight stream
  int64_t loadCycles = 0; // a pass: its configuration loads if every word loaded
  int64_t ownCycles = 0;  // its own cycles (a DMA: its longest part's)
  /// A pass: the fewest cycles of passes not yet issued, its own included, after which a DMA
  /// it leads to can issue (INT64_MAX: it leads to none); see ListScheduler::dmaUnlocks.
  int64_t unlock = std::numeric_limits<int64_t>::max();
};

/// The candidate to issue next (an index into `candidates`, which are in program order):
/// - the one ready first; ties: the longest path, then program order;
/// - but a weight stream ready within one DMA start-up of that goes first when its path is
///   longer (its command takes the queue a cycle per part, and every cycle it waits leaves HBM
///   idle at the end);
/// - the filler rule: a pass that would fill the queue while a pass with a longer path is not
///   ready yet waits for that one if it is ready before the filler's configuration loads would
///   end (those loads would only hold it up);
/// - with `shortStreamsFirst`, when that is a weight stream, a stream ready as soon whose own
///   cycles are at most a quarter of that one's goes first (the shortest such) if waiting for
///   it would make its path the longer (path + that one's cycles > that one's path): the two
///   share HBM either way, so the long one ends hardly later;
/// - with `unlockDmas`, when that is a pass, a pass ready as soon that leads, within at most
///   half that pass's cycles, to a DMA goes first (the one that unlocks soonest): the DMA then
///   runs beside the longer pass instead of after it;
/// - with `criticalDmasFirst`, when that is a weight stream, a DMA with a longer path ready
///   before the stream's own cycles have passed goes first (the longest such): the stream has
///   the slack, and on the engines first it would hold that DMA back for its whole length
///   (a fused stage's hand-off between its parts, behind the next part's weights).
struct ChoiceRules {
  bool shortStreamsFirst = false;
  bool unlockDmas = false;
  bool criticalDmasFirst = false;
};
size_t chooseNext(llvm::ArrayRef<Candidate> candidates, int64_t dmaStartupCycles,
                  ChoiceRules rules = {});

} // namespace rngd::tcp::sched
