// Parsing, resolution, canonical printing and diagnostics of mapping expressions.
#include "Helpers.h"

#include <functional>
#include <random>

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

void checkFactor(const Factor &f, const std::string &axis, int64_t axisPad, int64_t div,
                 int64_t count, int64_t cells, int64_t view = 0) {
  INFO("factor `" << f.text << "`");
  CHECK(f.axis == axis);
  CHECK(f.axisPad == axisPad);
  CHECK(f.div == div);
  CHECK(f.count == count);
  CHECK(f.cells == cells);
  CHECK(f.view == view);
}

void checkError(const std::string &text, const AxisEnv &e, const std::string &term,
                const std::vector<std::string> &parts) {
  Error err = parseError(text, e);
  INFO("error: " << err.str());
  CHECK(err.term == term);
  for (const std::string &p : parts)
    CHECK(err.message.find(p) != std::string::npos);
}

} // namespace

TEST_CASE("single axis and constants", "[mapping][parse]") {
  AxisEnv e = env({{"A", 8}, {"B", 12}});
  Mapping a = parse("A", e);
  REQUIRE(a.factors().size() == 1);
  checkFactor(a.factors()[0], "A", 0, 1, 8, 8);
  CHECK(a.factors()[0].axisSize == 8);
  CHECK(a.factors()[0].isTop());
  CHECK(a.str() == "A");
  CHECK(a.size() == 8);

  Mapping one = parse("1", e);
  REQUIRE(one.factors().size() == 1);
  CHECK(one.factors()[0].isConstant());
  CHECK(one.size() == 1);
  CHECK(one.str() == "1");

  Mapping pad = parse("1 # 2", e);
  checkFactor(pad.factors()[0], "", 0, 1, 1, 2);
  CHECK(pad.str() == "1 # 2");
  CHECK(pad.axes().empty());
}

TEST_CASE("pairs flatten major to minor; top level accepts brackets or not", "[mapping][parse]") {
  AxisEnv e = env({{"A", 8}, {"B", 12}, {"C", 4}});
  Mapping bare = parse("A, B", e);
  Mapping bracketed = parse("[A, B]", e);
  CHECK(bare == bracketed);
  CHECK(bare.str() == "[A, B]");
  Mapping nested = parse("[C, [B / 4, [A]], B % 4]", e);
  REQUIRE(nested.factors().size() == 4);
  CHECK(nested.str() == "[C, B / 4, A, B % 4]");
  CHECK(nested.size() == 4 * 3 * 8 * 4);
  CHECK(nested.axes() == std::vector<std::string>{"C", "B", "A"});
  CHECK(nested.strides() == std::vector<int64_t>{96, 32, 4, 1});
  CHECK(parse("[A]", e).str() == "A");
  CHECK(parse("[[A] / 2]", e).str() == "A / 2");
  CHECK(parse("  [ A ,B]  ", e).str() == "[A, B]");
}

