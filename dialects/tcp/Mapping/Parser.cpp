// Recursive-descent parser for mapping expressions (syntax only).
//   list    := term (',' term)*
//   term    := primary (('/' | '%' | '#' | '=') NUMBER)*
//   primary := IDENT | '1' | '[' list ']'
#include "Parser.h"

#include <cctype>

namespace rngd::mapping::detail {

std::string slice(const std::string &text, size_t begin, size_t end) {
  std::string out;
  bool space = false;
  for (size_t i = begin; i < end && i < text.size(); ++i) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += text[i];
  }
  return out;
}

std::string quote(const std::string &text, size_t begin, size_t end) {
  return "`" + slice(text, begin, end) + "`";
}

namespace {

constexpr int64_t kMaxNumber = int64_t(1) << 48;

class Parser {
public:
  Parser(const std::string &text, Error &err) : text_(text), err_(err) {}

  bool parseAll(std::vector<Term> &out) {
    skip();
    if (pos_ == text_.size())
      return fail(0, text_.size(), "empty mapping (write `1` for a single cell)");
    if (!parseList(out))
      return false;
    skip();
    if (pos_ != text_.size())
      return fail(pos_, text_.size(),
                  "unexpected `" + std::string(1, text_[pos_]) + "` at column " +
                      std::to_string(pos_ + 1));
    return true;
  }

private:
  bool fail(size_t begin, size_t end, const std::string &message) {
    err_.term = quote(text_, begin, end);
    if (err_.term == "``")
      err_.term = "`" + text_ + "`";
    err_.message = message;
    return false;
  }

  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  bool parseNumber(int64_t &n) {
    skip();
    size_t begin = pos_;
    if (pos_ == text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      return false;
    n = 0;
    bool tooLarge = false;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (!tooLarge)
        n = n * 10 + (text_[pos_] - '0');
      tooLarge = tooLarge || n > kMaxNumber;
      ++pos_;
    }
    if (tooLarge)
      return fail(begin, pos_, "number too large (limit 2^48)");
    return true;
  }

  bool parseList(std::vector<Term> &out) {
    for (;;) {
      Term t;
      if (!parseTerm(t))
        return false;
      out.push_back(std::move(t));
      skip();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      return true;
    }
  }

  bool parsePrimary(Term &t) {
    skip();
    t.begin = pos_;
    if (pos_ == text_.size())
      return fail(0, text_.size(), "expected a term at the end");
    char c = text_[pos_];
    if (c == '[') {
      ++pos_;
      t.kind = Term::Kind::Pair;
      if (!parseList(t.items))
        return false;
      skip();
      if (pos_ == text_.size() || text_[pos_] != ']')
        return fail(t.begin, pos_,
                    "expected `]` to close `[` at column " + std::to_string(t.begin + 1));
      ++pos_;
      if (t.items.size() == 1) { // `[E]` is E
        Term inner = std::move(t.items[0]);
        inner.begin = t.begin;
        if (inner.ops.empty())
          inner.primaryEnd = pos_;
        t = std::move(inner);
        t.end = pos_;
        return true;
      }
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      t.kind = Term::Kind::Axis;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        t.name += text_[pos_++];
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t n = 0;
      if (!parseNumber(n))
        return false;
      if (n != 1)
        return fail(t.begin, pos_, "only the constant 1 may stand as a term");
      t.kind = Term::Kind::One;
    } else {
      return fail(pos_, pos_ + 1,
                  std::string("expected an axis, `1` or `[` at column ") +
                      std::to_string(pos_ + 1));
    }
    t.end = t.primaryEnd = pos_;
    return true;
  }

  bool parseTerm(Term &t) {
    if (!parsePrimary(t))
      return false;
    for (;;) {
      skip();
      if (pos_ == text_.size())
        return true;
      char c = text_[pos_];
      if (c != '/' && c != '%' && c != '#' && c != '=')
        return true;
      ++pos_;
      skip();
      if (c == '#' && pos_ < text_.size() && text_[pos_] == '{')
        return fail(t.begin, pos_ + 1, "unsupported: padding kinds `#{...}`; write `# n`");
      int64_t n = 0;
      if (!parseNumber(n))
        return err_.message.empty()
                   ? fail(t.begin, pos_, std::string("expected a number after `") + c + "`")
                   : false;
      if (n <= 0)
        return fail(t.begin, pos_, std::string("the operand of `") + c + "` must be positive");
      t.ops.push_back({c, n, pos_});
      t.end = pos_;
    }
  }

  const std::string &text_;
  Error &err_;
  size_t pos_ = 0;
};

} // namespace

bool parseTerms(const std::string &text, std::vector<Term> &out, Error &err) {
  err = Error{};
  out.clear();
  Parser p(text, err);
  return p.parseAll(out);
}

} // namespace rngd::mapping::detail
