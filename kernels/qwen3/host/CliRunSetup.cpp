#include "qwen3/host/CliRunSetup.h"

#include "qwen3/host/Bf16.h"
#include "qwen3/host/Reference.h"
#include "qwen3/host/SeededWeights.h"
#include "qwen3/host/StageCache.h"
#include "qwen3/host/StageOracle.h"

#include "compiler/placement/Qwen3StageList.h"

#include "rngd/machine/TargetModel.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace rngd::qwen3::cli {

namespace {

using Clock = std::chrono::steady_clock;

bool fileExists(const std::string &p) { return access(p.c_str(), R_OK) == 0; }

int argmax(const std::vector<float> &v) {
  int best = 0;
  for (int i = 1; i < int(v.size()); ++i)
    if (v[i] > v[best])
      best = i;
  return best;
}

double cosine(const std::vector<float> &a, const std::vector<float> &b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += double(a[i]) * b[i];
    aa += double(a[i]) * a[i];
    bb += double(b[i]) * b[i];
  }
  if (aa == 0 || bb == 0)
    return 0;
  return ab / std::sqrt(aa * bb);
}

/// The seeded KV prefix of --start-pos: element i of layer L's key (value) rows is
/// bf16(seededNormal(seed, "kv_prefix.layers.L.k" ("...v"), i)), i = position * kvDim + j.
std::vector<uint16_t> seededCacheRows(uint64_t seed, int layer, char kind, int length, int kvDim,
                                      int threads) {
  std::string name = "kv_prefix.layers." + std::to_string(layer) + "." + kind;
  size_t n = size_t(length) * kvDim;
  std::vector<uint16_t> out(n);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t i = t; i < n; i += size_t(threads))
        out[i] = doubleToBf16(seededNormal(seed, name, i));
    });
  for (auto &th : pool)
    th.join();
  return out;
}




std::string bytesText(uint64_t bytes) {
  char buf[64];
  if (bytes >= 1000000000)
    std::snprintf(buf, sizeof buf, "%.3f GB", double(bytes) / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.3f MB", double(bytes) / 1e6);
  return std::to_string(bytes) + " bytes (" + buf + ")";
}

/// How many prompt tokens the prefill stages take (all, in blocks of 512 from position 0): 0,
/// with `why` saying why, when they cannot (a start position, other dimensions, --kernels DIR
/// without their files, or device HBM), or when --no-prefill turned them off (`why` empty).
PrefillChoice prefillTokens(const Options &opt, const Qwen3Config &config) {
  PrefillChoice c;
  if (opt.noPrefill || opt.tokens.empty())
    return c;
  Qwen3Config run = config;
  run.numLayers = opt.layers;
  // --prefill-block 512: whole chunks only; by default the last block is the smallest size
  // that covers what remains.
  std::vector<int> sizes;
  for (int64_t t : rngd::placement::prefillTokenCounts())
    if (!opt.prefillGiven || t == kChunk)
      sizes.push_back(int(t));
  c.blocks = Pipeline::prefillBlocks(int(opt.tokens.size()), sizes);
  c.sizes = c.blocks;
  std::sort(c.sizes.begin(), c.sizes.end());
  c.sizes.erase(std::unique(c.sizes.begin(), c.sizes.end()), c.sizes.end());
  if (opt.startPos > 0)
    c.why = "the prefill stages start at position 0 (--start-pos " +
            std::to_string(opt.startPos) + ")";
  if (c.why.empty() && opt.kernelsDir.empty())
    for (int T : c.sizes) {
      std::string rule;
      if (c.why.empty() &&
          !checkPlacement(run, rngd::defaultTarget(), rngd::placement::prefillStageNames(), T,
                          rule))
        c.why = "the prefill stages cannot be placed for this model: " + rule;
      c.unplaced = !c.why.empty();
    }
  if (c.why.empty() && !opt.kernelsDir.empty())
    for (int T : c.sizes)
      for (int s : Pipeline::prefillStagesUsed()) {
        std::string path = opt.kernelsDir + "/" + Pipeline::stageFile(s, T) + ".rngd";
        if (c.why.empty() && !fileExists(path))
          c.why = "kernel file " + path + " not found (rngd-stagegen writes " +
                  Pipeline::stageFile(s, T) + ".mlir; compile it with rngdc)";
      }
  if (c.why.empty()) {
    const rngd::TargetModel &target = rngd::defaultTarget();
    HbmPlan plan = Pipeline::hbmPlan(run, int(positionsNeeded(opt)), opt.deviceLookup,
                                     run.tieWordEmbeddings, c.sizes, target);
    if (plan.total() > target.hbmCapacityBytes)
      c.why = "with the prefill stages' weights and buffers the run needs " +
              bytesText(plan.total()) + " of device HBM, more than " + target.name + "'s " +
              bytesText(target.hbmCapacityBytes);
  }
  if (!c.why.empty()) {
    c.blocks.clear();
    c.sizes.clear();
  } else {
    c.tokens = int(opt.tokens.size());
  }
  return c;
}

} // namespace

