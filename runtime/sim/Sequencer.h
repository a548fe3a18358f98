// The fetch/commit sequencer loop nest: 8 (limit, stride) entries, entry 0 outermost, one DM
// access per innermost iteration at base + sum(i_k * stride_k).
#pragma once

#include "rngd/Isa.h"

#include <array>
#include <cstdint>

namespace rngd::sim {

using LoopArray = std::array<int64_t, isa::kSequencerLoops>;

/// Number of accesses, saturating at cap + 1 so that 65536^8 cannot overflow.
inline int64_t nestCount(const LoopArray &limits, int64_t cap) {
  int64_t n = 1;
  for (int64_t l : limits) {
    if (l <= 0 || n > cap / l)
      return l <= 0 ? 0 : cap + 1;
    n *= l;
  }
  return n;
}

/// Calls visit(offset) for every access in order. Loops of limit 1 are skipped and the
/// innermost remaining loop is a plain counted loop, because this runs once per access.
template <typename Visit>
bool walkNest(int64_t base, const LoopArray &limits, const LoopArray &strides, Visit &&visit) {
  int64_t lim[isa::kSequencerLoops], str[isa::kSequencerLoops];
  int n = 0;
  for (int k = 0; k < isa::kSequencerLoops; ++k)
    if (limits[k] > 1) {
      lim[n] = limits[k];
      str[n] = strides[k];
      ++n;
    }
  if (n == 0)
    return visit(base);
  int64_t idx[isa::kSequencerLoops] = {};
  int64_t outer = base;
  for (;;) {
    int64_t a = outer;
    for (int64_t i = 0; i < lim[n - 1]; ++i, a += str[n - 1])
      if (!visit(a))
        return false;
    int k = n - 2;
    for (; k >= 0; --k) {
      outer += str[k];
      if (++idx[k] < lim[k])
        break;
      outer -= str[k] * lim[k];
      idx[k] = 0;
    }
    if (k < 0)
      return true;
  }
}

} // namespace rngd::sim
