// What prefill_attention and prefill_decoder share: the contraction's time-broadcast rows, the
// header's line wrapping, and the token layouts of the HBM tensors that pass between the prefill
// stages as functions of the block size T (what the host, kernels/qwen3/host/Pipeline.cpp,
// indexes). Header-only: inline functions.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/Qwen3Stages.h"
#include "compiler/placement/StageBuilder.h"
#include "compiler/placement/qwen3/Common.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace rngd::placement::qwen3 {

/// Rows of the weights each TRF lane holds and each stream packet meets in turn (the
/// contractions' `pack`): a two-flit packet then keeps every MAC busy (docs/prefill.md, "The
/// GEMM").
inline constexpr int64_t kTimeBroadcastRows = 2;

/// `text` with every line longer than `width` broken at spaces, the continuation lines indented
/// as the line they continue (the header is printed as `// ` comment lines of 100 columns).
inline std::string wrapHeader(const std::string &text, size_t width = 96) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::string indent(
        line.find_first_not_of(' ') == std::string::npos ? 0 : line.find_first_not_of(' '), ' ');
    while (line.size() > width) {
      size_t cut = line.rfind(' ', width);
      if (cut == std::string::npos || cut <= indent.size())
        break;
      out += line.substr(0, cut) + "\n";
      line = indent + line.substr(cut + 1);
    }
    out += line;
    if (end == std::string::npos)
      break;
    out += "\n";
    start = end + 1;
  }
  return out;
}

inline std::string decimal(int64_t n) { return std::to_string(n); }

/// A token index written as digits over several axes, major first: {name, values}. T = 512 as
/// [TB, TT, TQ] = 8 x 4 x 16, say, with TQ the innermost.
using TokenAxes = std::vector<std::pair<std::string, int64_t>>;

/// The terms of `axes` that hold the token digits [lo, hi) (tokens lo..hi - 1 apart: blocks of
/// lo inside blocks of hi, both products of the inner axes' sizes or of their digits): what a
/// layout written over T as `T % hi / lo` is over those axes. Terms of one value are left out.
inline std::vector<Expr> tokenDigits(const TokenAxes &axes, int64_t lo, int64_t hi) {
  std::vector<Expr> terms;
  int64_t span = 1;
  for (const auto &axis : axes)
    span *= axis.second;
  for (const auto &[name, size] : axes) {
    span /= size; // tokens one step of this axis moves
    const int64_t from = std::max(lo, span), to = std::min(hi, span * size);
    if (from >= to || to / from <= 1)
      continue;
    Expr e = Expr::axis(name);
    if (to / span < size)
      e = e % (to / span);
    if (from / span > 1)
      e = e / (from / span);
    terms.push_back(e);
  }
  return terms;
}

/// The token blocks of the HBM tensors prefill_projection writes (its PrefillTerms.h,
/// prefillTokens; the host indexes them): `perCluster` = T / clusters, x's inner block `tile` =
/// min(64, perCluster), q_out's inner block `queryBlock` = min(2 x lanes, perCluster). x is
/// [T / tile, H / 16, T % tile, H % 16], q_out [T / perCluster, Q / D, T % perCluster /
/// queryBlock, D / 8, T % queryBlock, D % 8]. (One definition should serve both files.)
struct ProjectionTokens {
  int64_t perCluster, tile, queryBlock;
};
inline ProjectionTokens projectionTokens(int64_t T, const TargetModel &t) {
  ProjectionTokens p;
  p.perCluster = T / t.clusters;
  p.tile = std::min<int64_t>(64, p.perCluster);
  p.queryBlock = std::min<int64_t>(2 * t.trfLanes, p.perCluster);
  return p;
}

// Mapping helpers of prefill_decoder's types.

/// [E / n, E % n], or the whole of E as the packet when it has at most n values.
inline std::pair<Expr, Expr> timePacket(const Expr &e, int64_t size, int64_t n) {
  if (size <= n)
    return {Expr::one(), e};
  return {e / n, e % n};
}

/// `items` with `E / n` (E of `size` values) put at each null slot: E split in blocks of n,
/// where a single block leaves no outer digit (`E / n` would hold E twice beside `E % n`).
inline Expr withOuter(std::vector<std::optional<Expr>> items, const Expr &e, int64_t size,
                      int64_t n) {
  std::vector<Expr> out;
  for (std::optional<Expr> &item : items) {
    if (item)
      out.push_back(*item);
    else if (size > n)
      out.push_back(e / n);
  }
  return out.empty() ? Expr::one() : Expr::pair(out);
}

/// The pair of the items present (one alone as itself).
inline Expr pairOf(const std::vector<std::optional<Expr>> &items) {
  std::vector<Expr> out;
  for (const std::optional<Expr> &item : items)
    if (item)
      out.push_back(*item);
  return out.size() == 1 ? out[0] : Expr::pair(out);
}

/// `a % hi / lo` for an axis of `size`, without the parts that select nothing (`% hi` when hi
/// covers the axis, `/ lo` when lo is 1): the digit of blocks of lo inside blocks of hi.
inline Expr axisDigit(const Expr &a, int64_t size, int64_t hi, int64_t lo) {
  Expr e = hi < size ? a % hi : a;
  return lo > 1 ? e / lo : e;
}

/// prefill_decoder's x: its HBM layout over `tokens` (T itself, or the view axes of a part):
/// [T / tile, H / RS, T % tile, H % RS], its first digit split at the clusters as
/// prefill_projection writes it.
inline Expr decoderXLayout(const TokenAxes &tokens, const ProjectionTokens &pt, int64_t T,
                           int64_t rowsPerSlice) {
  std::vector<Expr> items = tokenDigits(tokens, pt.perCluster, T);
  for (const Expr &e : tokenDigits(tokens, pt.tile, pt.perCluster))
    items.push_back(e);
  items.push_back(Expr::axis("H") / rowsPerSlice);
  for (const Expr &e : tokenDigits(tokens, 1, pt.tile))
    items.push_back(e);
  items.push_back(Expr::axis("H") % rowsPerSlice);
  return Expr::pair(items);
}

} // namespace rngd::placement::qwen3
