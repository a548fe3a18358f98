#include "qwen3/host/PromptsMode.h"

#include "qwen3/host/Reference.h"
#include "qwen3/host/StageCache.h"
#include "qwen3/host/Utf8Stream.h"

#include "compiler/placement/Qwen3StageList.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <sys/stat.h>

namespace rngd::qwen3 {

namespace {

/// The pool a run takes: for the maxBatch requests that need the most, their chunks, plus the
/// padding tokens' chunk.
int poolChunks(const std::vector<BatchRequest> &requests, int maxBatch) {
  std::vector<int> need;
  for (const BatchRequest &r : requests)
    need.push_back(Pipeline::kvChunks(int(r.prompt.size()) + std::max(0, r.maxNewTokens - 1)));
  std::sort(need.rbegin(), need.rend());
  int chunks = 1;
  for (size_t i = 0; i < need.size() && i < size_t(maxBatch); ++i)
    chunks += need[i];
  return chunks;
}

/// The prefill block sizes the run loads: all the generator's when they place, else none.
std::vector<int> prefillSizes(const Qwen3Config &cfg, bool noPrefill) {
  std::vector<int> sizes;
  if (noPrefill)
    return sizes;
  for (int64_t t : placement::prefillTokenCounts()) {
    std::string why;
    if (!checkPlacement(cfg, defaultTarget(), placement::prefillStageNames(), int(t), why)) {
      std::fprintf(stderr, "rngd-qwen3: note: the prompts run token by token: %s\n", why.c_str());
      return {};
    }
    sizes.push_back(int(t));
  }
  return sizes;
}

/// The batch block sizes up to the first that holds maxBatch sequences.
std::vector<int> batchSizes(int maxBatch) {
  std::vector<int> sizes;
  for (int64_t t : placement::batchTokenCounts()) {
    sizes.push_back(int(t));
    if (t >= maxBatch)
      break;
  }
  return sizes;
}

void ensure(const std::string &dir, const Qwen3Config &cfg, const std::string &stage, int tokens,
            const std::string &file, int pool = 1) {
  std::string err;
  if (!ensureStage(dir, cfg, defaultTarget(), stage, tokens, file, err, pool))
    throw std::runtime_error(err);
}

/// Generates and compiles (or finds in the cache) every stage the run loads.
void ensureStages(const std::string &dir, const Qwen3Config &cfg,
                  const std::vector<int> &prefill, const std::vector<int> &batch, int pool) {
  for (int s : Pipeline::stagesUsed(false))
    ensure(dir, cfg, kStages[s], 1, kStages[s]);
  for (int T : prefill)
    for (int s : Pipeline::prefillStagesUsed(/*withPartial=*/true))
      ensure(dir, cfg, kStages[s], T, Pipeline::stageFile(s, T));
  if (batch.empty())
    return;
  for (int T : batch)
    for (int s : {BatchProjection, BatchKvStore, BatchAttentionFirst, BatchAttentionNext,
                  BatchAttentionNorm, BatchDecoder, BatchFinalLayer})
      ensure(dir, cfg, stageKernel(s), T, Pipeline::batchStageFile(s, T, pool), pool);
  ensure(dir, cfg, kStages[KvCopy], batch.back(), Pipeline::stageFile(KvCopy, batch.back()));
}

nlohmann::json resultLine(size_t index, const BatchResult &r, const Tokenizer *tokenizer,
                          double ghz, const nlohmann::json &check) {
  nlohmann::json j = {{"index", index}};
  if (!r.error.empty()) {
    j["error"] = r.error;
    return j;
  }
  j["generated_ids"] = r.generated;
  std::string text, err;
  j["text"] = tokenizer && tokenizer->decode(r.generated, text, err)
                  ? nlohmann::json(utf8Lossy(text))
                  : nlohmann::json(nullptr);
  j["stop_reason"] = stopReasonName(r.reason);
  j["time_to_first_token"] = {{"cycles", r.firstTokenCycles},
                              {"ms", double(r.firstTokenCycles) / ghz / 1e6}};
  j["decode_cycles"] = r.decodeCycles;
  j["decode_steps"] = r.decodeSteps;
  j["cached_tokens"] = r.cachedTokens;
  if (!check.is_null())
    j["check"] = check;
  return j;
}

/// --check: the request's tokens through the whole-model reference; its last logits against
/// the device's (same top-1, cosine >= 0.999).
nlohmann::json checkRequest(const Weights &weights, const BatchRequest &q, const BatchResult &r) {
  ReferenceDecoder ref(weights.config(), weights, 2);
  std::vector<int> fed = q.prompt;
  fed.insert(fed.end(), r.generated.begin(), r.generated.end() - 1);
  std::vector<float> want;
  for (size_t i = 0; i < fed.size(); ++i)
    want = ref.step(fed[i], int(i));
  const std::vector<float> &got = r.lastLogits;
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    dot += double(want[i]) * got[i];
    na += double(want[i]) * want[i];
    nb += double(got[i]) * got[i];
  }
  const double cosine = dot / std::sqrt(na * nb);
  const int top = greedy(got), refTop = greedy(want);
  return {{"pass", top == refTop && cosine >= 0.999},
          {"cosine", cosine},
          {"top1", top},
          {"top1_reference", refTop}};
}

void writeLogits(const std::string &dir, size_t index, const std::vector<float> &logits) {
  const std::string path = dir + "/" + std::to_string(index) + ".f32";
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(logits.data()), std::streamsize(logits.size() * 4));
  if (!f)
    throw std::runtime_error("cannot write " + path);
}

