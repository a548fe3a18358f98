// rngd-qwen3's command line (docs/qwen3.md, "Options"): the options, their parsing and the
// help text. A bad argument exits with a message naming it.
#pragma once

#include "qwen3/host/Sampler.h"
#include "qwen3/host/SeededWeights.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rngd::qwen3::cli {

// E: the KV cache holds 64 chunks of 512 positions per layer (docs/hardware.md section 7.3),
// fewer than the 40,960 positions of Qwen3's max_position_embeddings.
constexpr int kMaxPositions = 32768;
constexpr int kMaxLayers = 28; // of the seeded Qwen3-0.6B; a checkpoint may have more
constexpr int kDefaultNewTokens = 256; // --max-new-tokens' default
/// --max-batch's bound: the largest batch block.
int maxBatch();

enum class Mode {
  Generate, // one prompt, or --prompts' requests
  Serve,    // rngd-qwen3 serve: the OpenAI-compatible server (docs/serving.md)
  Chat,     // rngd-qwen3 chat: a conversation in the terminal (docs/qwen3.md)
};

struct Options {
  Mode mode = Mode::Generate;
  std::string kernelsDir;
  std::string modelDir;
  std::string configFile; // --config: seeded weights of this config.json's shape
  int layers = kMaxLayers;
  bool layersGiven = false; // else: 28, or num_hidden_layers of --model's config.json
  uint64_t weightSeed = kDefaultSeed; // --weight-seed: the seeded weights' seed
  std::vector<int> tokens;
  int maxNewTokens = kDefaultNewTokens;
  bool maxNewTokensGiven = false; // else the default, cut to the positions that remain
  int startPos = 0;
  bool check = false;
  std::string dumpLogits;
  std::string report;
  bool keepKernels = false;
  bool deviceLookup = false; // token_lookup (DMA gather on the device) instead of embedding
  bool noPrefill = false;    // the prompt token by token instead of through the prefill stages
  bool prefillGiven = false; // --prefill-block: the prefill must run (an error if it cannot)
  // Text in: the prompt as text, through the chat template unless --raw.
  std::string prompt, promptFile, tokenizerPath;
  std::optional<std::string> system; // --system: a system turn, even when empty
  bool havePrompt = false, noThink = false, raw = false;
  SamplingOptions sampling; // greedy unless --temperature > 0; --seed is its seed
  std::vector<std::string> stops; // --stop: generation ends before the first of these texts
  // Output: --quiet prints only the generated text on stdout; --json one JSON object;
  // --verbose a stderr line per step instead of the prompt's progress line.
  bool quiet = false, json = false, verbose = false;
  // --prompts: many requests, batched (PromptsMode.h).
  std::string promptsFile, dumpLogitsDir;
  int maxBatch = 8;
  bool maxBatchGiven = false, noPrefixCache = false;
  // serve (docs/serving.md).
  std::string host = "127.0.0.1", apiKey, servedModelName;
  int port = 8000;
  int maxQueue = 64;   // requests that may wait for a place in the batch (more: 429)
  int kvChunks = 0;    // the KV pool in chunks; 0: 2 per sequence of --max-batch, + 1
                       // (chat: the conversation's positions in chunks; 0: 8)
  long long maxBodyBytes = 1 << 20;
  // --tensor-parallel N: this process is one of N MPI ranks, each a chip with its shard
  // (docs/multichip.md); 0: one chip.
  int tensorParallel = 0;
};

/// "rngd-qwen3: error: MSG (run rngd-qwen3 --help for usage)", exit 1.
[[noreturn]] void usageError(const std::string &msg);
/// "rngd-qwen3: error: MSG", exit 1.
[[noreturn]] void fatal(const std::string &msg);
/// The options of argv (--help prints the help text and exits 0).
Options parseArgs(int argc, char **argv);

} // namespace rngd::qwen3::cli
