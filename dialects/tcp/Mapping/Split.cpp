#include "dialects/tcp/Mapping/Split.h"

namespace rngd::mapping {

namespace {

/// `A / div % count` of an axis of `size`, spelt without the parts that do nothing.
Expr digits(const std::string &axis, int64_t size, int64_t div, int64_t count) {
  Expr e = Expr::axis(axis);
  if (div > 1)
    e = e / div;
  if (div * count < size)
    e = e % count;
  return e;
}

/// A factor that is not split, as it was written: its axis (padded), block, count, padding
/// and view.
Expr same(const Factor &f) {
  if (f.isConstant())
    return f.cells > 1 ? Expr::one().pad(f.cells) : Expr::one();
  Expr e = Expr::axis(f.axis);
  if (f.axisPad > 0)
    e = e.pad(f.axisPad);
  if (f.div > 1)
    e = e / f.div;
  if (!f.isTop())
    e = e % f.count;
  if (f.view > 0)
    e = e.view(f.view);
  if (f.cells > f.visible())
    e = e.pad(f.cells);
  return e;
}

} // namespace

std::optional<Expr> splitAxes(const Mapping &m, const AxisSplits &splits) {
  std::vector<Expr> out;
  for (const Factor &f : m.factors()) {
    auto split = splits.find(f.axis);
    if (split == splits.end()) {
      out.push_back(same(f));
      continue;
    }
    if (f.axisPad > 0 || f.view > 0 || f.cells != f.count)
      return std::nullopt;
    // The factor's digits are the axis values' range [div, div x count) of strides; each
    // part covers [stride, stride x size).
    const int64_t lo = f.div, hi = f.div * f.count;
    int64_t covered = 1; // the parts' product
    for (const auto &part : split->second)
      covered *= part.second;
    int64_t stride = covered;
    bool any = false;
    for (const auto &[name, size] : split->second) {
      stride /= size;
      const int64_t from = std::max(lo, stride), to = std::min(hi, stride * size);
      if (from >= to)
        continue;
      if (from % stride != 0 || to % from != 0)
        return std::nullopt;
      out.push_back(digits(name, size, from / stride, to / from));
      any = true;
    }
    // Digits below the parts' boundaries, or beyond the axis: not expressible.
    if (!any || hi > covered)
      return std::nullopt;
  }
  return Expr::pair(out);
}

} // namespace rngd::mapping