long long positionsNeeded(const Options &opt) {
  return (long long)opt.startPos + (long long)opt.tokens.size() +
         std::max(0LL, (long long)opt.maxNewTokens - 1);
}

/// The sizes a user controls, checked once the prompt's length and the model's config are known
/// and before any weight is read or device memory allocated: the positions against the KV cache
/// (and the checkpoint's max_position_embeddings), then the device HBM the run takes with or
/// without the prefill stages, whichever it chooses (returned).
PrefillChoice checkLimits(const Options &opt, const Qwen3Config &config, bool fromCheckpoint) {
  const long long need = positionsNeeded(opt);
  const std::string what = "--start-pos " + std::to_string(opt.startPos) + " + " +
                           std::to_string(opt.tokens.size()) + " prompt tokens + --max-new-tokens " +
                           std::to_string(opt.maxNewTokens) + " need " + std::to_string(need) +
                           " positions";
  if (need > kMaxPositions)
    fatal(what + ", more than the " + std::to_string(kMaxPositions) +
          " the KV cache holds (" + std::to_string(kMaxPositions / kChunk) + " chunks of " +
          std::to_string(kChunk) + " per layer)" +
          (config.maxPositionEmbeddings > kMaxPositions
               ? "; " + std::string(fromCheckpoint ? "the checkpoint's" : "Qwen3's") +
                     " max_position_embeddings is " + std::to_string(config.maxPositionEmbeddings)
               : std::string()));
  if (need > config.maxPositionEmbeddings)
    fatal(what + ", more than the checkpoint's max_position_embeddings " +
          std::to_string(config.maxPositionEmbeddings) + " (config.json)");
  Qwen3Config run = config;
  run.numLayers = opt.layers;
  const rngd::TargetModel &target = rngd::defaultTarget();
  PrefillChoice prefill = prefillTokens(opt, config);
  HbmPlan plan = Pipeline::hbmPlan(run, int(need), opt.deviceLookup, run.tieWordEmbeddings,
                                   prefill.sizes, target);
  if (plan.total() > target.hbmCapacityBytes)
    fatal("the run needs " + bytesText(plan.total()) + " of device HBM (weights of " +
          std::to_string(opt.layers) + " layers and the LM head " + bytesText(plan.weights) +
          ", KV cache " + bytesText(plan.kvCache) + " in " +
          std::to_string((need + kChunk - 1) / kChunk) + " chunk(s) of " + std::to_string(kChunk) +
          " positions per layer" +
          ", activations " + bytesText(plan.activations) + "), more than " + target.name + "'s " +
          bytesText(target.hbmCapacityBytes) +
          (fromCheckpoint ? "; the checkpoint has " + std::to_string(config.numLayers) +
                                " layers (give --layers N to run fewer)"
                          : std::string()));
  return prefill;
}

std::string runKernels(const Options &opt, const Qwen3Config &cfg, const PrefillChoice &prefill) {
  if (!opt.kernelsDir.empty())
    return opt.kernelsDir;
  const std::string kdir = stageCacheDir(cfg, rngd::defaultTarget());
  std::string err;
  for (int s : Pipeline::stagesUsed(opt.deviceLookup))
    if (!ensureStage(kdir, cfg, rngd::defaultTarget(), kStages[s], 1, kStages[s], err))
      fatal(err);
  for (int T : prefill.sizes)
    for (int s : Pipeline::prefillStagesUsed())
      if (!ensureStage(kdir, cfg, rngd::defaultTarget(), kStages[s], T,
                       Pipeline::stageFile(s, T), err))
        fatal(err);
  if (opt.keepKernels)
    std::fprintf(stderr, "rngd-qwen3: kernels in %s\n", kdir.c_str());
  return kdir;
}

