// A Session on a one-layer Qwen3-0.6B pipeline (seeded weights, stages compiled into a scratch
// cache): a second turn continues the first turn's sequence and its KV cache.
#include "qwen3/host/Reference.h"
#include "qwen3/host/SeededWeights.h"
#include "qwen3/host/Session.h"
#include "qwen3/host/StageCache.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace rngd::qwen3;

namespace {

/// The decode stages of `cfg` (and the prefill stages at `prefillSizes`), compiled into a cache
/// under the system temp directory.
std::string compiledStages(const Qwen3Config &cfg, const std::vector<int> &prefillSizes = {}) {
  const std::string root = (std::filesystem::temp_directory_path() /
                            ("rngd-session-test-" + std::to_string(::getuid())))
                               .string();
  ::setenv("RNGD_CACHE_DIR", root.c_str(), 1);
  const std::string dir = stageCacheDir(cfg, rngd::defaultTarget());
  std::string err;
  for (int s : Pipeline::stagesUsed(false))
    REQUIRE(ensureStage(dir, cfg, rngd::defaultTarget(), kStages[s], 1, kStages[s], err));
  for (int T : prefillSizes)
    for (int s : Pipeline::prefillStagesUsed(/*withPartial=*/true))
      REQUIRE(ensureStage(dir, cfg, rngd::defaultTarget(), kStages[s], T,
                          Pipeline::stageFile(s, T), err));
  return dir;
}

} // namespace

TEST_CASE("Session: a second turn continues the sequence and reuses its KV cache",
          "[session]") {
  Qwen3Config cfg; // Qwen3-0.6B's shape, one layer
  cfg.numLayers = 1;
  const Weights weights = seededWeights(cfg, 7, 2);
  const std::string dir = compiledStages(cfg);
  const std::vector<int> first = {11, 12, 13}, second = {14, 15};
  SamplingOptions greedy;
  GenerateOptions gen;
  gen.maxNewTokens = 1;

  // Two turns on one session.
  Pipeline twoTurns(dir, weights, 8);
  Session a(twoTurns, Pipeline::stagesUsed(false));
  Sampler s1(greedy);
  GenerateResult r1 = a.generate(first, gen, s1);
  CHECK(r1.fed == first);
  CHECK(r1.generated.size() == 1);
  CHECK(a.position() == 3);
  GenerateResult r2 = a.generate(second, gen, s1);
  CHECK(r2.fed == second);
  CHECK(a.position() == 5);
  CHECK(twoTurns.stats(Projection).launches == 5); // the first turn's tokens are not run again

  // One turn of both prompts on a fresh pipeline: the same last logits, bit for bit.
  Pipeline oneTurn(dir, weights, 8);
  Session b(oneTurn, Pipeline::stagesUsed(false));
  Sampler s2(greedy);
  std::vector<int> both = first;
  both.insert(both.end(), second.begin(), second.end());
  GenerateResult r3 = b.generate(both, gen, s2);
  REQUIRE(r3.logits.size() == r2.logits.size());
  CHECK(r3.logits == r2.logits);
  CHECK(r3.generated == r2.generated);

  CHECK_THROWS_WITH(b.generate({}, gen, s2), "a generation needs at least one prompt token");
}

TEST_CASE("Session: a second turn's prompt is prefilled from where the first ended",
          "[session]") {
  Qwen3Config cfg; // Qwen3-0.6B's shape, one layer
  cfg.numLayers = 1;
  const Weights weights = seededWeights(cfg, 11, 2);
  const std::string dir = compiledStages(cfg, {16, 32});
  const std::vector<int> first = {101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
                                  111, 112, 113, 114, 115, 116, 117, 118, 119, 120};
  const std::vector<int> second = {201, 202, 203, 204, 205, 206, 207, 208, 209, 210};
  SamplingOptions greedyOptions;
  GenerateOptions gen;
  gen.maxNewTokens = 1;
  gen.prefill = true;

  Pipeline pipe(dir, weights, 64, false, {16, 32});
  REQUIRE(pipe.partialPrefill());
  Session a(pipe, Pipeline::stagesUsed(false));
  Sampler sampler(greedyOptions);
  a.generate(first, gen, sampler); // positions 0..19: one block of 32
  GenerateResult r = a.generate(second, gen, sampler); // 20..29: a block of 16 at row 20
  CHECK(a.position() == 30);
  CHECK(pipe.stats(PrefillProjection).launches == 2);
  CHECK(pipe.stats(PrefillAttentionPartial).launches == 1); // rows 0..19 of the chunk
  CHECK(pipe.stats(Projection).launches == 0);              // no token ran as a decode step

  // The host reference over all 30 tokens: the same top-1, cosine >= 0.999.
  ReferenceDecoder ref(cfg, weights, 2);
  std::vector<float> want;
  std::vector<int> all = first;
  all.insert(all.end(), second.begin(), second.end());
  for (size_t i = 0; i < all.size(); ++i)
    want = ref.step(all[i], int(i));
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    dot += double(want[i]) * r.logits[i];
    na += double(want[i]) * want[i];
    nb += double(r.logits[i]) * r.logits[i];
  }
  CHECK(dot / std::sqrt(na * nb) >= 0.999);
  CHECK(greedy(r.logits) == greedy(want));
}