nlohmann::json report(const Pipeline &pipe, const BatchScheduler &sched, int maxBatch,
                      size_t requests) {
  nlohmann::json stages = nlohmann::json::array(), steps = nlohmann::json::array();
  for (int s = 0; s < NumStages; ++s)
    if (pipe.stats(s).launches > 0)
      stages.push_back({{"stage", kStages[s]},
                        {"launches", pipe.stats(s).launches},
                        {"cycles", pipe.stats(s).cycles}});
  for (const DecodeStepRecord &d : sched.decodeSteps())
    steps.push_back({{"batch", d.batch}, {"cycles", d.cycles}});
  return {{"format", "rngd-qwen3-batch"}, {"version", 1},
          {"requests", requests},         {"max_batch", maxBatch},
          {"clock_ghz", pipe.device().target().coreClockGHz},
          {"stages", stages},             {"decode_steps", steps}};
}

} // namespace

BatchRuntime makeBatchRuntime(const Weights &weights, int maxBatch, int poolChunks,
                              bool noPrefill, bool prefixCache) {
  const Qwen3Config &cfg = weights.config();
  const std::vector<int> prefill = prefillSizes(cfg, noPrefill);
  const std::vector<int> batch = batchSizes(maxBatch);
  const std::string dir = stageCacheDir(cfg, defaultTarget());
  ensureStages(dir, cfg, prefill, batch, poolChunks);
  BatchRuntime rt;
  rt.pipe = std::make_unique<Pipeline>(dir, weights, poolChunks * kChunk, false, prefill);
  rt.pipe->enableBatch(dir, batch);
  rt.scheduler =
      std::make_unique<BatchScheduler>(*rt.pipe, maxBatch, !prefill.empty(), prefixCache);
  return rt;
}

std::unique_ptr<Pipeline> makeSequencePipeline(const Weights &weights, int positions,
                                               bool noPrefill) {
  const Qwen3Config &cfg = weights.config();
  const std::vector<int> prefill = prefillSizes(cfg, noPrefill);
  const std::string dir = stageCacheDir(cfg, defaultTarget());
  ensureStages(dir, cfg, prefill, {}, 1);
  return std::make_unique<Pipeline>(dir, weights, positions, false, prefill);
}

int runPromptsMode(const PromptsModeOptions &options, const Weights &weights,
                   const std::vector<BatchRequest> &requests, const Tokenizer *tokenizer) {
  BatchRuntime rt = makeBatchRuntime(weights, options.maxBatch,
                                     poolChunks(requests, options.maxBatch), options.noPrefill,
                                     options.prefixCache);
  Pipeline &pipe = *rt.pipe;
  BatchScheduler &sched = *rt.scheduler;
  if (!options.dumpLogitsDir.empty())
    mkdir(options.dumpLogitsDir.c_str(), 0777);

  // Lines in input order, each as soon as it and the ones before it are finished.
  std::vector<const BatchResult *> finished(requests.size(), nullptr);
  size_t printed = 0;
  int failed = 0;
  const double ghz = pipe.device().target().coreClockGHz;
  sched.run(requests, [&](size_t index, const BatchResult &r) {
    finished[index] = &r;
    for (; printed < finished.size() && finished[printed]; ++printed) {
      const BatchResult &p = *finished[printed];
      nlohmann::json check;
      if (options.check && p.error.empty()) {
        check = checkRequest(weights, requests[printed], p);
        failed += !check["pass"].get<bool>();
      }
      std::printf("%s\n", resultLine(printed, p, tokenizer, ghz, check).dump().c_str());
      if (!options.dumpLogitsDir.empty() && p.error.empty())
        writeLogits(options.dumpLogitsDir, printed, p.lastLogits);
      failed += !p.error.empty();
    }
    std::fflush(stdout);
  });
  if (!options.report.empty()) {
    std::ofstream f(options.report);
    f << report(pipe, sched, options.maxBatch, requests.size()).dump(2) << "\n";
    if (!f)
      throw std::runtime_error("cannot write " + options.report);
  }
  if (!options.quiet) {
    int64_t cycles = 0, tokens = 0;
    for (const DecodeStepRecord &d : sched.decodeSteps()) {
      cycles += d.cycles;
      tokens += d.batch;
    }
    std::fprintf(stderr,
                 "rngd-qwen3: %zu requests, max batch %d: %zu decode steps, %lld tokens in %lld "
                 "device cycles (%.1f tokens/s of device time)\n",
                 requests.size(), options.maxBatch, sched.decodeSteps().size(), (long long)tokens,
                 (long long)cycles, cycles ? double(tokens) * ghz * 1e9 / double(cycles) : 0.0);
  }
  return failed ? 1 : 0;
}

} // namespace rngd::qwen3
