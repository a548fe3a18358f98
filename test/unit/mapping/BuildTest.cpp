// Mappings built in C++ print the notation Mapping::parse reads back, and mean what the same
// text written by hand means.
#include "Helpers.h"

#include "dialects/tcp/Mapping/Build.h"
#include "dialects/tcp/Mapping/Split.h"

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

/// `built` prints `text` exactly, and both parse to the same mapping.
void checkBuilt(const Expr &built, const std::string &text, const AxisEnv &e) {
  CHECK(built.str() == text);
  CHECK(parse(built.str(), e) == parse(text, e));
}

} // namespace

TEST_CASE("Built mappings print the notation", "[mapping][build]") {
  AxisEnv e = env({{"H", 1024}, {"I", 2048}, {"J", 1024}, {"W", 151936}});
  Expr h = Expr::axis("H"), i = Expr::axis("I"), j = Expr::axis("J");
  checkBuilt(h, "H", e);
  checkBuilt(Expr::one(), "1", e);
  checkBuilt(Expr::one().pad(2), "1 # 2", e);
  checkBuilt(h / 4 % 64, "H / 4 % 64", e);
  checkBuilt((i / 32).pad(256), "I / 32 # 256", e);
  checkBuilt(Expr::pair({i % 32, j}), "[I % 32, J]", e);
  checkBuilt(Expr::pair({i / 8 % 4, j / 4}), "[I / 8 % 4, J / 4]", e);
  checkBuilt(Expr::axis("W").pad(155648) / 8192, "W # 155648 / 8192", e);
  checkBuilt(h.view(512), "H = 512", e);
  // A nested pair, and a one-item pair that is its item.
  checkBuilt(Expr::pair({Expr::pair({i % 8, j % 4}), h}), "[[I % 8, J % 4], H]", e);
  checkBuilt(Expr::pair({h / 2}), "H / 2", e);
}

TEST_CASE("Built mappings meet the parser's rules", "[mapping][build]") {
  AxisEnv e = env({{"H", 1024}});
  // The builder writes the notation; the rules (division, axes) stay the parser's.
  CHECK(parseError((Expr::axis("H") % 3).str(), e).str() ==
        "`H % 3`: 3 does not divide H = 1024");
  CHECK(parseError(Expr::axis("Q").str(), e).str().find("Q") != std::string::npos);
}

TEST_CASE("splitAxes spells an axis as the digits of its parts", "[mapping][build]") {
  AxisEnv e = env({{"T", 512}, {"Q", 2048}, {"TB", 8}, {"TT", 4}, {"TQ", 16}, {"N", 8},
                   {"G", 2}, {"D", 128}, {"OC", 2}, {"U", 15}, {"A", 3}, {"B", 5}});
  AxisSplits s = {{"T", {{"TB", 8}, {"TT", 4}, {"TQ", 16}}}, {"Q", {{"N", 8}, {"G", 2}, {"D", 128}}}};
  auto split = [&](const std::string &text) -> std::optional<std::string> {
    auto out = splitAxes(parse(text, e), s);
    if (!out)
      return std::nullopt;
    parse(out->str(), e); // what it writes parses against the same axes (else a failure)
    return out->str();
  };
  // prefill_decoder's a over prefill_attention_first's axes.
  CHECK(split("T / 256") == "TB / 4");
  CHECK(split("[Q / 512, T % 256 / 128, Q % 512 / 16]") == "[N / 2, TB / 2 % 2, N % 2, G, D / 16]");
  CHECK(split("[T % 128, Q % 16]") == "[TB % 2, TT, TQ, D % 16]");
  CHECK(split("[OC, T]") == "[OC, TB, TT, TQ]"); // other axes as written
  CHECK(split("[1 # 2, T / 32 % 4]") == "[1 # 2, TB % 2, TT / 2]"); // across two parts
  CHECK(split("T / 16 % 4") == "TT");
  // Padded or ragged digits of a split axis have no spelling over the parts.
  CHECK_FALSE(split("T # 1024 / 256"));
  AxisSplits odd = {{"U", {{"A", 3}, {"B", 5}}}};
  CHECK(splitAxes(parse("U / 5", e), odd)->str() == "A");
  CHECK_FALSE(splitAxes(parse("U / 3", e), odd)); // a digit of 3 inside B's 5
}
