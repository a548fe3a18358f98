#include "qwen3/host/CliServe.h"

#include "qwen3/host/ChatTemplate.h"
#include "qwen3/host/CliModel.h"
#include "qwen3/host/Engine.h"
#include "qwen3/host/Pipeline.h"
#include "qwen3/host/PromptsMode.h"
#include "qwen3/serve/Server.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace rngd::qwen3::cli {

namespace {

/// The chat template the requests use must be Qwen3's (rendered natively, ChatTemplate.h):
/// tokenizer_config.json beside the tokenizer (--model DIR's, else the installed one's).
void checkChatTemplate(const Options &opt) {
  std::string path;
  if (!opt.modelDir.empty())
    path = opt.modelDir + "/tokenizer_config.json";
  if (path.empty() || access(path.c_str(), R_OK) != 0) {
    const std::string tokenizer = opt.tokenizerPath.empty() ? std::string() : opt.tokenizerPath;
    const size_t slash = tokenizer.rfind('/');
    path = slash == std::string::npos ? "" : tokenizer.substr(0, slash) + "/tokenizer_config.json";
  }
  std::ifstream f(path);
  if (path.empty() || !f)
    return; // no template given: Qwen3's
  nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    fatal(path + " is not a JSON object");
  if (!j.contains("chat_template"))
    return;
  if (!j["chat_template"].is_string() || !isQwen3ChatTemplate(j["chat_template"].get<std::string>()))
    fatal(path + ": its chat_template is not Qwen3's; the server renders Qwen3's template only "
                 "(docs/serving.md)");
}

std::string modelName(const Options &opt) {
  if (!opt.servedModelName.empty())
    return opt.servedModelName;
  std::string dir = !opt.modelDir.empty() ? opt.modelDir : opt.configFile;
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  if (dir.empty())
    return "qwen3-0.6b-seeded";
  const size_t slash = dir.rfind('/');
  return slash == std::string::npos ? dir : dir.substr(slash + 1);
}

} // namespace

int runServe(const Options &opt, const Qwen3Config &modelConfig) {
  std::unique_ptr<Tokenizer> tokenizer = loadTokenizer(opt);
  if (!tokenizer || !tokenizer->canEncode())
    fatal("serve needs a tokenizer.json that encodes text: --model DIR's, --tokenizer FILE, or "
          "the one scripts/install-deps.sh installs");
  checkChatTemplate(opt);
  // SIGINT and SIGTERM go to a watcher thread (sigwait), not to the engine or HTTP threads.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

  const int threads = hostThreads();
  std::unique_ptr<Weights> weights = loadWeights(opt, modelConfig, threads);
  const int chunks = opt.kvChunks ? opt.kvChunks : 2 * opt.maxBatch + 1;
  BatchRuntime rt =
      makeBatchRuntime(*weights, opt.maxBatch, chunks, opt.noPrefill, !opt.noPrefixCache);
  Engine engine(*rt.scheduler, *rt.pipe, opt.maxQueue);

  serve::ServerOptions so;
  so.host = opt.host;
  so.port = opt.port;
  so.apiKey = opt.apiKey;
  so.modelName = modelName(opt);
  so.maxBodyBytes = size_t(opt.maxBodyBytes);
  so.maxPositions = std::min({(chunks - 1) * kChunk, kMaxPositions,
                              weights->config().maxPositionEmbeddings});
  so.defaultMaxTokens = std::max(1, opt.maxNewTokens);
  so.threads = opt.maxBatch + opt.maxQueue + 8;
  so.log = !opt.quiet;
  serve::Server server(engine, {tokenizer.get(), stopTokenIds(opt.modelDir)}, so);
  std::string err;
  if (!server.bind(err))
    fatal(err);
  std::fprintf(stderr,
               "rngd-qwen3 serve: model '%s' (%d layers), max batch %d, %d KV chunks of %d "
               "positions; listening on http://%s:%d\n",
               so.modelName.c_str(), weights->config().numLayers, opt.maxBatch, chunks, kChunk,
               opt.host.c_str(), server.port());
  std::thread watcher([&] {
    int sig = 0;
    sigwait(&stopSignals, &sig);
    server.stop();
  });
  server.run();
  kill(getpid(), SIGTERM); // wakes the watcher when the server stopped by itself
  watcher.join();
  const EngineStats s = engine.stats();
  std::fprintf(stderr,
               "rngd-qwen3 serve: stopped after %lld requests, %lld decode steps; KV chunks in "
               "use %d of %d (prefix cache %d)\n",
               (long long)s.requests, (long long)s.decodeSteps, s.kvInUse, s.kvChunks,
               s.kvPrefixCache);
  return s.failure.empty() ? 0 : 1;
}

} // namespace rngd::qwen3::cli
