// What prefill_projection and prefill_attention_first share: mapping terms that drop themselves
// where a block of T tokens leaves a factor of the 512-token placement one value, the header's
// text helpers, and the token blocks both stages' HBM layouts are written in (functions of T that
// the host, kernels/qwen3/host, indexes). Header-only: inline functions.
#pragma once

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/StageBuilder.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rngd::placement::qwen3 {

// ---- Mapping terms.

/// One term of a mapping, or nothing when it would hold a single cell.
using Term = std::optional<Expr>;

/// The digit block [lo, hi) of an axis of `size` values (lo divides hi): `A`, `A / lo`,
/// `A % hi` or `A % hi / lo`; nothing if it has one value.
inline Term digits(const std::string &axis, int64_t size, int64_t lo, int64_t hi) {
  hi = std::min(hi, size);
  if (hi <= lo)
    return std::nullopt;
  Expr a = Expr::axis(axis);
  if (hi == size)
    return lo == 1 ? a : a / lo;
  return lo == 1 ? a % hi : a % hi / lo;
}

/// A whole axis as a term (nothing for an axis of one value).
inline Term whole(const std::string &axis, int64_t size) { return digits(axis, size, 1, size); }

/// `[a, b, ...]` of the terms present, `1` if none is.
inline Expr cat(const std::vector<Term> &terms) {
  std::vector<Expr> items;
  for (const Term &t : terms)
    if (t)
      items.push_back(*t);
  return items.empty() ? Expr::one() : Expr::pair(items);
}

inline std::string num(int64_t v) {
  std::string s = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0)
      out += ',';
    out += s[i];
  }
  return v < 0 ? "-" + out : out;
}

/// Where a line of at most `width` columns can break: the last space before it outside a
/// mapping's brackets (npos if none after `from`).
inline size_t breakAt(const std::string &line, size_t width, size_t from) {
  size_t cut = std::string::npos;
  int depth = 0;
  for (size_t i = 0; i < line.size() && i <= width; ++i) {
    depth += line[i] == '[' ? 1 : line[i] == ']' ? -1 : 0;
    if (line[i] == ' ' && depth == 0 && i > from)
      cut = i;
  }
  return cut;
}

/// `text` with each line longer than `width` broken at spaces outside brackets; a continuation
/// is indented as its line, plus the width of a list marker ("1. ", "- ") or `hang`.
inline std::string wrap(const std::string &text, size_t width = 96, size_t hang = 0) {
  std::string out;
  size_t start = 0;
  while (true) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    size_t indent = std::min(line.find_first_not_of(' '), line.size());
    size_t marker = line.find(' ', indent);
    bool listed = marker != std::string::npos && marker > indent &&
                  (line[marker - 1] == '.' || line[indent] == '-') && marker - indent <= 3;
    indent += listed ? marker + 1 - indent : hang;
    while (line.size() > width) {
      size_t cut = breakAt(line, width, indent);
      if (cut == std::string::npos)
        break;
      out += line.substr(0, cut) + "\n";
      line = std::string(indent, ' ') + line.substr(cut + 1);
    }
    out += line;
    if (end == std::string::npos)
      return out;
    out += "\n";
    start = end + 1;
  }
}

/// `text` with each `{name}` replaced by its value.
using Values = std::vector<std::pair<std::string, std::string>>;
inline std::string fill(std::string text, const Values &values) {
  for (const auto &[name, value] : values)
    for (size_t at = text.find("{" + name + "}"); at != std::string::npos;
         at = text.find("{" + name + "}", at + value.size()))
      text.replace(at, name.size() + 2, value);
  return text;
}

/// Bytes as "N KB" or "N.N MB".
inline std::string bytes(int64_t n) {
  if (n < (1 << 20))
    return num(n / 1024) + " KB";
  const int64_t tenths = n * 10 / (1 << 20);
  return num(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " MB";
}

/// A contraction's packet: two flits (32 bf16 values), the Contraction Engine's widest, which
/// with two time-broadcast rows a lane keeps every MAC busy (docs/prefill.md, "The GEMM").
inline constexpr int64_t kPackFlits = 2;

// ---- The token blocks both stages' HBM layouts are written in.

struct PrefillTokens {
  int64_t tokens = 512;     // T
  int64_t perCluster = 256; // TC: prefill_projection's tokens per cluster (T / clusters)
  int64_t tile = 64;        // A: the projection's inner token block (x, the RoPE tables)
  int64_t queryBlock = 16;  // TQ: attention's queries per slice
  int64_t queryRun = 16;    // q_out's run of tokens, min(TQ, TC): each cluster of the
                            // projection writes whole blocks T / TC (the simulator refuses two
                            // clusters' parts of one store whose HBM ranges interleave)
};

/// TC = T / clusters; A = min(64, TC) (64: the attention's key tile for two q heads a kv head
/// and D = 128, kept for every shape so that the host's indices do not depend on G);
/// TQ = 2 x lanes (two time-broadcast rows of queries a lane); q_out's run min(TQ, TC).
inline PrefillTokens prefillTokens(int64_t tokens, const TargetModel &target) {
  PrefillTokens p;
  p.tokens = tokens;
  p.perCluster = tokens / target.clusters;
  p.tile = std::min<int64_t>(64, p.perCluster);
  p.queryBlock = 2 * target.trfLanes;
  p.queryRun = std::min(p.queryBlock, p.perCluster);
  return p;
}

} // namespace rngd::placement::qwen3
