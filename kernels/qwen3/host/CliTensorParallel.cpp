#include "qwen3/host/CliTensorParallel.h"

#include "qwen3/host/CliModel.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/Report.h"
#include "qwen3/host/Sampler.h"
#include "qwen3/host/Session.h"
#include "qwen3/host/ShardWeights.h"
#include "qwen3/host/StageCache.h"
#include "qwen3/host/TextStream.h"

#include "compiler/placement/Qwen3Shape.h"
#include "compiler/placement/Qwen3StageList.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace rngd::qwen3::cli {

namespace {

std::string gigabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f GB", double(bytes) / 1e9);
  return text;
}

/// The chip count must split the heads and the MLP (placement::shardQwen3's rule).
void checkSplit(const Qwen3Config &model, int chips) {
  placement::Qwen3Shape shard;
  std::string err;
  if (!placement::shardQwen3(shapeOf(model), chips, shard, err))
    fatal("--tensor-parallel " + std::to_string(chips) + ": " + err);
}

/// The prefill stages a prompt of n tokens needs on a chip: prefill_attention (the block's
/// queries over an earlier chunk) only past the first KV chunk.
std::vector<std::string> chipPrefillStages(int n) {
  std::vector<std::string> stages = placement::tensorParallelPrefillStageNames();
  if (n <= kChunk)
    stages.erase(std::find(stages.begin(), stages.end(), "prefill_attention"));
  return stages;
}

/// The prefill block sizes a prompt of n tokens runs in on a chip: the blocks of the generator's
/// sizes whose stages place for the shard. Empty: token by token.
std::vector<int> prefillSizes(const Options &opt, const Qwen3Config &shard, int n,
                              const TargetModel &target) {
  if (opt.noPrefill)
    return {};
  // The chip's prefill stages, and prefill_decoder, whose arguments size the block's buffers.
  std::vector<std::string> stages = chipPrefillStages(n);
  stages.push_back("prefill_decoder");
  std::vector<int> placed;
  std::string err;
  for (int64_t T : placement::prefillTokenCounts())
    if (checkPlacement(shard, target, stages, int(T), err))
      placed.push_back(int(T));
  if (placed.empty())
    return {};
  std::vector<int> blocks = Pipeline::prefillBlocks(n, placed);
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  return blocks;
}

/// The shard's shape (its split checked by checkSplit): its stages must place, and its HBM
/// (weights, a KV cache for `positions` positions, activations, the prefill's buffers at
/// `sizes`) must fit one chip. Refused before any weight is read.
Qwen3Config checkShard(const Options &opt, const Qwen3Config &model, int chips, int positions,
                       const std::vector<int> &sizes, const TargetModel &target) {
  std::string err;
  Qwen3Config cfg = shardConfig(model, chips);
  cfg.numLayers = opt.layers;
  if (!checkPlacement(cfg, target, placement::tensorParallelStageNames(), 1, err))
    fatal("--tensor-parallel " + std::to_string(chips) + ": a chip's stages cannot be placed (" +
          std::to_string(cfg.numHeads) + " q / " + std::to_string(cfg.numKvHeads) +
          " kv heads, intermediate " + std::to_string(cfg.intermediateSize) + " per chip): " +
          err);
  HbmPlan plan =
      Pipeline::hbmPlan(cfg, positions, false, model.tieWordEmbeddings, sizes, target, true);
  if (plan.total() > target.hbmCapacityBytes)
    fatal("--tensor-parallel " + std::to_string(chips) + ": a chip's shard needs " +
          gigabytes(plan.total()) + " of HBM (weights of " + std::to_string(opt.layers) +
          " layers and its LM head block " + gigabytes(plan.weights) + ", KV cache " +
          gigabytes(plan.kvCache) + ", activations " + gigabytes(plan.activations) +
          "), more than " + target.name + "'s " + gigabytes(target.hbmCapacityBytes) +
          "; use more chips or fewer --layers");
  return cfg;
}

