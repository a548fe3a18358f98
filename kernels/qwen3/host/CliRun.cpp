// rngd-qwen3's runs (docs/qwen3.md): one prompt through the pipeline (prefill, decode, the
// report, --check against the reference decoder), or --prompts' requests batched
// (PromptsMode.h). rngd-qwen3.cpp's main parses the options and calls run().
#include "qwen3/host/CliOptions.h"
#include "qwen3/host/CliRun.h"
#include "qwen3/host/CliRunSetup.h"
#include "qwen3/host/CliModel.h"
#include "qwen3/host/CliChat.h"
#include "qwen3/host/CliServe.h"
#include "qwen3/host/Bf16.h"
#include "qwen3/host/ChatTemplate.h"
#include "qwen3/host/ConsoleText.h"
#include "qwen3/host/HfModel.h"
#include "qwen3/host/Model.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/PromptsFile.h"
#include "qwen3/host/PromptsMode.h"
#include "qwen3/host/Reference.h"
#include "qwen3/host/Report.h"
#include "qwen3/host/Sampler.h"
#include "qwen3/host/SeededWeights.h"
#include "qwen3/host/Session.h"
#include "qwen3/host/StageCache.h"
#include "qwen3/host/StageOracle.h"
#include "qwen3/host/Tokenizer.h"
#include "qwen3/host/Utf8.h"
#include "qwen3/host/TextStream.h"
#include "qwen3/host/Utf8Stream.h"

#include "compiler/placement/Qwen3StageList.h"

#include "rngd/Runtime.h"

#include "rngd/machine/TargetModel.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <csignal>
#include <chrono>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>


