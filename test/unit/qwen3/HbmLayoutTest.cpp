// HbmLayout: element offsets from an argument's mapping, against the formulas the prefill
// stages' HBM layouts are written as.
#include "qwen3/host/HbmLayout.h"

#include <catch2/catch.hpp>

using rngd::ArgInfo;
using rngd::qwen3::HbmLayout;

namespace {

ArgInfo arg(const std::string &name, const std::string &mapping) {
  ArgInfo a;
  a.name = name;
  a.mapping = mapping;
  return a;
}

} // namespace

TEST_CASE("a blocked [T, H] layout") {
  // x [T, H]: [T / 256, T % 256 / 64, H / 16, T % 64, H % 16], T = 512, H = 1024.
  HbmLayout x = HbmLayout::of(arg("x", "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]"),
                              {{"T", 512}, {"H", 1024}});
  CHECK(x.cells() == 512 * 1024);
  for (int64_t t : {0, 1, 63, 64, 255, 256, 511})
    for (int64_t h : {0, 15, 16, 1023}) {
      size_t want = size_t((((t / 256 * 4 + t % 256 / 64) * 64 + h / 16) * 64 + t % 64) * 16 +
                           h % 16);
      CHECK(x.at({t, h}) == want);
    }
}

TEST_CASE("axes the mapping lacks do not move the offset; padding counts in cells") {
  HbmLayout v = HbmLayout::of(arg("logits", "W # 24"), {{"W", 20}, {"T", 4}});
  CHECK(v.cells() == 24);
  CHECK(v.at({19, 3}) == 19);
}

TEST_CASE("a mapping over an axis the host does not give is refused, naming the argument") {
  CHECK_THROWS_WITH(HbmLayout::of(arg("q_out", "[T, Q]"), {{"T", 8}}),
                    Catch::Contains("argument q_out's mapping \"[T, Q]\""));
  // A view holds only part of its axis: the host's index range is larger than the buffer.
  CHECK_THROWS_WITH(HbmLayout::of(arg("x", "H = 8"), {{"H", 16}}),
                    Catch::Contains("argument x's mapping \"H = 8\" holds no cell for H = 8"));
}

TEST_CASE("whole axes: a table's axes and sizes from its mapping and shape") {
  ArgInfo mask = arg("tile_mask", "[TB, SB, TQ]");
  mask.shape = {8, 8, 16};
  auto axes = HbmLayout::wholeAxes(mask);
  REQUIRE(axes.size() == 3);
  CHECK(axes[0] == std::pair<std::string, int64_t>("TB", 8));
  CHECK(axes[2] == std::pair<std::string, int64_t>("TQ", 16));
  ArgInfo one = arg("tile_mask", "TQ");
  one.shape = {16};
  CHECK(HbmLayout::wholeAxes(one).front().second == 16);
  ArgInfo split = arg("x", "[T / 8, H]");
  split.shape = {2, 1024};
  CHECK_THROWS_WITH(HbmLayout::wholeAxes(split), Catch::Contains("not whole axes"));
}
