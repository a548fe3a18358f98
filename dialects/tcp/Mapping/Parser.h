// Internal: syntax tree of a mapping expression (no axis sizes). Used by Mapping.cpp.
#pragma once

#include "Mapping.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::mapping::detail {

/// A postfix operator `/ n`, `% n`, `# n` or `= n`; `end` is the source offset just past `n`.
struct PostfixOp {
  char op = 0;
  int64_t n = 0;
  size_t end = 0;
};

/// `A`, `1` or `[t, t, ...]`, followed by postfix operators applied left to right.
struct Term {
  enum class Kind { Axis, One, Pair } kind = Kind::Axis;
  std::string name;        // Axis
  std::vector<Term> items; // Pair
  std::vector<PostfixOp> ops;
  size_t begin = 0, end = 0; // source span of the whole term (with its operators)
  size_t primaryEnd = 0;     // end of the primary, before the first operator
};

/// Parses a top-level list `t, t, ...` (a single bracketed list `[t, ...]` is the same thing).
/// `[t]` with one item is folded into `t` (its operators appended). Returns false + err.
bool parseTerms(const std::string &text, std::vector<Term> &out, Error &err);

/// Backquoted source text of [begin, end), whitespace collapsed.
std::string quote(const std::string &text, size_t begin, size_t end);
/// Source text of [begin, end), trimmed, whitespace collapsed.
std::string slice(const std::string &text, size_t begin, size_t end);

} // namespace rngd::mapping::detail