TEST_CASE("split, pad and view operators resolve to factors", "[mapping][parse]") {
  AxisEnv e = env({{"A", 16}, {"H", 1024}, {"W", 151936}, {"B", 4096}, {"C", 4}, {"T", 10}});
  SECTION("W # 155648 / 8192: pad the axis, then block") {
    Mapping m = parse("W # 155648 / 8192", e);
    checkFactor(m.factors()[0], "W", 155648, 8192, 19, 19);
    CHECK(m.str() == "W # 155648 / 8192");
    CHECK(m.factors()[0].text == "W # 155648 / 8192");
  }
  SECTION("W / 8192 without padding is the ceil block (ragged last block)") {
    checkFactor(parse("W / 8192", e).factors()[0], "W", 0, 8192, 19, 19);
  }
  SECTION("W # 155648 % 8192 keeps the pad so that it reparses") {
    Mapping m = parse("W # 155648 % 8192", e);
    checkFactor(m.factors()[0], "W", 155648, 1, 8192, 8192);
    CHECK(m.str() == "W # 155648 % 8192");
  }
  SECTION("H / 4 # 256 is H / 4 (the padding is a no-op)") {
    Mapping m = parse("H / 4 # 256", e);
    checkFactor(m.factors()[0], "H", 0, 4, 256, 256);
    CHECK(m.str() == "H / 4");
    checkFactor(parse("H / 4 # 512", e).factors()[0], "H", 0, 4, 256, 512);
    CHECK(parse("H / 4 # 512", e).str() == "H / 4 # 512");
  }
  SECTION("nested splits") {
    Mapping m = parse("A / 4 % 2", e);
    checkFactor(m.factors()[0], "A", 0, 4, 2, 2);
    CHECK_FALSE(m.factors()[0].isTop());
    CHECK(m.str() == "A / 4 % 2");
    // (A % 8) / 2 == (A / 2) % 4: printed in the canonical `/ then %` order.
    CHECK(parse("A % 8 / 2", e) == parse("A / 2 % 4", e));
    CHECK(parse("A % 8 / 2", e).str() == "A / 2 % 4");
    // `% n` covering the whole remaining range keeps the digit on top.
    CHECK(parse("A / 4 % 4", e).str() == "A / 4");
  }
  SECTION("padding a whole axis") {
    Mapping c = parse("C # 32", e);
    checkFactor(c.factors()[0], "C", 0, 1, 4, 32);
    CHECK(c.str() == "C # 32");
    CHECK(parse("C#32", e) == c);
    Mapping t = parse("T # 16 / 4", e);
    checkFactor(t.factors()[0], "T", 16, 4, 3, 4);
    CHECK(t.str() == "T # 16 / 4");
  }
  SECTION("views") {
    Mapping v = parse("A % 4 = 3", e);
    checkFactor(v.factors()[0], "A", 0, 1, 4, 3, 3);
    CHECK(v.str() == "A % 4 = 3");
    Mapping block = parse("B / 2048 = 1 # 2", e);
    checkFactor(block.factors()[0], "B", 0, 2048, 2, 2, 1);
    CHECK(block.str() == "B / 2048 = 1 # 2");
    CHECK(block.factors()[0].visible() == 1);
    // A view that does not cut anything only trims padding.
    checkFactor(parse("C # 8 = 6", e).factors()[0], "C", 0, 1, 4, 6);
    CHECK(parse("C # 8 = 6", e).str() == "C # 6");
  }
  SECTION("ceil blocks of a non-multiple axis") {
    Mapping m = parse("T / 4", e);
    checkFactor(m.factors()[0], "T", 0, 4, 3, 3);
    CHECK(m.factors()[0].isTop());
  }
}

TEST_CASE("canonical text reparses to the same factors", "[mapping][parse]") {
  AxisEnv e = env({{"A", 16}, {"B", 12}, {"C", 4}, {"T", 10}, {"W", 151936}});
  for (const char *text :
       {"A", "[A, B]", "A / 4 % 2", "[A / 4, B, A % 4]", "[1 # 2, A / 2 # 16, A % 2]",
        "W # 155648 / 8192", "W # 155648 % 8192", "[C # 32, B / 3 = 2 # 4]", "T # 12 % 6",
        "T # 16 / 4 = 2", "[B % 4 = 3 # 8, 1, T]", "A # 32 / 8 % 2"}) {
    Mapping m = parse(text, e);
    Mapping again = parse(m.str(), e);
    INFO(text << " printed as " << m.str());
    CHECK(again == m);
    CHECK(again.str() == m.str());
  }
}

// Property: any expression that parses prints to text that reparses to the same factors, and
// every factor computes, for every axis value, exactly what replaying its operators computes.
TEST_CASE("random expressions: roundtrip and operator semantics", "[mapping][parse]") {
  AxisEnv e = env({{"A", 8}, {"B", 12}, {"T", 10}, {"P", 7}});
  const char *axes[] = {"A", "B", "T", "P"};
  const int64_t operands[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32};
  const char ops[] = {'/', '%', '#', '='};
  std::mt19937 rng(12345);
  int parsed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string axis = axes[rng() % 4];
    std::string text = axis;
    std::vector<std::pair<char, int64_t>> applied;
    int n = rng() % 4;
    for (int i = 0; i < n; ++i) {
      char op = ops[rng() % 4];
      int64_t k = operands[rng() % 11];
      applied.push_back({op, k});
      text += std::string(" ") + op + " " + std::to_string(k);
    }
    Error err;
    std::optional<Mapping> m = Mapping::parse(text, e, err);
    if (!m) {
      CHECK_FALSE(err.term.empty());
      continue;
    }
    ++parsed;
    INFO(text << " -> " << m->str());
    std::optional<Mapping> again = Mapping::parse(m->str(), e, err);
    REQUIRE(again.has_value());
    CHECK(*again == *m);
    const Factor &f = m->factors()[0];
    int64_t size = *e.size(axis);
    for (int64_t x = 0; x < size; ++x) {
      std::optional<int64_t> v = x;
      for (auto [op, k] : applied) {
        if (!v)
          break;
        if (op == '/')
          v = *v / k;
        else if (op == '%')
          v = *v % k;
        else if (op == '=' && *v >= k)
          v = std::nullopt;
      }
      INFO("x = " << x);
      CHECK(m->position({{axis, x}}) == v);
      if (v)
        CHECK(*v < f.cells);
    }
  }
  CHECK(parsed > 3000);
}

