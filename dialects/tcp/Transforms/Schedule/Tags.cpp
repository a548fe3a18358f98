#include "Tags.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

namespace rngd::tcp::sched {

int64_t TagPool::take() {
  assert(taken_ < tags_ && "no DMA tag free: the DMA should have waited (toFree)");
  ++taken_;
  if (!released_.empty()) {
    int64_t tag = released_.front();
    released_.erase(released_.begin());
    return tag;
  }
  return unused_++;
}

void TagPool::release(int64_t tag) {
  released_.push_back(tag);
  --taken_;
}

void TagPool::retired(size_t unit) {
  llvm::erase_if(inFlight_, [&](const auto &f) { return f.first == unit; });
}

llvm::SmallVector<size_t> TagPool::toFree(size_t parts, llvm::ArrayRef<size_t> waited) const {
  // Signed: never more tags taken than there are (take), but a count that went negative must
  // not read as plenty.
  int64_t available = free();
  for (const auto &[unit, tags] : inFlight_)
    if (llvm::is_contained(waited, unit))
      available += static_cast<int64_t>(tags);
  llvm::SmallVector<size_t> out;
  for (size_t i = 0; available < static_cast<int64_t>(parts) && i < inFlight_.size(); ++i) {
    if (llvm::is_contained(waited, inFlight_[i].first))
      continue;
    out.push_back(inFlight_[i].first);
    available += static_cast<int64_t>(inFlight_[i].second);
  }
  return out;
}

} // namespace rngd::tcp::sched
