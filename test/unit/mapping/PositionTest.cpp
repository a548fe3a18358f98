// position() / digits() and their inverse relation.
#include "Helpers.h"

#include <map>

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

using Index = std::vector<std::pair<std::string, int64_t>>;

/// Logical index of a digit vector: x_axis = sum of digit * div over the factors of the axis.
Index indexOf(const Mapping &m, const std::vector<int64_t> &digits) {
  std::map<std::string, int64_t> x;
  for (size_t i = 0; i < m.factors().size(); ++i) {
    const Factor &f = m.factors()[i];
    if (!f.isConstant())
      x[f.axis] += digits[i] * f.div;
  }
  return Index(x.begin(), x.end());
}

/// Every non-padding position maps to an index that maps back to it, and the non-padding
/// positions are exactly `meaningful` many.
void checkInverse(const std::string &text, const AxisEnv &e, int64_t meaningful) {
  Mapping m = parse(text, e);
  INFO(text);
  int64_t held = 0;
  for (int64_t p = 0; p < m.size(); ++p) {
    std::optional<std::vector<int64_t>> d = m.digits(p);
    if (!d)
      continue;
    ++held;
    Index idx = indexOf(m, *d);
    INFO("position " << p);
    CHECK(m.position(idx) == p);
  }
  CHECK(held == meaningful);
}

} // namespace

TEST_CASE("position sums digit x stride", "[mapping][position]") {
  AxisEnv e = env({{"H", 1024}, {"A", 8}, {"B", 12}});
  Mapping slice = parse("[H / 4 # 256, H % 4]", e);
  CHECK(slice.position({{"H", 0}}) == 0);
  CHECK(slice.position({{"H", 5}}) == 5);
  CHECK(slice.position({{"H", 1023}}) == 1023);
  Mapping swapped = parse("[H % 4, H / 4]", e);
  CHECK(swapped.strides() == std::vector<int64_t>{256, 1});
  CHECK(swapped.position({{"H", 5}}) == 1 * 256 + 1);
  CHECK(swapped.position({{"H", 1023}}) == 3 * 256 + 255);

  Mapping ab = parse("[A, 1 # 2, B]", e);
  CHECK(ab.size() == 8 * 2 * 12);
  CHECK(ab.position({{"A", 3}, {"B", 7}}) == 3 * 24 + 7);
  CHECK(ab.position({{"B", 7}}) == 7);                      // missing axes are at 0
  CHECK(ab.position({{"A", 1}, {"B", 2}, {"Z", 9}}) == 26); // unused axes ignored
  CHECK_FALSE(ab.position({{"A", -1}}).has_value());
}

TEST_CASE("position: views and padded axis values", "[mapping][position]") {
  AxisEnv e = env({{"A", 8}, {"T", 10}});
  Mapping view = parse("[A / 4, A % 4 = 3]", e);
  CHECK(view.size() == 6);
  CHECK(view.position({{"A", 2}}) == 2);
  CHECK_FALSE(view.position({{"A", 3}}).has_value()); // outside `= 3`
  CHECK(view.position({{"A", 6}}) == 1 * 3 + 2);
  // A ceil block: T = 10 as [T / 4, T # 12 % 4] has 3 x 4 cells, the last two are padding.
  Mapping ceil = parse("[T / 4, T # 12 % 4]", e);
  CHECK(ceil.size() == 12);
  CHECK(ceil.position({{"T", 9}}) == 9);
  CHECK(ceil.position({{"T", 10}}) == 10); // a padded value still has a position
  // digits() checks each digit alone: T = 10 (2, 2) is a valid cell of the ragged last block.
  CHECK(ceil.digits(10) == std::vector<int64_t>{2, 2});
  CHECK(ceil.digits(9) == std::vector<int64_t>{2, 1});
  CHECK_FALSE(ceil.position({{"T", 12}}).has_value()); // beyond the cells
  Mapping block = parse("A / 4 = 1 # 2", e);           // only the first block held, 2 cells
  CHECK(block.position({{"A", 3}}) == 0);
  CHECK_FALSE(block.position({{"A", 4}}).has_value());
  CHECK_FALSE(block.digits(1).has_value());
}

TEST_CASE("digits: mixed radix, padding and range", "[mapping][position]") {
  AxisEnv e = env({{"A", 8}, {"B", 8}, {"C", 4}});
  Mapping buf = parse("[A, B, C # 8]", e);
  CHECK(buf.digits(0) == std::vector<int64_t>{0, 0, 0});
  CHECK(buf.digits(8 * 8 + 2 * 8 + 3) == std::vector<int64_t>{1, 2, 3});
  CHECK_FALSE(buf.digits(4).has_value()); // C padding
  CHECK_FALSE(buf.digits(-1).has_value());
  CHECK_FALSE(buf.digits(512).has_value());
  CHECK(buf.digits(511 - 4) == std::vector<int64_t>{7, 7, 3});
  Mapping constant = parse("[1 # 2, C]", e);
  CHECK(constant.digits(3) == std::vector<int64_t>{0, 3});
  CHECK_FALSE(constant.digits(4).has_value()); // the second cell of `1 # 2` is padding
}

TEST_CASE("position and digits are inverse on every held cell", "[mapping][position]") {
  AxisEnv e = env({{"A", 8}, {"B", 12}, {"C", 4}, {"T", 10}, {"D", 3}});
  checkInverse("[A, B]", e, 96);
  checkInverse("[A / 4, B, A % 4]", e, 96);
  checkInverse("[B % 3, A, B / 3]", e, 96);
  checkInverse("[1 # 2, A / 2 # 8, C # 8, A % 2]", e, 32);
  checkInverse("[T / 4, D, T # 12 % 4]", e, 30 + 6); // ceil blocks: T values 10, 11 have cells too
  checkInverse("[T # 16 / 4, T # 16 % 4]", e, 12);
  checkInverse("[B / 6, C, B / 2 % 3, B % 2]", e, 48);
  checkInverse("[A % 4 = 3, D # 4, A / 4]", e, 18);
}
