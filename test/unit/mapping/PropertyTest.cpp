// Brute-force cross-checks on random layouts: the derived loop nests must visit exactly the
// addresses that position() gives for every logical index.
#include "Helpers.h"

#include <algorithm>
#include <map>
#include <optional>
#include <random>

using namespace rngd::mapping;
using namespace rngd::mapping::test;

namespace {

using Index = std::vector<std::pair<std::string, int64_t>>;

/// Ways to split each axis (A = 8, B = 6, C = 2) into factors, major first.
const std::map<std::string, std::vector<std::vector<std::string>>> kSplits = {
    {"A", {{"A"}, {"A / 2", "A % 2"}, {"A / 4", "A / 2 % 2", "A % 2"}, {"A / 4", "A % 4"}}},
    {"B", {{"B"}, {"B / 2", "B % 2"}, {"B / 3", "B % 3"}}},
    {"C", {{"C"}, {"C # 4"}}},
};

std::vector<std::string> randomFactors(std::mt19937 &rng, bool constants) {
  std::vector<std::string> out;
  for (const auto &[axis, splits] : kSplits)
    for (const std::string &f : splits[rng() % splits.size()])
      out.push_back(f);
  if (constants && rng() % 2)
    out.push_back("1 # 2");
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

std::string join(const std::vector<std::string> &fs, size_t begin, size_t end) {
  if (begin == end)
    return "1";
  std::string s = "[";
  for (size_t i = begin; i < end; ++i)
    s += (i > begin ? ", " : "") + fs[i];
  return s + "]";
}

/// Odometer walk of a loop nest, outer to inner.
std::vector<int64_t> walk(const std::vector<Loop> &loops) {
  std::vector<int64_t> out{0};
  for (const Loop &l : loops) {
    std::vector<int64_t> next;
    for (int64_t base : out)
      for (int64_t i = 0; i < l.size; ++i)
        next.push_back(base + i * l.stride);
    out.swap(next);
  }
  return out;
}

Index indexOf(const Mapping &m, const std::vector<int64_t> &digits, Index idx) {
  for (size_t i = 0; i < m.factors().size(); ++i) {
    const Factor &f = m.factors()[i];
    if (f.isConstant())
      continue;
    for (auto &kv : idx)
      if (kv.first == f.axis)
        kv.second += digits[i] * f.div;
  }
  return idx;
}

} // namespace

TEST_CASE("property: element nests read what position() says", "[mapping][property]") {
  AxisEnv e = env({{"A", 8}, {"B", 6}, {"C", 2}});
  std::mt19937 rng(7);
  int derived = 0, rejected = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<std::string> b = randomFactors(rng, true);
    Mapping buf = parse(join(b, 0, b.size()), e);
    std::vector<std::string> s = randomFactors(rng, false);
    size_t cut = 1 + rng() % (s.size() - 1);
    Mapping time = parse(join(s, 0, cut), e), packet = parse(join(s, cut, s.size()), e);
    INFO("buffer " << buf.str() << ", time " << time.str() << ", packet " << packet.str());
    Error err;
    std::optional<std::vector<Loop>> nest = deriveElementNest(buf, time, packet, err);
    if (!nest) {
      CHECK(err.message.find("incompatible decomposition") != std::string::npos);
      ++rejected;
      continue;
    }
    ++derived;
    std::vector<int64_t> addrs = walk(*nest);
    REQUIRE(int64_t(addrs.size()) == time.size() * packet.size());
    for (int64_t t = 0; t < time.size(); ++t)
      for (int64_t p = 0; p < packet.size(); ++p) {
        auto td = time.digits(t), pd = packet.digits(p);
        if (!td || !pd)
          continue; // stream padding reads whatever is there
        Index idx = indexOf(packet, *pd, indexOf(time, *td, {{"A", 0}, {"B", 0}, {"C", 0}}));
        std::optional<int64_t> expect = buf.position(idx);
        REQUIRE(expect.has_value());
        CHECK(addrs[t * packet.size() + p] == *expect);
      }
  }
  CHECK(derived > 100);
  CHECK(rejected > 10);
}

