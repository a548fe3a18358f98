#include "qwen3/host/CliChat.h"

#include "qwen3/host/ChatTemplate.h"
#include "qwen3/host/CliModel.h"
#include "qwen3/host/PromptsMode.h"
#include "qwen3/host/Session.h"
#include "qwen3/host/TextStream.h"
#include "qwen3/host/Utf8.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

namespace rngd::qwen3::cli {

namespace {

std::atomic<bool> stopAnswer{false};
void onInterrupt(int) { stopAnswer = true; }

/// The conversation: its system text, and what the sequence holds.
struct Conversation {
  std::optional<std::string> system;
  std::unique_ptr<Session> session;
  int pending = -1; // a generated token the sequence has not taken yet (an answer cut short)
  int turns = 0;
};

/// The new turn's tokens: the whole template for the first turn; after that, the end of the
/// previous answer and the new user turn, exactly as the template renders an answer it keeps.
std::vector<int> turnTokens(const Conversation &c, const std::string &user, bool think,
                            const Tokenizer &tokenizer) {
  std::string text;
  if (c.turns == 0) {
    text = applyChatTemplate(ChatPrompt{c.system, user, think});
  } else {
    text = "<|im_end|>\n" + applyChatTemplate(std::vector<ChatMessage>{{"user", user, {}}},
                                              true, think);
  }
  std::vector<int> ids;
  if (c.pending >= 0)
    ids.push_back(c.pending);
  std::vector<int> more;
  std::string err;
  if (!tokenizer.encode(text, more, err))
    throw std::runtime_error("the turn cannot be encoded: " + err);
  ids.insert(ids.end(), more.begin(), more.end());
  return ids;
}

/// One answer, streamed to stdout; a JSON line per turn on stdout with --json instead.
void answer(Conversation &c, const std::string &user, const Options &opt, Pipeline &pipe,
            const Tokenizer &tokenizer, int capacity) {
  const std::vector<int> ids = turnTokens(c, user, !opt.noThink, tokenizer);
  const int position = c.session->position();
  if (position + int(ids.size()) + opt.maxNewTokens - 1 > capacity) {
    std::fprintf(stderr, "(the conversation holds %d of %d positions: this turn needs %zu more "
                         "and up to %d for the answer; /reset starts over)\n",
                 position, capacity, ids.size(), opt.maxNewTokens);
    return;
  }
  TextStream text(tokenizer, opt.stops);
  GenerateOptions gen;
  gen.maxNewTokens = opt.maxNewTokens;
  gen.stopIds = stopTokenIds(opt.modelDir);
  gen.prefill = true;
  GenerateCallbacks cb;
  cb.token = [&](int token, bool stop) {
    if (!stop && !opt.json) {
      std::string piece = text.push(token);
      std::fwrite(piece.data(), 1, piece.size(), stdout);
      std::fflush(stdout);
    } else if (!stop) {
      text.push(token);
    }
  };
  cb.keepGoing = [&] { return !text.stopped() && !stopAnswer; };
  Sampler sampler(opt.sampling);
  stopAnswer = false;
  std::signal(SIGINT, onInterrupt);
  GenerateResult r = c.session->generate(ids, gen, sampler, cb);
  std::signal(SIGINT, SIG_DFL);
  const std::string rest = text.finish();
  c.pending = r.stopped || r.generated.empty() ? -1 : r.generated.back();
  c.turns += 1;
  if (opt.json) {
    nlohmann::json j = {{"turn", c.turns},       {"position", position},
                        {"prompt_ids", ids},     {"generated_ids", r.generated},
                        {"text", utf8Lossy(text.text())},
                        {"stop_reason", r.stopped ? "end_id"
                                        : text.stopped() ? "stop_string"
                                        : r.ended        ? "interrupted"
                                                         : "max_new_tokens"}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%s\n", rest.c_str());
    std::fprintf(stderr, "[%zu new tokens at position %d, %zu generated%s]\n", ids.size(),
                 position, r.generated.size(), r.ended && stopAnswer ? ", interrupted" : "");
  }
  std::fflush(stdout);
}

} // namespace

int runChat(const Options &opt, const Qwen3Config &modelConfig) {
  std::unique_ptr<Tokenizer> tokenizer = loadTokenizer(opt);
  if (!tokenizer || !tokenizer->canEncode())
    fatal("chat needs a tokenizer.json that encodes text: --model DIR's, --tokenizer FILE, or "
          "the one scripts/install-deps.sh installs");
  const int threads = hostThreads();
  std::unique_ptr<Weights> weights = loadWeights(opt, modelConfig, threads);
  const int capacity = std::min({(opt.kvChunks ? opt.kvChunks : 8) * kChunk, kMaxPositions,
                                 weights->config().maxPositionEmbeddings});
  std::unique_ptr<Pipeline> pipe = makeSequencePipeline(*weights, capacity, opt.noPrefill);
  Conversation c;
  c.system = opt.system;
  auto reset = [&] {
    c.session = std::make_unique<Session>(*pipe, std::vector<int>{}, 0);
    c.pending = -1;
    c.turns = 0;
  };
  reset();
  if (!opt.quiet)
    std::fprintf(stderr, "rngd-qwen3 chat: %d layers, %d positions. /reset starts over, "
                         "/system TEXT sets the system turn (and starts over), /quit ends; "
                         "Ctrl-C stops an answer.\n",
                 weights->config().numLayers, capacity);
  std::string line;
  while (true) {
    if (!opt.quiet && !opt.json)
      std::fputs("> ", stdout);
    std::fflush(stdout);
    if (!std::getline(std::cin, line) || line == "/quit")
      break;
    if (line == "/reset") {
      reset();
    } else if (line == "/system" || line.rfind("/system ", 0) == 0) {
      c.system = line.size() > 8 ? std::optional<std::string>(line.substr(8)) : std::nullopt;
      reset();
    } else if (!line.empty() && line[0] == '/') {
      std::fprintf(stderr, "(unknown command %s: /reset, /system TEXT, /quit)\n", line.c_str());
    } else if (firstInvalidUtf8(line) != std::string::npos) {
      std::fprintf(stderr, "(invalid UTF-8 at byte %zu of the line)\n", firstInvalidUtf8(line));
    } else {
      answer(c, line, opt, *pipe, *tokenizer, capacity);
    }
  }
  return 0;
}

} // namespace rngd::qwen3::cli
