// The fetch/commit sequencer loop nest: 8 (limit, stride) entries, entry 0 outermost, one DM
// access per innermost iteration at base + sum(i_k * stride_k).
#pragma once

#include "rngd/Isa.h"

#include <array>
#include <cstdint>
#include <string>

namespace rngd::sim {

using LoopArray = std::array<int64_t, isa::kSequencerLoops>;

/// The product of `limits` (iterations of a loop nest), or cap + 1 once it passes `cap`
/// (cap >= 0). Checked multiplication: 65536^8 neither overflows nor wraps. A limit <= 0 makes
/// an empty nest (0).
template <typename Limits> int64_t cappedProduct(const Limits &limits, int64_t cap) {
  int64_t n = 1;
  bool over = false;
  for (auto limit : limits) {
    int64_t l = static_cast<int64_t>(limit);
    if (l <= 0)
      return 0;
    if (!over && (__builtin_mul_overflow(n, l, &n) || n > cap))
      over = true; // keep looking for an empty loop
  }
  return over ? cap + 1 : n;
}

/// Number of accesses of a fetch or commit nest, cap + 1 when it passes `cap`.
inline int64_t nestCount(const LoopArray &limits, int64_t cap) {
  return cappedProduct(limits, cap);
}

/// The nest's trip counts as a product for messages, "65536 x 65536 x 4" (loops of limit 1
/// left out; "1" when all are).
template <typename Limits> std::string nestProduct(const Limits &limits) {
  std::string s;
  for (auto limit : limits)
    if (static_cast<int64_t>(limit) != 1)
      s += (s.empty() ? "" : " x ") + std::to_string(limit);
  return s.empty() ? "1" : s;
}

/// The message of a nest past the work cap: "<what> makes <product> <units>, over the
/// simulator's per-command cap of <cap> (SimOptions::maxWorkPerCommand)". A Tensor Unit pass
/// shares the cap among the `slices` it runs on, each step of it costing `perStep` operations
/// (a contraction step is lanes x packet elements MACs): the message then gives that share.
template <typename Limits>
std::string overWorkCap(const std::string &what, const Limits &limits, const char *units,
                        int64_t cap, int64_t slices = 1, int64_t perStep = 1) {
  std::string share;
  if (slices > 1 || perStep > 1)
    share = ", shared by " + std::to_string(slices) + " slices" +
            (perStep > 1 ? " at " + std::to_string(perStep) + " operations each" : "") +
            ": at most " + std::to_string(cap / slices / perStep) + " per slice";
  return what + " makes " + nestProduct(limits) + " " + units +
         ", over the simulator's per-command cap of " + std::to_string(cap) +
         " (SimOptions::maxWorkPerCommand" + share + ")";
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
