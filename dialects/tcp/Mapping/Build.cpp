#include "dialects/tcp/Mapping/Build.h"

namespace rngd::mapping {

Expr Expr::axis(const std::string &name) { return Expr(name); }

Expr Expr::one() { return Expr("1"); }

Expr Expr::pair(const std::vector<Expr> &items) {
  if (items.size() == 1)
    return items.front();
  std::string text = "[";
  for (size_t i = 0; i < items.size(); ++i)
    text += (i ? ", " : "") + items[i].text_;
  return Expr(text + "]");
}

Expr Expr::postfix(char op, int64_t n) const {
  return Expr(text_ + " " + op + " " + std::to_string(n));
}

} // namespace rngd::mapping
