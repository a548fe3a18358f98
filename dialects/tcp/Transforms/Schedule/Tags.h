// DMA tags: a DMA part carries one of the ISA's 64 tags from its issue until the queue waits for
// it. When too few tags are free for a DMA's parts, it first waits for the oldest DMAs in
// flight. The count is the one its parts finally have: the scheduler re-cuts some DMAs as they
// issue (ListScheduler::cutParts), and waits for more DMAs when a re-cut makes more parts.
#pragma once

#include "rngd/Isa.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace rngd::tcp::sched {

class TagPool {
public:
  explicit TagPool(int64_t tags = isa::kMaxTag + 1) : tags_(tags) {}

  /// A tag for a new DMA part: a retired one (oldest retired first), else the next never used.
  /// At least one must be free (free() > 0).
  int64_t take();
  /// Tag `tag`'s DMA part was waited for.
  void release(int64_t tag);
  /// Tags not held by a DMA part in flight.
  int64_t free() const { return tags_ - taken_; }

  /// DMA unit `unit` went in flight holding `parts` tags (taken with take()).
  void inFlight(size_t unit, size_t parts) { inFlight_.push_back({unit, parts}); }
  /// DMA unit `unit` was waited for (its tags released).
  void retired(size_t unit);
  /// The oldest DMA units in flight to wait for so that `parts` tags are free (none when
  /// enough are), besides the units in `waited` (waited for anyway: their tags count as free).
  /// All the units in flight when even that leaves fewer than `parts`.
  llvm::SmallVector<size_t> toFree(size_t parts, llvm::ArrayRef<size_t> waited = {}) const;

private:
  int64_t tags_;
  int64_t taken_ = 0;
  int64_t unused_ = 0;                   // the lowest tag never taken
  llvm::SmallVector<int64_t> released_;  // retired tags, reused oldest first
  llvm::SmallVector<std::pair<size_t, size_t>> inFlight_; // (unit, tags) in issue order
};

} // namespace rngd::tcp::sched