StartRows preloadStartRows(const Options &opt, Pipeline &pipe, const Qwen3Config &cfg,
                           int threads) {
  const bool plain = !opt.quiet && !opt.json;
  StartRows rows;
  auto tp = Clock::now();
  for (int L = 0; L < cfg.numLayers; ++L) {
    auto k = seededCacheRows(opt.weightSeed, L, 'k', opt.startPos, cfg.kvDim(), threads);
    auto v = seededCacheRows(opt.weightSeed, L, 'v', opt.startPos, cfg.kvDim(), threads);
    pipe.preloadCache(L, opt.startPos, k, v);
    if (opt.check) {
      rows.keys.emplace_back(k.size());
      rows.values.emplace_back(v.size());
      for (size_t i = 0; i < k.size(); ++i) {
        rows.keys.back()[i] = bf16ToFloat(k[i]);
        rows.values.back()[i] = bf16ToFloat(v[i]);
      }
    }
  }
  if (plain)
    std::printf("start position %d: KV rows 0..%d of every layer are seeded random bf16 (std "
                "1, %.2f s)\n",
                opt.startPos, opt.startPos - 1,
                std::chrono::duration<double>(Clock::now() - tp).count());
  return rows;
}

nlohmann::json checkAgainstReference(const Options &opt, const Weights &weights,
                                     const Pipeline *pipe, const std::vector<int> &stages,
                                     const std::vector<int> &fed, const std::vector<float> &logits,
                                     StartRows rows, int threads) {
  const bool plain = !opt.quiet && !opt.json;
  const Qwen3Config &cfg = weights.config();
  const int P0 = opt.startPos, promptLen = int(opt.tokens.size());
  auto tr = Clock::now();
  ReferenceDecoder ref(cfg, weights, threads);
  if (P0 > 0)
    ref.preloadCache(P0, std::move(rows.keys), std::move(rows.values));
  std::vector<float> refLogits;
  int stepMismatches = 0, logitSteps = 0;
  for (int i = 0; i < int(fed.size()); ++i) {
    refLogits = ref.step(fed[i], P0 + i);
    if (i >= promptLen - 1 && i + 1 < int(fed.size())) {
      // The token the simulator chose after this step is fed next.
      ++logitSteps;
      if (argmax(refLogits) != fed[i + 1])
        ++stepMismatches;
    }
  }
  double refSeconds = std::chrono::duration<double>(Clock::now() - tr).count();
  int simTop = argmax(logits), refTop = argmax(refLogits);
  double cs = cosine(logits, refLogits);
  double maxAbs = 0;
  for (size_t i = 0; i < logits.size(); ++i)
    maxAbs = std::max(maxAbs, std::fabs(double(logits[i]) - refLogits[i]));
  bool ok = simTop == refTop && cs >= 0.999;
  if (plain) {
    std::printf("\nboundary check (every launch against the host oracle; reference rule: >= "
                "99.5 %% of elements within max(1 %% |expected|, 2^-8)):\n");
    std::printf("%-25s %9s %12s %9s %8s  %s\n", "stage", "launches", "elements", "within",
                "failed", "worst |diff| (expected, actual)");
  }
  nlohmann::json jboundary = nlohmann::json::array();
  for (int s : stages) {
    const oracle::RuleCount &c = pipe->boundaryCheck(s);
    if (plain)
      std::printf("%-25s %9lld %12lld %8.3f%% %8d  %.4g (%.4g, %.4g)\n", kStages[s],
                  (long long)pipe->stats(s).launches, (long long)c.elements, c.percent(),
                  pipe->failedLaunches(s), c.worstDiff, c.worstExpected, c.worstActual);
    jboundary.push_back({{"stage", kStages[s]},
                         {"launches", pipe->stats(s).launches},
                         {"elements", c.elements},
                         {"within_percent", c.percent()},
                         {"failed_launches", pipe->failedLaunches(s)},
                         {"worst_abs_diff", c.worstDiff}});
    if (pipe->failedLaunches(s) > 0)
      ok = false;
  }
  if (plain) {
    std::printf("\ncheck (last step, pos %d, %zu tokens, reference %.2f s):\n",
                P0 + int(fed.size()) - 1, fed.size(), refSeconds);
    std::printf("  top-1: simulator %d (%.4f), reference %d (%.4f)\n", simTop, logits[simTop],
                refTop, refLogits[refTop]);
    std::printf("  cosine similarity: %.6f (threshold 0.999), max |diff| %.4f\n", cs, maxAbs);
    if (logitSteps > 0)
      std::printf("  earlier steps: reference top-1 equals the generated token on %d/%d\n",
                  logitSteps - stepMismatches, logitSteps);
    std::printf("check: %s\n", ok ? "PASS" : "FAIL");
  } else {
    std::fprintf(stderr, "check: %s (top-1 simulator %d, reference %d; cosine %.6f)\n",
                 ok ? "PASS" : "FAIL", simTop, refTop, cs);
  }
  return {{"pass", ok},
          {"top1_simulator", simTop},
          {"top1_reference", refTop},
          {"cosine", cs},
          {"max_abs_diff", maxAbs},
          {"reference_seconds", refSeconds},
          {"boundary", jboundary}};
}

} // namespace rngd::qwen3::cli
