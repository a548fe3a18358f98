// Mapping expressions built in C++: what placement code writes instead of mapping strings.
// Each call is one term of the notation in Mapping.h; str() prints the text that
// Mapping::parse reads back, spaced as Mapping::str spaces it:
//
//   Expr::axis("H") / 4 % 64         ->  "H / 4 % 64"
//   Expr::pair({Expr::axis("I") % 32, Expr::axis("J")})  ->  "[I % 32, J]"
//   Expr::one().pad(2)               ->  "1 # 2"
//   (Expr::axis("W").pad(155648) / 8192)  ->  "W # 155648 / 8192"
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rngd::mapping {

class Expr {
public:
  /// `A`: the axis, linearly. The name must be an identifier declared in the module's axes
  /// when the text is parsed (Mapping::parse reports it otherwise).
  static Expr axis(const std::string &name);
  /// `1`: a single cell (replication over the axes a tensor does not have).
  static Expr one();
  /// `[a, b, ...]`: a pair (tuple), the first item major. One item is that item.
  static Expr pair(const std::vector<Expr> &items);

  /// `e / n`: the block index of blocks of n.
  Expr operator/(int64_t n) const { return postfix('/', n); }
  /// `e % n`: the position inside blocks of n.
  Expr operator%(int64_t n) const { return postfix('%', n); }
  /// `e # n`: padded to n cells.
  Expr pad(int64_t n) const { return postfix('#', n); }
  /// `e = n`: only the first n cells are held (a view).
  Expr view(int64_t n) const { return postfix('=', n); }

  const std::string &str() const { return text_; }

private:
  explicit Expr(std::string text) : text_(std::move(text)) {}
  Expr postfix(char op, int64_t n) const;
  std::string text_;
};

} // namespace rngd::mapping
