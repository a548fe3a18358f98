// Mapping expressions: resolution against axis sizes, printing, positions, coverage, loop merge.
#include "Mapping.h"
#include "Support.h"
#include "Parser.h"

#include <algorithm>

namespace rngd::mapping {

using detail::PostfixOp;
using detail::quote;
using detail::Term;

namespace {

constexpr int64_t kLimit = int64_t(1) << 62;

using detail::ceilDiv;
using detail::fail;
using detail::num;

/// Resolution state of one axis term while its postfix operators are applied.
struct AxisState {
  int64_t S = 0; // axis size
  int64_t P = 0; // axis extent after `A # n` absorbed by a split (P >= S)
  int64_t div = 1;
  int64_t count = 0; // meaningful digit values
  int64_t view = 0;
  int64_t cells = 0;
  bool top = true; // most significant digit of the axis (v = x / div, no wrap)
  int64_t natural() const { return top ? ceilDiv(P, div) : count; }
};

bool applyAxisOp(AxisState &s, const PostfixOp &op, const std::string &axis,
                 const std::string &term, const std::string &prefix, Error &err) {
  const int64_t n = op.n;
  if (op.op == '#') {
    if (n < s.cells)
      return fail(err, term, num(n) + " is less than the " + num(s.cells) + " cells of " + prefix);
    s.cells = n;
    return true;
  }
  if (op.op == '=') {
    if (n > s.cells)
      return fail(err, term,
                  "cannot view " + num(n) + " of the " + num(s.cells) + " cells of " + prefix);
    int64_t visible = s.view ? s.view : s.count;
    if (n < visible)
      s.view = n;
    s.cells = n;
    return true;
  }
  // `/` and `%` split the digit; padding must have been applied to the whole axis.
  if (s.view || s.cells < s.natural())
    return fail(err, term, std::string("unsupported: `") + op.op + "` after a `= n` view");
  if (s.cells > s.natural()) {
    if (!(s.top && s.div == 1))
      return fail(err, term,
                  std::string("unsupported: `") + op.op + "` after padding a split term");
    s.P = s.cells; // `A # n / m`: the axis is padded to n cells first
  }
  const bool rawAxis = s.top && s.div == 1 && s.P == s.S;
  if (op.op == '/') {
    if (n > kLimit / s.div)
      return fail(err, term, "divisor too large");
    if (s.top) {
      s.div *= n;
      s.count = ceilDiv(s.S, s.div);
      s.cells = ceilDiv(s.P, s.div);
    } else {
      if (s.count % n)
        return fail(err, term,
                    num(n) + " does not divide the " + num(s.count) + " values of " + prefix);
      s.div *= n;
      s.count /= n;
      s.cells = s.count;
    }
    return true;
  }
  // '%'
  int64_t range = s.natural();
  if (range % n)
    return fail(
        err, term,
        num(n) + " does not divide " +
            (rawAxis ? axis + " = " + num(s.S) : "the " + num(range) + " values of " + prefix));
  if (n > kLimit / s.div)
    return fail(err, term, "modulus too large");
  if (s.top && s.div * n >= s.S) { // still the most significant digit
    if (n < range)
      s.P = s.div * n;
    s.count = ceilDiv(s.S, s.div);
    s.cells = n;
  } else {
    s.top = false;
    s.count = n;
    s.cells = n;
  }
  return true;
}

bool flatten(const Term &t, const std::string &text, const AxisEnv &env, std::vector<Factor> &out,
             Error &err) {
  const std::string whole = quote(text, t.begin, t.end);
  if (t.kind == Term::Kind::Pair) {
    if (!t.ops.empty()) {
      char op = t.ops.front().op;
      std::string what = op == '#'   ? "padding a pair"
                         : op == '=' ? "viewing a pair"
                                     : std::string("`") + op + "` on a pair";
      return fail(err, whole, "unsupported: " + what + "; apply it to the terms inside");
    }
    for (const Term &item : t.items)
      if (!flatten(item, text, env, out, err))
        return false;
    return true;
  }
  Factor f;
  f.text = detail::slice(text, t.begin, t.end);
  if (t.kind == Term::Kind::One) {
    for (const PostfixOp &op : t.ops) {
      std::string term = quote(text, t.begin, op.end);
      if (op.op == '/' || op.op == '%')
        return fail(err, term, std::string("unsupported: `") + op.op + "` on the constant 1");
      if (op.op == '#' && op.n < f.cells)
        return fail(err, term, num(op.n) + " is less than the " + num(f.cells) + " cells");
      if (op.op == '=' && op.n > f.cells)
        return fail(err, term, "cannot view " + num(op.n) + " of " + num(f.cells) + " cells");
      f.cells = op.n;
    }
    out.push_back(f);
    return true;
  }
  std::optional<int64_t> size = env.size(t.name);
  if (!size) {
    std::string known;
    for (const auto &a : env.axes())
      known += (known.empty() ? "" : ", ") + a.first;
    return fail(err, quote(text, t.begin, t.end),
                "unknown axis " + t.name + " (declared: " + (known.empty() ? "none" : known) + ")");
  }
  if (*size <= 0)
    return fail(err, whole, "axis " + t.name + " has size " + num(*size));
  AxisState s;
  s.S = s.P = s.count = s.cells = *size;
  size_t prefixEnd = t.primaryEnd;
  for (const PostfixOp &op : t.ops) {
    std::string prefix = quote(text, t.begin, prefixEnd);
    if (!applyAxisOp(s, op, t.name, quote(text, t.begin, op.end), prefix, err))
      return false;
    prefixEnd = op.end;
  }
  f.axis = t.name;
  f.axisSize = s.S;
  f.div = s.div;
  f.count = s.count;
  f.view = s.view;
  f.cells = s.cells;
  if (s.top) {
    f.axisPad = (s.div == 1 || s.P == s.S) ? 0 : s.P; // `A # n` alone is just padding cells
  } else {
    f.axisPad = (s.P != s.S && s.S % (s.div * s.count) != 0) ? s.P : 0;
  }
  out.push_back(f);
  return true;
}

} // namespace

// ---- AxisEnv ------------------------------------------------------------------------------

void AxisEnv::add(const std::string &name, int64_t size) {
  for (auto &a : axes_)
    if (a.first == name) {
      a.second = size;
      return;
    }
  axes_.emplace_back(name, size);
}

std::optional<int64_t> AxisEnv::size(const std::string &name) const {
  for (const auto &a : axes_)
    if (a.first == name)
      return a.second;
  return std::nullopt;
}

// ---- Factor -------------------------------------------------------------------------------

bool operator==(const Factor &a, const Factor &b) {
  return a.axis == b.axis && a.axisPad == b.axisPad && a.div == b.div && a.count == b.count &&
         a.cells == b.cells && a.axisSize == b.axisSize && a.view == b.view;
}

std::string Factor::str() const {
  if (isConstant())
    return cells > 1 ? "1 # " + num(cells) : "1";
  std::string s = axis;
  int64_t extent = axisPad ? axisPad : axisSize;
  if (axisPad)
    s += " # " + num(axisPad);
  if (div > 1)
    s += " / " + num(div);
  if (!isTop())
    s += " % " + num(count);
  int64_t base = isTop() ? ceilDiv(extent, div) : count;
  if (view) {
    s += " = " + num(view);
    base = view;
  }
  if (cells < base)
    s += " = " + num(cells);
  else if (cells > base)
    s += " # " + num(cells);
  return s;
}

// ---- Mapping ------------------------------------------------------------------------------

std::optional<Syntax> Syntax::parse(const std::string &text, Error &err) {
  auto terms = std::make_shared<std::vector<Term>>();
  if (!detail::parseTerms(text, *terms, err))
    return std::nullopt;
  Syntax s;
  s.text_ = text;
  s.terms_ = std::move(terms);
  return s;
}

std::optional<Mapping> Mapping::parse(const std::string &text, const AxisEnv &env, Error &err) {
  std::optional<Syntax> syntax = Syntax::parse(text, err);
  return syntax ? resolve(*syntax, env, err) : std::nullopt;
}

std::optional<Mapping> Mapping::resolve(const Syntax &syntax, const AxisEnv &env, Error &err) {
  if (!syntax.terms_) {
    fail(err, "", "no mapping");
    return std::nullopt;
  }
  Mapping m;
  for (const Term &t : *syntax.terms_)
    if (!flatten(t, syntax.text_, env, m.factors_, err))
      return std::nullopt;
  int64_t cells = 1;
  for (const Factor &f : m.factors_)
    if (__builtin_mul_overflow(cells, f.cells, &cells) || cells > kMaxCells) {
      fail(err, "", "more than 2^32 cells (" + std::to_string(kMaxCells) + ")");
      return std::nullopt;
    }
  return m;
}

Mapping Mapping::fromFactors(std::vector<Factor> factors) {
  Mapping m;
  m.factors_ = std::move(factors);
  return m;
}

std::optional<FactorPlace> placeFactor(const Mapping &buffer, const Factor &f) {
  if (f.isConstant())
    return FactorPlace{true, 0};
  std::vector<int64_t> strides = buffer.strides();
  bool seen = false;
  for (size_t i = 0; i < buffer.factors().size(); ++i) {
    const Factor &g = buffer.factors()[i];
    if (g.axis != f.axis)
      continue;
    seen = true;
    // f's digits cover axis values [f.div, f.div * f.count); g holds [g.div, g.div * g.count)
    // (everything from g.div up when g is the axis's top factor).
    bool inside = f.div >= g.div && f.div % g.div == 0 &&
                  (g.isTop() || f.div * f.count <= g.div * g.count);
    if (inside)
      return FactorPlace{false, strides[i] * (f.div / g.div)};
  }
  if (!seen)
    return FactorPlace{true, 0};
  return std::nullopt;
}

std::optional<std::pair<Factor, Factor>> splitFactor(const Factor &f, int64_t innerCount) {
  if (f.isConstant() || innerCount <= 0 || f.count % innerCount != 0 || f.cells != f.count ||
      f.view != 0)
    return std::nullopt;
  Factor outer = f, inner = f;
  inner.count = inner.cells = innerCount;
  outer.div = f.div * innerCount;
  outer.count = outer.cells = f.count / innerCount;
  inner.text = inner.str();
  outer.text = outer.str();
  return std::make_pair(outer, inner);
}

std::string Mapping::spelling(const std::string &text) {
  return detail::slice(text, 0, text.size());
}

std::string Mapping::str() const {
  if (factors_.size() == 1)
    return factors_[0].str();
  std::string s = "[";
  for (size_t i = 0; i < factors_.size(); ++i)
    s += (i ? ", " : "") + factors_[i].str();
  return s + "]";
}

int64_t Mapping::size() const {
  int64_t n = 1;
  for (const Factor &f : factors_)
    n *= f.cells;
  return n;
}

int64_t Mapping::heldEnd() const {
  // A position holds a cell when each factor's digit is below its visible count, so the last
  // such position takes every factor's last visible digit.
  std::vector<int64_t> stride = strides();
  int64_t last = 0;
  for (size_t i = 0; i < factors_.size(); ++i) {
    if (factors_[i].visible() <= 0)
      return 0;
    last += (factors_[i].visible() - 1) * stride[i];
  }
  return last + 1;
}

std::vector<std::string> Mapping::axes() const {
  std::vector<std::string> out;
  for (const Factor &f : factors_)
    if (!f.isConstant() && std::find(out.begin(), out.end(), f.axis) == out.end())
      out.push_back(f.axis);
  return out;
}

std::vector<int64_t> Mapping::strides() const {
  std::vector<int64_t> out(factors_.size());
  int64_t stride = 1;
  for (size_t i = factors_.size(); i-- > 0;) {
    out[i] = stride;
    stride *= factors_[i].cells;
  }
  return out;
}

std::optional<int64_t>
Mapping::position(const std::vector<std::pair<std::string, int64_t>> &index) const {
  std::vector<int64_t> strides = this->strides();
  int64_t pos = 0;
  for (size_t i = 0; i < factors_.size(); ++i) {
    const Factor &f = factors_[i];
    if (f.isConstant())
      continue;
    int64_t x = 0;
    for (const auto &kv : index)
      if (kv.first == f.axis) {
        x = kv.second;
        break;
      }
    if (x < 0)
      return std::nullopt;
    int64_t v = f.isTop() ? x / f.div : (x / f.div) % f.count;
    if ((f.view && v >= f.view) || v >= f.cells)
      return std::nullopt;
    pos += v * strides[i];
  }
  return pos;
}

std::optional<std::vector<int64_t>> Mapping::digits(int64_t position) const {
  if (position < 0 || position >= size())
    return std::nullopt;
  std::vector<int64_t> out(factors_.size());
  for (size_t i = factors_.size(); i-- > 0;) {
    out[i] = position % factors_[i].cells;
    position /= factors_[i].cells;
    if (out[i] >= factors_[i].visible())
      return std::nullopt;
  }
  return out;
}

// ---- Order ------------------------------------------------------------------------------

namespace {
/// The logical value of every axis at a position (-1 for padding), in factor order.
std::vector<std::pair<std::string, int64_t>> logicalAt(const Mapping &m, int64_t position) {
  std::vector<std::pair<std::string, int64_t>> values;
  auto digits = m.digits(position);
  if (!digits)
    return {{"#pad", -1}};
  for (size_t i = 0; i < m.factors().size(); ++i) {
    const Factor &f = m.factors()[i];
    if (f.isConstant())
      continue;
    auto it = std::find_if(values.begin(), values.end(),
                           [&](auto &v) { return v.first == f.axis; });
    if (it == values.end())
      values.push_back({f.axis, (*digits)[i] * f.div});
    else
      it->second += (*digits)[i] * f.div;
  }
  std::sort(values.begin(), values.end());
  return values;
}

/// A mapping as runs of positions: each atom steps one axis by `div` per position over
/// `visible` positions of `cells` (the rest padding). Adjacent atoms of one axis whose digits
/// continue each other are merged, and single-position atoms dropped, so two mappings with the
/// same atoms and the same axes put the same logical values at every position.
struct Atoms {
  struct Atom {
    std::string axis;
    int64_t div, visible, cells;
    bool operator==(const Atom &o) const {
      return axis == o.axis && div == o.div && visible == o.visible && cells == o.cells;
    }
  };
  std::vector<Atom> atoms;
  std::vector<std::string> axes;
  bool operator==(const Atoms &o) const { return atoms == o.atoms && axes == o.axes; }
};

Atoms atomsOf(const Mapping &m) {
  Atoms out;
  for (const Factor &f : m.factors()) {
    if (!f.isConstant() && std::find(out.axes.begin(), out.axes.end(), f.axis) == out.axes.end())
      out.axes.push_back(f.axis);
    if (f.cells == 1)
      continue;
    Atoms::Atom atom{f.isConstant() ? std::string() : f.axis, f.div, f.visible(), f.cells};
    if (!out.atoms.empty()) {
      Atoms::Atom &outer = out.atoms.back();
      if (!atom.axis.empty() && outer.axis == atom.axis && atom.visible == atom.cells &&
          outer.div == atom.div * atom.cells) {
        outer = {atom.axis, atom.div, outer.visible * atom.cells, outer.cells * atom.cells};
        continue;
      }
    }
    out.atoms.push_back(atom);
  }
  std::sort(out.axes.begin(), out.axes.end());
  return out;
}
} // namespace

bool sameOrder(const Mapping &a, const Mapping &b) {
  if (a.size() != b.size())
    return false;
  if (atomsOf(a) == atomsOf(b))
    return true;
  for (int64_t p = 0; p < a.size(); ++p)
    if (logicalAt(a, p) != logicalAt(b, p))
      return false;
  return true;
}

// ---- Coverage -----------------------------------------------------------------------------

bool checkCoverage(const std::vector<Level> &levels, const std::vector<bool> &broadcastLevels,
                   const std::vector<std::string> &tensorAxes, const AxisEnv &env, Error &err) {
  err = Error{};
  struct Use {
    const Factor *f;
    size_t level;
  };
  auto isTensorAxis = [&](const std::string &a) {
    return std::find(tensorAxes.begin(), tensorAxes.end(), a) != tensorAxes.end();
  };
  auto where = [](const Use &u) {
    return "`" + u.f->text + "` (level " + std::to_string(u.level) + ")";
  };
  for (size_t l = 0; l < levels.size(); ++l)
    for (const Factor &f : levels[l].mapping.factors())
      if (!f.isConstant() && !isTensorAxis(f.axis) &&
          !(l < broadcastLevels.size() && broadcastLevels[l]))
        return fail(err, "`" + f.text + "`",
                    "axis " + f.axis + " is not an axis of the tensor, and level " +
                        std::to_string(l) + " cannot broadcast (replicate)");
  for (const std::string &axis : tensorAxes) {
    std::optional<int64_t> size = env.size(axis);
    if (!size)
      return fail(err, axis, "unknown axis " + axis);
    std::vector<Use> uses;
    for (size_t l = 0; l < levels.size(); ++l)
      for (const Factor &f : levels[l].mapping.factors())
        if (f.axis == axis)
          uses.push_back({&f, l});
    if (uses.empty()) {
      if (*size == 1)
        continue;
      return fail(err, axis, "axis " + axis + " = " + num(*size) + " is not mapped by any level");
    }
    std::stable_sort(uses.begin(), uses.end(),
                     [](const Use &a, const Use &b) { return a.f->div < b.f->div; });
    int64_t expected = 1; // next div the tiling needs
    const Use *prev = nullptr;
    for (const Use &u : uses) {
      const Factor &f = *u.f;
      if (f.view)
        return fail(err, "`" + f.text + "`",
                    "a view holds only " + num(f.view) + " of the " + num(f.count) + " values; " +
                        axis + " is not covered");
      if (prev && prev->f->isTop())
        return fail(err, "`" + f.text + "`",
                    axis + " is covered twice (also by " + where(*prev) + ")");
      if (f.div < expected)
        return fail(err, "`" + f.text + "`",
                    axis + " is covered twice: digits from " + num(f.div) + " up to " +
                        num(expected) + " are also held by " + where(*prev));
      if (f.div > expected)
        return fail(err, "`" + f.text + "`",
                    "gap in " + axis + " = " + num(*size) + ": nothing holds `" + axis +
                        (expected > 1 ? " / " + num(expected) : "") + " % " +
                        num(f.div / expected) + "`");
      expected = f.div * f.count;
      prev = &u;
    }
    if (!prev->f->isTop())
      return fail(err, "`" + prev->f->text + "`",
                  axis + " = " + num(*size) + " is covered only below " + num(expected) +
                      ": nothing holds `" + axis + " / " + num(expected) + "`");
  }
  return true;
}

// ---- Loops --------------------------------------------------------------------------------

std::vector<Loop> mergeLoops(const std::vector<Loop> &loops) {
  std::vector<Loop> out;
  for (const Loop &l : loops) {
    if (l.size == 1)
      continue;
    out.push_back(l);
    while (out.size() >= 2) {
      Loop inner = out.back();
      Loop &outer = out[out.size() - 2];
      if (outer.stride != inner.size * inner.stride)
        break;
      outer = Loop{outer.size * inner.size, inner.stride};
      out.pop_back();
    }
  }
  return out;
}

std::string str(const std::vector<Loop> &loops) {
  std::string s = "[";
  for (size_t i = 0; i < loops.size(); ++i)
    s += (i ? ", " : "") + num(loops[i].size) + ":" + num(loops[i].stride);
  return s + "]";
}

int64_t Sequencer::accesses() const {
  int64_t n = 1;
  for (const Loop &l : loops)
    n *= l.size;
  return n;
}

std::string Sequencer::str() const { return mapping::str(loops) + " : " + num(accessBytes); }

int64_t DmaPlan::packets() const {
  int64_t n = 1;
  for (const PairLoop &l : loops)
    n *= l.size;
  return n;
}

std::string DmaPlan::str() const {
  std::string s = "[";
  for (size_t i = 0; i < loops.size(); ++i)
    s += (i ? ", " : "") + num(loops[i].size) + ":(" + num(loops[i].srcStride) + ", " +
         num(loops[i].dstStride) + ")";
  return s + "] : " + num(packetBytes);
}

} // namespace rngd::mapping
