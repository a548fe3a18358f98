// Where each element of a kernel argument lives in its HBM buffer, read from the executable:
// the argument's mapping (as the generated stage wrote it) resolved with the sizes of its axes,
// which the host knows by name (T, H, Q, ...). The host packs and unpacks stage data through
// these layouts instead of repeating the generator's placement.
//
//   HbmLayout x = HbmLayout::of(arg, {{"T", 512}, {"H", 1024}});
//   buffer[x.at({t, h})] = value;   // indices in the order of the axes given
#pragma once

#include "rngd/Executable.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace rngd::qwen3 {

class HbmLayout {
public:
  /// The layout of `arg` with `axes` (name, size) in the order at() takes indices. Throws
  /// std::runtime_error naming the argument when its mapping does not resolve with them (an
  /// axis it uses is not given, a size does not divide) or uses an axis not in `axes`.
  static HbmLayout of(const ArgInfo &arg, const std::vector<std::pair<std::string, int64_t>> &axes);

  /// The axes of an argument whose mapping is whole axes in row-major order ("A" or
  /// "[A, B, C]"), with their sizes from the argument's shape: how the host learns the sizes
  /// of a table it fills by axis meaning (the prefill masks). Throws for any other mapping.
  static std::vector<std::pair<std::string, int64_t>> wholeAxes(const ArgInfo &arg);

  /// The element offset of a logical index (one value per axis, in of()'s order).
  size_t at(std::initializer_list<int64_t> index) const;
  /// Elements the buffer holds, padding included.
  size_t cells() const { return cells_; }

private:
  // A mapping is a sum of per-factor terms, each of one axis: offset = sum over axes of
  // contribution_[axis][value].
  std::vector<std::vector<size_t>> contribution_;
  size_t cells_ = 0;
};

} // namespace rngd::qwen3
