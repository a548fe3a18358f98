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

#include <chrono>
#include <cstdio>
#include <fstream>

namespace rngd::qwen3::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::string gigabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f GB", double(bytes) / 1e9);
  return text;
}

/// The shard's shape: the chip count must split the heads and the MLP (placement::shardQwen3's
/// rule), the shard's stages must place, and its HBM (weights, a KV cache for `positions`
/// positions, activations) must fit one chip. Refused before any weight is read.
Qwen3Config checkShard(const Options &opt, const Qwen3Config &model, int chips, int positions,
                       const TargetModel &target) {
  placement::Qwen3Shape shape, shard;
  shape.hidden = model.hiddenSize;
  shape.intermediate = model.intermediateSize;
  shape.heads = model.numHeads;
  shape.kvHeads = model.numKvHeads;
  shape.vocab = model.vocabSize;
  std::string err;
  if (!placement::shardQwen3(shape, chips, shard, err))
    fatal("--tensor-parallel " + std::to_string(chips) + ": " + err);
  Qwen3Config cfg = shardConfig(model, chips);
  cfg.numLayers = opt.layers;
  if (!checkPlacement(cfg, target, placement::tensorParallelStageNames(), 1, err))
    fatal("--tensor-parallel " + std::to_string(chips) + ": a chip's stages cannot be placed (" +
          std::to_string(cfg.numHeads) + " q / " + std::to_string(cfg.numKvHeads) +
          " kv heads, intermediate " + std::to_string(cfg.intermediateSize) + " per chip): " +
          err);
  HbmPlan plan = Pipeline::hbmPlan(cfg, positions, false, model.tieWordEmbeddings, {}, target);
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

/// The chip's stages, compiled into the cache: rank 0 first, then the others (a hit when the
/// ranks share the cache directory; compiled again on another host's disk).
std::string compileStages(const Qwen3Config &shard, const TargetModel &target, Collective &group) {
  const std::string dir = stageCacheDir(shard, target);
  int ok = 1;
  std::string err;
  for (int turn = 0; turn < 2; ++turn) {
    if ((group.rank() == 0) == (turn == 0))
      for (const std::string &stage : placement::tensorParallelStageNames())
        if (ok && !ensureStage(dir, shard, target, stage, 1, stage, err))
          ok = 0;
    if (turn == 0)
      group.broadcast(&ok, sizeof ok, 0);
    if (!ok)
      fatal(err.empty() ? std::string("rank 0 could not compile the stages") : err);
  }
  return dir;
}

/// Rank 0's output: the generated text (alone with --quiet), --json's object, the report.
void printResult(const Options &opt, const Pipeline &pipe, const Qwen3Config &model,
                 const GenerateResult &result, const std::string &text, int chips) {
  RunTotals totals;
  totals.promptTokens = int(opt.tokens.size());
  totals.newTokens = opt.maxNewTokens;
  totals.steps = result.steps;
  totals.generated = result.generated;
  totals.firstTokenCycles = result.firstTokenCycles;
  totals.firstTokenLaunches = result.firstTokenLaunches;
  totals.loopSeconds = result.loopSeconds;
  Qwen3Config run = model;
  run.numLayers = opt.layers;
  nlohmann::json rep = buildReport(pipe, Pipeline::tensorParallelStages(), run, totals);
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
  int32_t positions = int32_t(wanted);
  group.broadcast(&positions, sizeof positions, 0);
  if (positions < 1)
    fatal("no prompt: give --prompt TEXT or --token-ids");
  const Qwen3Config shardCfg = checkShard(opt, model, chips, positions, target);
  const std::unique_ptr<Weights> shard = loadShard(opt, model, rank, chips);
  const std::string dir = compileStages(shardCfg, target, group);
  TensorParallel tp;
  tp.collective = &group;
  tp.vocab = model.vocabSize;
  Pipeline pipe(dir, *shard, positions, false, {}, tp);
  if (rank != 0) {
    pipe.followSteps();
    return 0;
  }
  Session session(pipe, Pipeline::tensorParallelStages());
  Sampler sampler(opt.sampling);
  sampler.setPrompt(opt.tokens);
  GenerateOptions gen;
  gen.maxNewTokens = opt.maxNewTokens;
  gen.stopIds = stopTokenIds(opt.modelDir);
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
  printResult(opt, pipe, model, result, text, chips);
  return 0;
}

} // namespace rngd::qwen3::cli