namespace rngd::qwen3::cli {

namespace {

using Clock = std::chrono::steady_clock;

bool fileExists(const std::string &p) { return access(p.c_str(), R_OK) == 0; }

std::string joinIds(const std::vector<int> &ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? "," : "") + std::to_string(ids[i]);
  return s;
}

/// `label: "text"` with the ids decoded (JSON string escapes; invalid UTF-8 as U+FFFD), or why
/// not (an id the tokenizer lacks, e.g. a padding id of the vocabulary).
void printText(const char *label, const Tokenizer &tokenizer, const std::vector<int> &ids) {
  std::string text, err;
  if (!tokenizer.decode(ids, text, err))
    std::printf("%s: unavailable (%s)\n", label, err.c_str());
  else
    std::printf("%s: %s\n", label,
                nlohmann::json(text)
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                    .c_str());
}

/// JSON string of possibly invalid UTF-8 bytes (malformed stretches as U+FFFD).
nlohmann::json jsonText(const std::string &bytes) { return nlohmann::json(utf8Lossy(bytes)); }

/// The generated ids as text, token by token (TextStream): a character is printed once its
/// last byte has arrived, text that may start a --stop string once it does not. The end id that
/// stops generation is not printed.
class TextStreamer {
public:
  TextStreamer(const Tokenizer *tokenizer, bool enabled, const std::vector<std::string> &stops)
      : on_(enabled),
        stream_(tokenizer ? std::make_unique<TextStream>(*tokenizer, stops) : nullptr) {}
  void token(int id) {
    if (stream_)
      emit(stream_->push(id));
  }
  void finish() {
    if (stream_)
      emit(stream_->finish());
  }
  /// A --stop string appeared.
  bool stopped() const { return stream_ && stream_->stopped(); }
  /// Everything streamed (valid UTF-8).
  const std::string &text() const { return stream_->text(); }
  bool ok() const { return stream_ != nullptr; }

private:
  void emit(const std::string &s) {
    if (on_ && !s.empty()) {
      std::fwrite(s.data(), 1, s.size(), stdout);
      std::fflush(stdout);
    }
  }
  bool on_;
  std::unique_ptr<TextStream> stream_;
};

/// Ctrl-C during generation: the run ends after the current step and prints what it has (its
/// summary, --json); a second Ctrl-C ends the program at once.
std::atomic<bool> interrupted{false};
void onInterrupt(int) {
  interrupted = true;
  std::signal(SIGINT, SIG_DFL);
}

/// The JSON's stop_reason.
const char *stopReason(const GenerateResult &r, const TextStreamer &streamer) {
  if (r.stopped)
    return "end_id";
  if (streamer.stopped())
    return "stop_string";
  if (r.ended)
    return "interrupted";
  return "max_new_tokens";
}

/// Without --max-new-tokens: the default, or the positions that remain after the prompt.
void defaultNewTokens(Options &opt, const Qwen3Config &config) {
  if (opt.maxNewTokensGiven)
    return;
  const long long room = std::min<long long>(kMaxPositions, config.maxPositionEmbeddings) -
                         opt.startPos - (long long)opt.tokens.size() + 1;
  opt.maxNewTokens = int(std::max(0LL, std::min<long long>(kDefaultNewTokens, room)));
}


/// --prompts: the requests from the file (each "prompt" through the chat template unless
/// --raw), the weights, then the batched run.
int runPrompts(const Options &opt, const Qwen3Config &modelConfig) {
  std::unique_ptr<Tokenizer> tokenizer = loadTokenizer(opt);
  std::ifstream f(opt.promptsFile, std::ios::binary);
  std::ostringstream text;
  text << f.rdbuf();
  if (!f)
    fatal("cannot read --prompts " + opt.promptsFile);
  BatchRequest defaults;
  defaults.maxNewTokens = std::max(1, opt.maxNewTokens);
  defaults.sampling = opt.sampling;
  defaults.stopIds = stopTokenIds(opt.modelDir);
  PromptEncoder encode = [&](const std::string &prompt, std::vector<int> &ids, std::string &err) {
    if (!tokenizer || !tokenizer->canEncode()) {
      err = "a text prompt needs a tokenizer.json that encodes: give --tokenizer FILE";
      return false;
    }
    if (firstInvalidUtf8(prompt) != std::string::npos) {
      err = "invalid UTF-8 at byte " + std::to_string(firstInvalidUtf8(prompt));
      return false;
    }
    return tokenizer->encode(opt.raw ? prompt : applyChatTemplate({opt.system, prompt, !opt.noThink}),
                             ids, err);
  };
  std::vector<BatchRequest> requests;
  std::string err;
  if (!parsePromptsFile(text.str(), opt.promptsFile, defaults, modelConfig.vocabSize, encode,
                        requests, err))
    fatal(err);
  for (size_t i = 0; i < requests.size(); ++i) {
    const BatchRequest &r = requests[i];
    const long long need = (long long)r.prompt.size() + r.maxNewTokens - 1;
    if (need > std::min(kMaxPositions, modelConfig.maxPositionEmbeddings))
      fatal(opt.promptsFile + ": request " + std::to_string(i) + " needs " +
            std::to_string(need) + " positions (" + std::to_string(r.prompt.size()) +
            " prompt tokens + max_new_tokens " + std::to_string(r.maxNewTokens) +
            " - 1), more than the " +
            std::to_string(std::min(kMaxPositions, modelConfig.maxPositionEmbeddings)) +
            " a sequence may hold");
  }
  int threads = hostThreads();
  std::unique_ptr<Weights> weights = loadWeights(opt, modelConfig, threads);
  PromptsModeOptions mode;
  mode.maxBatch = opt.maxBatch;
  mode.dumpLogitsDir = opt.dumpLogitsDir;
  mode.report = opt.report;
  mode.noPrefill = opt.noPrefill;
  mode.quiet = opt.quiet;
  mode.check = opt.check;
  mode.prefixCache = !opt.noPrefixCache;
  return runPromptsMode(mode, *weights, requests, tokenizer.get());
}

} // namespace

