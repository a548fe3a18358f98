// An axis spelt as the digits of several: a mapping over T rewritten over [TB, TT, TQ] when
// T = TB x TT x TQ (TB major), so that a tensor placed by one stage's axes can be named by
// another's (a fused stage's hand-off between its parts).
#pragma once

#include "dialects/tcp/Mapping/Build.h"
#include "dialects/tcp/Mapping/Mapping.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rngd::mapping {

/// Each split axis's parts, major first, with their sizes (their product the axis's size).
using AxisSplits = std::map<std::string, std::vector<std::pair<std::string, int64_t>>>;

/// `m` with every factor of a split axis replaced by the parts' digits it covers (major
/// first); the other factors as they are. None when a factor of a split axis is padded or
/// viewed, or its digits do not begin and end on the parts' boundaries (`T / 8` over
/// [TB = 8, TQ = 16]).
std::optional<Expr> splitAxes(const Mapping &m, const AxisSplits &splits);

} // namespace rngd::mapping