TEST_CASE("resolution errors name the term and the numbers", "[mapping][parse][errors]") {
  AxisEnv e = env({{"A", 16}, {"H", 1024}, {"C", 4}});
  checkError("H % 3", e, "`H % 3`", {"3 does not divide H = 1024"});
  checkError("[A, H / 4 % 3]", e, "`H / 4 % 3`", {"3 does not divide the 256 values of `H / 4`"});
  checkError("A % 8 / 3", e, "`A % 8 / 3`", {"3 does not divide the 8 values of `A % 8`"});
  checkError("[A, Q / 2]", e, "`Q / 2`", {"unknown axis Q", "declared: A, H, C"});
  checkError("A # 4", e, "`A # 4`", {"4 is less than the 16 cells of `A`"});
  checkError("H / 4 # 128", e, "`H / 4 # 128`", {"128 is less than the 256 cells of `H / 4`"});
  checkError("A = 32", e, "`A = 32`", {"cannot view 32 of the 16 cells of `A`"});
  checkError("[A, C] # 128", e, "`[A, C] # 128`", {"unsupported: padding a pair"});
  checkError("[A, C] = 2", e, "`[A, C] = 2`", {"unsupported: viewing a pair"});
  checkError("[A, C] / 2", e, "`[A, C] / 2`", {"unsupported: `/` on a pair"});
  checkError("A / 4 # 8 / 2", e, "`A / 4 # 8 / 2`",
             {"unsupported: `/` after padding a split term"});
  checkError("A = 4 % 2", e, "`A = 4 % 2`", {"unsupported: `%` after a `= n` view"});
  checkError("1 / 2", e, "`1 / 2`", {"unsupported: `/` on the constant 1"});
  checkError("1 # 4 = 8", e, "`1 # 4 = 8`", {"cannot view 8 of 4 cells"});
  checkError("C % 0", e, "`C % 0`", {"the operand of `%` must be positive"});
  checkError("C # 32 % 3", e, "`C # 32 % 3`", {"3 does not divide the 32 values of `C # 32`"});
}

TEST_CASE("syntax errors", "[mapping][parse][errors]") {
  AxisEnv e = env({{"A", 16}, {"B", 4}});
  checkError("A /", e, "`A /`", {"expected a number after `/`"});
  checkError("[A, B", e, "`[A, B`", {"expected `]`", "column 1"});
  checkError("A B", e, "`B`", {"unexpected `B` at column 3"});
  checkError("", e, "``", {"empty mapping"});
  checkError("2", e, "`2`", {"only the constant 1"});
  checkError("A #{0} 32", e, "`A #{`", {"unsupported: padding kinds"});
  checkError("A,", e, "`A,`", {"expected a term at the end"});
  checkError("A / 99999999999999999", e, "`99999999999999999`", {"number too large"});
  checkError("A + 1", e, "`+ 1`", {"unexpected `+` at column 3"});

  Error err;
  CHECK(Syntax::parse("Q / 3, [R, S % 2] # 4", err)); // no sizes needed
  CHECK_FALSE(Syntax::parse("A / / 2", err));
  CHECK(err.message.find("expected a number after `/`") != std::string::npos);
  CHECK(err.str() == err.term + ": " + err.message);
}

TEST_CASE("AxisEnv", "[mapping][parse]") {
  AxisEnv e;
  e.add("H", 1024);
  e.add("Q", 2048);
  e.add("H", 512); // redeclaration replaces
  CHECK(e.size("H") == 512);
  CHECK(e.size("Q") == 2048);
  CHECK_FALSE(e.size("X").has_value());
  CHECK(e.axes().size() == 2);
}

TEST_CASE("a mapping holds at most 2^32 cells (kMaxCells)", "[mapping][parse][limits]") {
  AxisEnv e = env({{"A", 8}, {"B", 65536}});
  // At the limit: 2^32 cells, by padding or by the product of factors.
  CHECK(parse("A # 4294967296", e).size() == kMaxCells);
  CHECK(parse("[B, B % 65536 # 65536]", e).size() == kMaxCells);
  // One past: refused before anything walks or multiplies the cells.
  checkError("A # 4294967297", e, "", {"more than 2^32 cells (4294967296)"});
  checkError("[B, A # 65537]", e, "", {"more than 2^32 cells"});
  // Products that would overflow int64 are refused the same way, not wrapped.
  checkError("[A # 281474976710656, A # 281474976710656]", e, "", {"more than 2^32 cells"});
}