int run(Options opt) {
  const bool plain = !opt.quiet && !opt.json; // the human-readable report on stdout
  // A checkpoint's config.json first (milliseconds): config problems are reported before
  // anything slow, and --layers defaults to its num_hidden_layers.
  const Qwen3Config modelConfig = readModelConfig(opt); // Qwen3-0.6B's, or the checkpoint's
  // The decode stages must place for this shape (milliseconds: generated, not compiled); the
  // prefill stages, when they do not, leave the prompt to run token by token.
  std::string err;
  if ((!opt.modelDir.empty() || !opt.configFile.empty()) && opt.kernelsDir.empty() &&
      !checkPlacement(modelConfig, rngd::defaultTarget(), rngd::placement::decodeStageNames(), 1,
                      err))
    fatal((opt.configFile.empty() ? opt.modelDir + "/config.json" : opt.configFile) +
          ": the stages cannot be placed for this model: " + err);
  const bool fromCheckpoint = !opt.modelDir.empty();
  if (opt.mode == Mode::Serve)
    return runServe(opt, modelConfig);
  if (opt.mode == Mode::Chat)
    return runChat(opt, modelConfig);
  if (!opt.promptsFile.empty())
    return runPrompts(opt, modelConfig);
  PrefillChoice prefill;
  if (!opt.havePrompt) {
    defaultNewTokens(opt, modelConfig);
    prefill = checkLimits(opt, modelConfig, fromCheckpoint);
  }
  // The tokenizer and a text prompt before anything slow.
  std::unique_ptr<Tokenizer> tokenizer = loadTokenizer(opt);
  if (opt.havePrompt) {
    opt.tokens = encodePrompt(opt, *tokenizer);
    defaultNewTokens(opt, modelConfig);
    prefill = checkLimits(opt, modelConfig, fromCheckpoint);
  }
  int threads = hostThreads();
  auto t0 = Clock::now();

  // Cheap checks first (the weights take seconds): token ids against the default vocabulary
  // for seeded weights, and the kernel files when --kernels is given.
  if (opt.modelDir.empty())
    for (int t : opt.tokens)
      if (t < 0 || t >= modelConfig.vocabSize)
        usageError("token id " + std::to_string(t) + " out of range 0.." +
                   std::to_string(modelConfig.vocabSize - 1));
  const int prefillCount = prefill.tokens;
  if (!prefill.why.empty() && opt.prefillGiven)
    fatal("--prefill-block: " + prefill.why);
  if (prefill.unplaced && !opt.quiet)
    std::fprintf(stderr, "rngd-qwen3: note: the prompt runs token by token: %s\n",
                 prefill.why.c_str());
  std::vector<int> stages = Pipeline::stagesUsed(opt.deviceLookup);
  if (prefillCount > 0)
    for (int s : Pipeline::prefillStagesUsed())
      stages.push_back(s);
  if (!opt.kernelsDir.empty())
    for (int s : stages) {
      const char *stage = kStages[s];
      std::string path = opt.kernelsDir + "/" + stage + ".rngd";
      if (!fileExists(path))
        fatal("kernel file " + path + " not found (compile kernels/qwen3/" + stage +
              ".mlir with rngdc, or leave out --kernels)");
    }

  std::unique_ptr<Weights> weights = loadWeights(opt, modelConfig, threads);
  const Qwen3Config &cfg = weights->config();
  for (int t : opt.tokens)
    if (t < 0 || t >= cfg.vocabSize)
      usageError("token id " + std::to_string(t) + " out of range 0.." +
                 std::to_string(cfg.vocabSize - 1));
  double weightSeconds = std::chrono::duration<double>(Clock::now() - t0).count();

  const std::string kdir = runKernels(opt, cfg, prefill);
  std::unique_ptr<Pipeline> pipe;
  pipe = std::make_unique<Pipeline>(kdir, *weights, int(positionsNeeded(opt)), opt.deviceLookup,
                                    prefill.sizes);
  if (opt.check)
    pipe->checkBoundaries();

  if (plain) {
    std::printf("rngd-qwen3: %d layers, %s weights, prompt %zu tokens, %d new\n", cfg.numLayers,
                opt.modelDir.empty() ? ("seeded (seed " + std::to_string(opt.weightSeed) + ")").c_str()
                                     : opt.modelDir.c_str(),
                opt.tokens.size(), opt.maxNewTokens);
    std::printf("device HBM: %zu buffers, %.1f MB (weights uploaded once; activations and the KV "
                "cache stay on the device)\n",
                pipe->device().bufferCount(), double(pipe->device().hbmUsed()) / 1e6);
  }

  StartRows startRows;
  if (opt.startPos > 0)
    startRows = preloadStartRows(opt, *pipe, cfg, threads);
  // The prompt, summarised when long (its first and last ids, the count; the text's ends).
  std::string promptBytes;
  bool promptDecoded = false;
  if (tokenizer) {
    std::string err;
    promptDecoded = tokenizer->decode(opt.tokens, promptBytes, err);
    if (!promptDecoded)
      promptBytes = "unavailable (" + err + ")";
  }
  if (plain) {
    std::printf("prompt: %s\n", summarizeIds(opt.tokens).c_str());
    if (tokenizer)
      std::printf("prompt text: %s\n",
                  promptDecoded ? jsonText(summarizeText(promptBytes)).dump().c_str()
                                : promptBytes.c_str());
  }
  std::fflush(stdout);

  // The prompt (in prefill blocks or one token at a time), then generation (Session.h). The
  // generated text streams to stdout (plain: after "output: ", --quiet: alone) as tokens come;
  // stderr shows the prompt's progress (in place on a terminal, else every 64 tokens and at the
  // end) or, with --verbose, a line per step.
  const int promptLen = int(opt.tokens.size());
  const int P0 = opt.startPos;
  Sampler sampler(opt.sampling);
  const bool streamText = tokenizer && !opt.json && opt.maxNewTokens > 0;
  TextStreamer streamer(tokenizer.get(), streamText, opt.stops);
  if (!opt.stops.empty() && !tokenizer)
    fatal("--stop needs a tokenizer.json to read the generated text: give --tokenizer FILE");
  const bool progress = !opt.quiet && !opt.verbose;
  const bool tty = isatty(fileno(stderr)) == 1;
  GenerateOptions gen;
  gen.maxNewTokens = opt.maxNewTokens;
  gen.stopIds = stopTokenIds(opt.modelDir);
  gen.prefill = prefillCount > 0;
  GenerateCallbacks cb;
  cb.promptProgress = [&](int done, int total, double seconds) {
    if (progress && (tty || done % 64 == 0 || done == total))
      std::fprintf(stderr, "%s%s%s", tty ? "\r" : "", progressLine(done, total, seconds).c_str(),
                   tty ? (done < total ? "\x1b[K" : "\x1b[K\n") : "\n");
  };
  int kept = 0;
  cb.token = [&](int token, bool stop) {
    if (++kept == 1 && streamText && plain)
      std::fputs("output: ", stdout);
    if (!stop)
      streamer.token(token);
  };
  cb.step = [&](const StepEvent &e) {
    if (!opt.verbose)
      return;
    if (e.next >= 0)
      std::fprintf(stderr, "[%d/%d] pos %d token %d -> next %d (%.2f s)\n", e.index + 1, e.steps,
                   e.position, e.token, e.next, e.seconds);
    else
      std::fprintf(stderr, "[%d/%d] pos %d token %d (%.2f s)\n", e.index + 1, e.steps,
                   e.position, e.token, e.seconds);
  };
  cb.keepGoing = [&] { return !streamer.stopped() && !interrupted; };
  Session session(*pipe, stages, P0);
  std::signal(SIGINT, onInterrupt);
  sampler.setPrompt(opt.tokens);
  const GenerateResult result = session.generate(opt.tokens, gen, sampler, cb);
  std::signal(SIGINT, SIG_DFL);
  const std::vector<int> &fed = result.fed, &generated = result.generated;
  const std::vector<float> &logits = result.logits;
  const bool stopped = result.stopped;
  const int totalSteps = result.steps;
  const double promptSeconds = result.promptSeconds;
  streamer.finish();
  // The plan checkLimits admitted the run with is what the device allocated: if they drifted
  // apart, the HBM limit would check the wrong number.
  {
    const bool tied = weights->shared("lm_head.weight") == weights->shared("model.embed_tokens.weight");
    HbmPlan used = Pipeline::hbmPlan(cfg, int(positionsNeeded(opt)), opt.deviceLookup, tied,
                                     prefill.sizes, pipe->device().target());
    if (pipe->device().hbmUsed() != used.total())
      throw std::runtime_error("internal error: the device HBM in use, " +
                               std::to_string(pipe->device().hbmUsed()) +
                               " bytes, differs from Pipeline::hbmPlan's " +
                               std::to_string(used.total()));
  }
  if (streamText)
    std::fputs("\n", stdout);
  std::fflush(stdout);
  const double loopSeconds = result.loopSeconds;
  if (progress && !generated.empty()) {
    // The first token comes from the prompt's last step; the rest from one step each.
    double genSeconds = loopSeconds - promptSeconds;
    char rate[96] = "";
    if (generated.size() > 1 && genSeconds > 0)
      std::snprintf(rate, sizeof rate, ", %zu step%s after the prompt in %.1f s (%.2f tokens/s)",
                    generated.size() - 1, generated.size() == 2 ? "" : "s", genSeconds,
                    double(generated.size() - 1) / genSeconds);
    std::fprintf(stderr, "generated %zu token%s%s%s\n", generated.size(),
                 generated.size() == 1 ? "" : "s", rate,
                 stopped            ? ", stopped at an end id"
                 : streamer.stopped() ? ", stopped at a --stop text"
                 : interrupted      ? ", interrupted"
                                    : "");
  }

  if (plain) {
    std::printf("generated: %s%s\n", generated.empty() ? "(none)" : joinIds(generated).c_str(),
                stopped ? " (stopped at an end id)" : "");
    if (tokenizer && opt.maxNewTokens > 0) {
      if (streamer.ok())
        std::printf("generated text: %s\n", jsonText(streamer.text()).dump().c_str());
      else
        printText("generated text", *tokenizer, generated);
    }
    if (tokenizer && !generated.empty() && opt.modelDir.empty())
      std::printf("(the weights are seeded random values, not a trained checkpoint: the generated "
                  "text is arbitrary)\n");
  }

  // The report: per stage the launches, cycles and what its schedules say (the launch overhead,
  // TargetModel::kernelLaunchCycles per launch, kept apart from the simulated device time), the
  // time to the first token, the prefill against its compute roofline.
  RunTotals totals;
  totals.startPos = opt.startPos;
  totals.promptTokens = promptLen;
  totals.newTokens = opt.maxNewTokens;
  totals.steps = totalSteps;
  totals.generated = generated;
  totals.firstTokenCycles = result.firstTokenCycles;
  totals.firstTokenLaunches = result.firstTokenLaunches;
  totals.prefillTokens = prefillCount;
  totals.prefillBlocks = prefill.blocks;
  totals.prefillCycles = result.prefillCycles;
  totals.prefillLaunches = result.prefillLaunches;
  totals.weightSeconds = weightSeconds;
  totals.loopSeconds = loopSeconds;
  const nlohmann::json rep = buildReport(*pipe, stages, cfg, totals);
  if (plain) {
    printStageTable(rep, stdout);
    printFirstToken(rep, stdout);
  }

  if (!opt.report.empty()) {
    std::ofstream f(opt.report);
    if (!f)
      fatal("cannot write " + opt.report);
    f << rep.dump(2) << "\n";
    if (!f)
      fatal("writing " + opt.report + " failed");
    if (plain)
      std::printf("report: %s\n", opt.report.c_str());
  }

  if (!opt.dumpLogits.empty()) {
    std::ofstream f(opt.dumpLogits, std::ios::binary);
    if (!f)
      fatal("cannot write " + opt.dumpLogits);
    // f32 little-endian (the host is little-endian: x86-64 / AArch64).
    f.write(reinterpret_cast<const char *>(logits.data()), std::streamsize(logits.size() * 4));
    if (!f)
      fatal("writing " + opt.dumpLogits + " failed");
    if (plain)
      std::printf("logits: %zu f32 values written to %s\n", logits.size(),
                  opt.dumpLogits.c_str());
  }

  std::fflush(stdout);
  nlohmann::json jcheck;
  if (opt.check)
    jcheck = checkAgainstReference(opt, *weights, pipe.get(), stages, fed, logits,
                                   std::move(startRows), threads);
  const int rc = opt.check && !jcheck["pass"].get<bool>() ? 1 : 0;
  if (opt.json) {
    nlohmann::json out = {
        {"format", "rngd-qwen3-run"},
        {"version", 1},
        {"layers", cfg.numLayers},
        {"weights", opt.modelDir.empty() ? nlohmann::json({{"seeded", opt.weightSeed}})
                                         : nlohmann::json({{"model", opt.modelDir}})},
        {"start_pos", opt.startPos},
        {"prompt_ids", opt.tokens},
        {"prompt_text", promptDecoded ? jsonText(promptBytes) : nlohmann::json(nullptr)},
        {"generated_ids", generated},
        {"text", streamer.ok() ? nlohmann::json(streamer.text()) : nlohmann::json(nullptr)},
        {"stop_reason", stopReason(result, streamer)},
        {"steps", totalSteps},
        {"clock_ghz", rep["clock_ghz"]},
        {"stages", rep["stages"]},
        {"time_to_first_token", rep["time_to_first_token"]},
        {"prefill", rep["prefill"]},
        {"total", rep["total"]},
        {"wall_seconds", rep["wall_seconds"]}};
    if (opt.check)
      out["check"] = jcheck;
    std::printf("%s\n", out.dump(2).c_str());
  }
  return rc;
}

} // namespace rngd::qwen3::cli
