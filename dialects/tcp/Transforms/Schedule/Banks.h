// Configuration register banks: main has isa::kMainBanks (its passes take them in turn, so a
// pass loads its blocks while the one before it runs on the other), sub one. The banks remember
// every unit's register words, so a load writes only the words that differ.
#pragma once

#include "rngd/Isa.h"

#include <cstdint>
#include <vector>

namespace rngd::tcp::sched {

class RegisterBanks {
public:
  RegisterBanks();

  /// The bank (within its context) of the next pass on `context` (0 main, 1 sub).
  int64_t take(int64_t context);
  /// The index of a context's bank among all banks: main's first, then sub's.
  static int64_t slot(int64_t context, int64_t bank) {
    return context == 0 ? bank : static_cast<int64_t>(isa::kMainBanks);
  }
  static constexpr int64_t kSlots = isa::kMainBanks + 1;

  /// The last pass given bank `slot` (-1: none yet), and record `pass` as the new last.
  int64_t exchangeLast(int64_t slot, int64_t pass);
  /// Loads `words` into `unit`'s registers of bank `slot`; returns the words that changed
  /// (bit w = word w; every word when the bank held nothing for the unit).
  uint64_t load(int64_t slot, isa::Unit unit, const std::vector<uint64_t> &words);

private:
  int64_t nextMain_ = 0;
  std::vector<int64_t> last_;                            // per slot
  std::vector<std::vector<std::vector<uint64_t>>> held_; // per slot, per ISA unit id: words
};

/// The words of `next` that differ from `held` (all of them when nothing is held).
uint64_t changedWords(const std::vector<uint64_t> &held, const std::vector<uint64_t> &next);

} // namespace rngd::tcp::sched