/// This rank's shard of the weights: read from the checkpoint, or cut from seeded weights.
std::unique_ptr<Weights> loadShard(const Options &opt, const Qwen3Config &model, int rank,
                                   int chips) {
  if (opt.modelDir.empty()) {
    Qwen3Config run = model;
    run.numLayers = opt.layers;
    return seededShard(run, opt.weightSeed, rank, chips);
  }
  LoadOptions load;
  load.maxLayers = opt.layers;
  std::unique_ptr<Weights> shard;
  std::string err;
  if (!loadHfShard(opt.modelDir, load, rank, chips, shard, err))
    fatal("loading " + opt.modelDir + " (rank " + std::to_string(rank) + "): " + err);
  return shard;
}

/// The chip's stages (and its prefill stages at `sizes`), compiled into the cache: rank 0 first,
/// then the others (a hit when the ranks share the cache directory; compiled again on another
/// host's disk).
std::string compileStages(const Qwen3Config &shard, const std::vector<int> &sizes,
                          int promptTokens, const TargetModel &target, Collective &group) {
  const std::string dir = stageCacheDir(shard, target);
  std::vector<std::pair<std::string, int>> jobs; // (stage, tokens)
  for (const std::string &stage : placement::tensorParallelStageNames())
    jobs.push_back({stage, 1});
  for (int T : sizes)
    for (const std::string &stage : chipPrefillStages(promptTokens))
      jobs.push_back({stage, T});
  int ok = 1;
  std::string err;
  for (int turn = 0; turn < 2; ++turn) {
    if ((group.rank() == 0) == (turn == 0))
      for (const auto &[stage, T] : jobs)
        if (ok && !ensureStage(dir, shard, target, stage, T,
                               T == 1 ? stage : placement::prefillStageName(stage, T), err))
          ok = 0;
    if (turn == 0)
      group.broadcast(&ok, sizeof ok, 0);
    if (!ok)
      fatal(err.empty() ? std::string("rank 0 could not compile the stages") : err);
  }
  return dir;
}

/// Rank 0's output: the generated text (alone with --quiet), --json's object, the report.
void printResult(const Options &opt, const Pipeline &pipe, const std::vector<int> &stages,
                 const std::vector<int> &sizes,
                 const GenerateResult &result, const std::string &text, int chips) {
  RunTotals totals;
  totals.promptTokens = int(opt.tokens.size());
  totals.newTokens = opt.maxNewTokens;
  totals.steps = result.steps;
  totals.generated = result.generated;
  totals.firstTokenCycles = result.firstTokenCycles;
  totals.firstTokenLaunches = result.firstTokenLaunches;
  totals.loopSeconds = result.loopSeconds;
  if (!sizes.empty()) {
    totals.prefillTokens = totals.promptTokens;
    totals.prefillBlocks = Pipeline::prefillBlocks(totals.promptTokens, sizes);
    totals.prefillCycles = result.prefillCycles;
    totals.prefillLaunches = result.prefillLaunches;
  }
  // The chip's shape: the prefill's roofline counts one chip's share of the work.
  nlohmann::json rep = buildReport(pipe, stages, pipe.config(), totals);
  rep["tensor_parallel"] = chips;
  if (opt.json) {
    nlohmann::json j = {{"tensor_parallel", chips},
                        {"prompt_ids", opt.tokens},
                        {"generated", result.generated},
                        {"text", text},
                        {"stopped", result.stopped},
                        {"report", rep}};
    std::printf("%s\n", j.dump().c_str());
  } else if (opt.quiet) {
    std::printf("%s\n", text.c_str());
  } else {
    std::printf("output: %s\n", text.c_str());
    printStageTable(rep, stdout);
    printFirstToken(rep, stdout);
  }
  if (!opt.report.empty()) {
    std::ofstream f(opt.report);
    f << rep.dump(2) << "\n";
    if (!f)
      fatal("cannot write " + opt.report);
  }
  if (!opt.dumpLogits.empty()) {
    std::ofstream f(opt.dumpLogits, std::ios::binary);
    f.write(reinterpret_cast<const char *>(result.logits.data()),
            std::streamsize(result.logits.size() * 4));
    if (!f)
      fatal("cannot write " + opt.dumpLogits);
  }
}

} // namespace

