// The sampler: greedy equivalences, reproducibility of a seed, a chi-square test of the draws
// against the softmax of fixed logits, and top-p keeping the smallest set that reaches p (also
// where a prefix's probability is exactly p).
#include "Helpers.h"

#include "qwen3/host/Sampler.h"

#include <cmath>

using namespace rngd::qwen3;

namespace {

std::vector<float> someLogits(int n, uint64_t seed) {
  std::vector<float> logits(n);
  for (int i = 0; i < n; ++i)
    logits[i] = float(6 * Sampler::uniform(seed, i) - 3);
  return logits;
}

} // namespace

TEST_CASE("sampler: top-k 1 and temperature 0 are greedy", "[qwen3][sampler]") {
  for (uint64_t s = 1; s <= 20; ++s) {
    std::vector<float> logits = someLogits(1000, s);
    int g = greedy(logits);
    Sampler zero({0.0, 0, 1.0, s}), k1({1.5, 1, 1.0, s});
    CHECK(zero.next(logits) == g);
    CHECK(k1.next(logits) == g);
  }
  CHECK(greedy({1.f, 3.f, 3.f, 2.f}) == 1); // lowest id on ties
}

TEST_CASE("sampler: a seed gives the same tokens twice", "[qwen3][sampler]") {
  std::vector<float> logits = someLogits(500, 7);
  Sampler a({0.8, 40, 0.95, 1234}), b({0.8, 40, 0.95, 1234}), c({0.8, 40, 0.95, 1235});
  std::vector<int> ta, tb, tc;
  for (int i = 0; i < 200; ++i) {
    ta.push_back(a.next(logits));
    tb.push_back(b.next(logits));
    tc.push_back(c.next(logits));
  }
  CHECK(ta == tb);
  CHECK(ta != tc);
}

TEST_CASE("sampler: chi-square of the draws against the softmax", "[qwen3][sampler]") {
  const std::vector<float> logits = {2.0f, 1.0f, 0.5f, 0.0f, -1.0f, 1.5f};
  const double temperature = 0.7;
  std::vector<double> p(logits.size());
  double sum = 0;
  for (size_t i = 0; i < p.size(); ++i)
    sum += p[i] = std::exp(logits[i] / temperature);
  Sampler s({temperature, 0, 1.0, 99});
  const int n = 60000;
  std::vector<int> counts(logits.size(), 0);
  for (int i = 0; i < n; ++i)
    ++counts[s.next(logits)];
  double chi2 = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    double expected = n * p[i] / sum;
    chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
  }
  INFO("chi-square " << chi2);
  CHECK(chi2 < 20.5); // 5 degrees of freedom: p = 0.001
}

TEST_CASE("sampler: top-p keeps the smallest set reaching p", "[qwen3][sampler]") {
  // Temperature 1: probabilities proportional to e^logit, here 0.5, 0.25, 0.125, 0.125.
  const std::vector<float> logits = {float(std::log(4.0)), float(std::log(2.0)), 0.f, 0.f};
  auto ids = [&](double topP) {
    std::vector<int> out;
    for (const auto &c : Sampler({1.0, 0, topP, 1}).candidates(logits))
      out.push_back(c.first);
    return out;
  };
  CHECK(ids(0.5) == std::vector<int>{0});
  CHECK(ids(0.6) == std::vector<int>{0, 1});
  CHECK(ids(0.8) == std::vector<int>{0, 1, 2});
  CHECK(ids(1.0) == std::vector<int>{0, 1, 2, 3});
  auto c = Sampler({1.0, 0, 0.6, 1}).candidates(logits);
  CHECK(c[0].second == Approx(2.0 / 3));
  // Top-k alone keeps k.
  CHECK(Sampler({1.0, 3, 1.0, 1}).candidates(logits).size() == 3);
}