TEST_CASE("property: DMA plans move every element to its place", "[mapping][property]") {
  AxisEnv e = env({{"A", 8}, {"B", 6}, {"C", 2}});
  const int64_t elem = 2;
  std::mt19937 rng(11);
  int derived = 0;
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<std::string> sf = randomFactors(rng, true);
    Mapping s = parse(join(sf, 0, sf.size()), e);
    std::vector<std::string> d = randomFactors(rng, true);
    size_t cut = rng() % d.size();
    Mapping outer = parse(join(d, 0, cut), e), inner = parse(join(d, cut, d.size()), e);
    // Destination: two levels, the outer one with a gap after each inner block.
    std::vector<Level> src = {Level{s, elem}};
    std::vector<Level> dst = {Level{outer, inner.size() * elem + 16}, Level{inner, elem}};
    INFO("src " << s.str() << " -> dst " << outer.str() << " | " << inner.str());
    Error err;
    std::optional<DmaPlan> plan =
        deriveDma(src, dst, {"A", "B", "C"}, elem, 4096, 8, e,
                  rng() % 2 ? DmaOrder::SrcMajor : DmaOrder::DstMajor, err);
    if (!plan) {
      CHECK(err.message.find("incompatible decomposition") != std::string::npos);
      continue;
    }
    ++derived;
    std::vector<Loop> srcLoops, dstLoops;
    for (const auto &l : plan->loops) {
      srcLoops.push_back({l.size, l.srcStride});
      dstLoops.push_back({l.size, l.dstStride});
    }
    std::vector<int64_t> sa = walk(srcLoops), da = walk(dstLoops);
    std::vector<std::pair<int64_t, int64_t>> moved, expected;
    for (size_t i = 0; i < sa.size(); ++i)
      for (int64_t b = 0; b < plan->packetBytes; b += elem)
        moved.push_back({sa[i] + b, da[i] + b});
    for (int64_t a = 0; a < 8; ++a)
      for (int64_t b = 0; b < 6; ++b)
        for (int64_t c = 0; c < 2; ++c) {
          Index idx = {{"A", a}, {"B", b}, {"C", c}};
          expected.push_back(
              {*s.position(idx) * elem,
               *outer.position(idx) * (inner.size() * elem + 16) + *inner.position(idx) * elem});
        }
    std::sort(moved.begin(), moved.end());
    std::sort(expected.begin(), expected.end());
    CHECK(moved == expected);
  }
  CHECK(derived > 100);
}

TEST_CASE("property: sameOrder agrees with comparing every position", "[mapping][property]") {
  AxisEnv e = env({{"A", 8}, {"B", 6}, {"C", 2}});
  std::mt19937 rng(13);
  // The logical index at each position, or nothing for padding, walked independently of
  // sameOrder.
  auto positions = [](const Mapping &m) {
    std::vector<std::optional<Index>> out;
    for (int64_t p = 0; p < m.size(); ++p) {
      auto d = m.digits(p);
      out.push_back(d ? std::optional<Index>(indexOf(m, *d, {{"A", 0}, {"B", 0}, {"C", 0}}))
                      : std::nullopt);
    }
    return out;
  };
  int same = 0, different = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::vector<std::string> fa = randomFactors(rng, true), fb = randomFactors(rng, true);
    // Half the time the second mapping keeps the first one's axis order (often the same
    // order, factored differently).
    if (rng() % 2) {
      fb = fa;
      if (rng() % 2 && fb.size() > 1)
        std::swap(fb[rng() % fb.size()], fb[rng() % fb.size()]);
    }
    Mapping a = parse(join(fa, 0, fa.size()), e), b = parse(join(fb, 0, fb.size()), e);
    INFO(a.str() << " vs " << b.str());
    bool expect = positions(a) == positions(b);
    CHECK(sameOrder(a, b) == expect);
    (expect ? same : different)++;
  }
  // Factored differently, the same order.
  CHECK(sameOrder(parse("A", e), parse("[A / 4, A / 2 % 2, A % 2]", e)));
  CHECK(sameOrder(parse("[A / 2, A % 2, B]", e), parse("[A, B / 3, B % 3]", e)));
  CHECK_FALSE(sameOrder(parse("[A, B]", e), parse("[B, A]", e)));
  CHECK_FALSE(sameOrder(parse("C # 4", e), parse("[C, 1 # 2]", e)));
  CHECK(same > 50);
  CHECK(different > 50);
}

TEST_CASE("property: heldEnd is one past the last position that holds a cell",
          "[mapping][property]") {
  AxisEnv e = env({{"A", 8}, {"B", 6}, {"C", 2}});
  // Factors with padding (`# n`), views (`= n`) and constants, placed anywhere.
  const std::vector<std::string> pieces = {"A",         "A # 12",     "A = 5",  "A / 2",
                                           "A % 2 # 3", "B",          "B # 8",  "B / 3 # 4",
                                           "B % 3",     "C",          "C # 4",  "1 # 3",
                                           "1"};
  std::mt19937 rng(29);
  auto bruteForce = [](const Mapping &m) {
    int64_t end = m.size();
    while (end > 0 && !m.digits(end - 1))
      --end;
    return end;
  };
  int padded = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<std::string> fs;
    for (size_t n = 1 + rng() % 3; fs.size() < n;) {
      const std::string &p = pieces[rng() % pieces.size()];
      if (std::none_of(fs.begin(), fs.end(), [&](const std::string &f) { return f[0] == p[0]; }) ||
          p[0] == '1')
        fs.push_back(p);
    }
    Error err;
    std::optional<Mapping> m = Mapping::parse(join(fs, 0, fs.size()), e, err);
    if (!m)
      continue;
    INFO(m->str());
    CHECK(m->heldEnd() == bruteForce(*m));
    padded += m->heldEnd() < m->size();
  }
  CHECK(padded > 50);
  // At the cell limit, padded at the end: computed, not walked (2^32 - 2^31 padding cells).
  Mapping big = parse("[A, B # 536870912]", env({{"A", 8}, {"B", 268435456}}));
  CHECK(big.size() == kMaxCells);
  CHECK(big.heldEnd() == int64_t(7) * 536870912 + 268435456);
  CHECK(parse("A = 5", e).heldEnd() == 5);
  CHECK(parse("[A # 12, 1 # 3]", e).heldEnd() == 7 * 3 + 1);
}