int runTensorParallel(Options opt, Collective &group) {
  const int rank = group.rank(), chips = group.size();
  if (chips != opt.tensorParallel)
    fatal("--tensor-parallel " + std::to_string(opt.tensorParallel) + " but " +
          std::to_string(chips) + " MPI rank" + (chips == 1 ? "" : "s") +
          " started: run it as `mpirun -np " + std::to_string(opt.tensorParallel) +
          " rngd-qwen3 --tensor-parallel " + std::to_string(opt.tensorParallel) + " ...`");
  const Qwen3Config model = readModelConfig(opt);
  const TargetModel &target = defaultTarget();
  // Rank 0 owns the text: it encodes the prompt and tells the others how many positions the
  // run takes (each sizes its KV cache by it).
  std::unique_ptr<Tokenizer> tokenizer;
  if (rank == 0) {
    tokenizer = loadTokenizer(opt);
    if (opt.havePrompt)
      opt.tokens = encodePrompt(opt, *tokenizer);
    if (!opt.maxNewTokensGiven)
      opt.maxNewTokens = 256;
  }
  for (int t : opt.tokens) // rank 0's checks: its exit ends the others (MpiGroup)
    if (rank == 0 && (t < 0 || t >= model.vocabSize))
      fatal("token id " + std::to_string(t) + " out of range 0.." +
            std::to_string(model.vocabSize - 1));
  const long long wanted = (long long)opt.tokens.size() + std::max(0, opt.maxNewTokens - 1);
  if (rank == 0 && wanted > model.maxPositionEmbeddings)
    fatal("the prompt's " + std::to_string(opt.tokens.size()) + " tokens and " +
          std::to_string(opt.maxNewTokens) + " new take " + std::to_string(wanted) +
          " positions, more than the model's max_position_embeddings " +
          std::to_string(model.maxPositionEmbeddings));
  int32_t counts[2] = {int32_t(wanted), int32_t(opt.tokens.size())}; // positions, prompt
  group.broadcast(counts, sizeof counts, 0);
  const int positions = counts[0];
  if (positions < 1)
    fatal("no prompt: give --prompt TEXT or --token-ids");
  checkSplit(model, chips);
  Qwen3Config sizing = shardConfig(model, chips);
  sizing.numLayers = opt.layers;
  const std::vector<int> sizes = prefillSizes(opt, sizing, counts[1], target);
  const Qwen3Config shardCfg = checkShard(opt, model, chips, positions, sizes, target);
  const std::unique_ptr<Weights> shard = loadShard(opt, model, rank, chips);
  const std::string dir = compileStages(shardCfg, sizes, counts[1], target, group);
  TensorParallel tp;
  tp.collective = &group;
  tp.vocab = model.vocabSize;
  Pipeline pipe(dir, *shard, positions, false, sizes, tp);
  // The plan checkShard admitted the shard with is what the device allocated.
  const HbmPlan used = Pipeline::hbmPlan(shardCfg, positions, false, model.tieWordEmbeddings,
                                         sizes, target, true);
  if (pipe.device().hbmUsed() != used.total())
    throw std::runtime_error("internal error: the chip's HBM in use, " +
                             std::to_string(pipe.device().hbmUsed()) +
                             " bytes, differs from Pipeline::hbmPlan's " +
                             std::to_string(used.total()));
  if (rank != 0) {
    pipe.followSteps();
    return 0;
  }
  std::vector<int> stages = Pipeline::tensorParallelStages();
  if (!sizes.empty())
    for (int s : pipe.prefillStages())
      stages.push_back(s);
  Session session(pipe, stages);
  Sampler sampler(opt.sampling);
  sampler.setPrompt(opt.tokens);
  GenerateOptions gen;
  gen.maxNewTokens = opt.maxNewTokens;
  gen.stopIds = stopTokenIds(opt.modelDir);
  gen.prefill = !sizes.empty();
  std::unique_ptr<TextStream> stream =
      tokenizer ? std::make_unique<TextStream>(*tokenizer, opt.stops) : nullptr;
  std::string text;
  GenerateCallbacks cb;
  cb.token = [&](int token, bool stop) {
    if (stream && !stop)
      text += stream->push(token);
  };
  cb.keepGoing = [&] { return !stream || !stream->stopped(); };
  const GenerateResult result = session.generate(opt.tokens, gen, sampler, cb);
  pipe.endFollowers();
  if (stream)
    text += stream->finish();
  printResult(opt, pipe, stages, sizes, result, text, chips);
  return 0;
}

} // namespace rngd::qwen3::cli