TEST_CASE("sampler: top-p stops where the mass reaches p exactly", "[qwen3][sampler]") {
  // Equal logits give exact probabilities (every weight is e^0 = 1, the sum a small integer),
  // so a prefix's mass equals p exactly: "reaches p" keeps that prefix and stops (acc >= p);
  // a nucleus that stopped only above p (acc <= p to go on) would keep one token more.
  auto ids = [](const std::vector<float> &logits, double topP) {
    std::vector<int> out;
    for (const auto &c : Sampler({1.0, 0, topP, 1}).candidates(logits))
      out.push_back(c.first);
    return out;
  };
  const std::vector<float> two = {0.f, 0.f}, four = {0.f, 0.f, 0.f, 0.f};
  REQUIRE(Sampler({1.0, 0, 1.0, 1}).candidates(two)[0].second == 0.5);
  REQUIRE(Sampler({1.0, 0, 1.0, 1}).candidates(four)[0].second == 0.25);
  CHECK(ids(two, 0.5) == std::vector<int>{0});
  CHECK(ids(four, 0.25) == std::vector<int>{0});
  CHECK(ids(four, 0.5) == std::vector<int>{0, 1});
  CHECK(ids(four, 0.75) == std::vector<int>{0, 1, 2});
  // Just above the boundary the next token is needed.
  CHECK(ids(four, std::nextafter(0.5, 1.0)) == std::vector<int>{0, 1, 2});
  // The kept tokens are renormalised: two of four equal ones, 0.5 each.
  auto kept = Sampler({1.0, 0, 0.5, 1}).candidates(four);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].second == 0.5);
  CHECK(kept[1].second == 0.5);
}

TEST_CASE("sampler: presence and frequency penalties lower generated tokens", "[qwen3][sampler]") {
  // Greedy with a frequency penalty of 1: token 0 leads by 2.5 over token 1, so it is chosen
  // while its count is below 3, then token 1 (2 - 0 > 4.5 - 3).
  std::vector<float> logits = {4.5f, 2.0f, -1.0f};
  SamplingOptions o;
  o.frequencyPenalty = 1;
  Sampler s(o);
  std::vector<int> got;
  for (int i = 0; i < 4; ++i)
    got.push_back(s.next(logits));
  CHECK(got == std::vector<int>{0, 0, 0, 1});
  // Presence: subtracted once, whatever the count.
  SamplingOptions p;
  p.presencePenalty = 1.5;
  Sampler q(p);
  CHECK(q.next(logits) == 0);
  std::vector<float> after = q.penalised(logits);
  CHECK(after[0] == 3.0f);
  CHECK(after[1] == 2.0f);
  CHECK(q.next(logits) == 0); // 3.0 still leads
}

TEST_CASE("sampler: the repetition penalty divides positive and multiplies negative logits",
          "[qwen3][sampler]") {
  SamplingOptions o;
  o.repetitionPenalty = 2;
  Sampler s(o);
  s.setPrompt({1, 2, 7}); // 7 is out of range: ignored
  std::vector<float> out = s.penalised({3.0f, 4.0f, -1.0f, 0.5f});
  CHECK(out == std::vector<float>{3.0f, 2.0f, -2.0f, 0.5f});
  CHECK(s.next({3.0f, 4.0f, -1.0f, 0.5f}) == 0); // 3.0 beats the penalised 2.0
  CHECK(s.penalised({3.0f, 4.0f, -1.0f, 0.5f})[0] == 1.5f);
}

TEST_CASE("sampler: min-p keeps tokens at least min-p times the top probability",
          "[qwen3][sampler]") {
  // Probabilities proportional to 8, 4, 2, 1 (logits ln 8, ...): min-p 0.24 keeps 8, 4, 2
  // (2 / 8 = 0.25), min-p 0.26 keeps 8 and 4.
  std::vector<float> logits = {std::log(8.f), std::log(4.f), std::log(2.f), 0.f};
  SamplingOptions o;
  o.temperature = 1;
  o.minP = 0.24;
  auto c = Sampler(o).candidates(logits);
  REQUIRE(c.size() == 3);
  CHECK(c[0].second == Approx(8.0 / 14).epsilon(1e-6));
  o.minP = 0.26;
  CHECK(Sampler(o).candidates(logits).size() == 2);
}
