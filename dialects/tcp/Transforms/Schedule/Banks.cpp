#include "Banks.h"

#include <algorithm>
#include <utility>

namespace rngd::tcp::sched {

namespace {
/// One more than the largest configuration unit id of the ISA.
size_t unitIds() {
  size_t n = 0;
  for (const isa::UnitSpec &spec : isa::unitSpecs())
    n = std::max(n, static_cast<size_t>(spec.unit) + 1);
  return n;
}
} // namespace

RegisterBanks::RegisterBanks()
    : last_(kSlots, -1), held_(kSlots, std::vector<std::vector<uint64_t>>(unitIds())) {}

int64_t RegisterBanks::take(int64_t context) {
  if (context != 0)
    return 0;
  int64_t bank = nextMain_;
  nextMain_ = (nextMain_ + 1) % isa::kMainBanks;
  return bank;
}

int64_t RegisterBanks::exchangeLast(int64_t slot, int64_t pass) {
  return std::exchange(last_[static_cast<size_t>(slot)], pass);
}

uint64_t RegisterBanks::load(int64_t slot, isa::Unit unit, const std::vector<uint64_t> &words) {
  std::vector<uint64_t> &held = held_[static_cast<size_t>(slot)][static_cast<size_t>(unit)];
  uint64_t mask = changedWords(held, words);
  held = words;
  return mask;
}

uint64_t changedWords(const std::vector<uint64_t> &held, const std::vector<uint64_t> &next) {
  uint64_t mask = 0;
  for (size_t w = 0; w < next.size(); ++w)
    if (held.size() != next.size() || held[w] != next[w])
      mask |= uint64_t(1) << w;
  return mask;
}

} // namespace rngd::tcp::sched
