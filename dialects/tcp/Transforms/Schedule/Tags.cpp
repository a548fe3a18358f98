#include "Tags.h"

#include "llvm/ADT/STLExtras.h"

namespace rngd::tcp::sched {

int64_t TagPool::take() {
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

llvm::SmallVector<size_t> TagPool::toFree(size_t parts) const {
  llvm::SmallVector<size_t> out;
  size_t available = static_cast<size_t>(free());
  for (size_t i = 0; available < parts && i < inFlight_.size(); ++i) {
    out.push_back(inFlight_[i].first);
    available += inFlight_[i].second;
  }
  return out;
}

} // namespace rngd::tcp::sched
