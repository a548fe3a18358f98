#include "qwen3/host/CliOptions.h"

#include "qwen3/host/Pipeline.h"

#include "compiler/placement/Qwen3StageList.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <cstdlib>

namespace rngd::qwen3::cli {

namespace {

const std::string kLayersRange = "--layers must be an integer in 1.." + std::to_string(kMaxLayers) +
                                 " (Qwen3-0.6B's layers; a --model checkpoint's num_hidden_layers), got '";
const int kMaxBatch = maxBatch();
// Chips of a tensor-parallel group: an RNGD server's eight cards.
constexpr int kMaxTensorParallel = 8;

void printHelp() {
  std::printf(
      "usage: rngd-qwen3 (--prompt TEXT | --prompt-file F | --token-ids ID,ID,...) [options]\n"
      "Qwen3-0.6B on the RNGD simulator with the eleven stage kernels; the generated text\n"
      "streams to stdout as tokens are produced.\n"
      "prompt:\n"
      "  --prompt TEXT, -p TEXT the prompt as text, one user turn of Qwen3's chat template\n"
      "  --prompt-file F        the prompt text read from file F (- : standard input)\n"
      "  --system TEXT          a system turn before the user turn (an empty TEXT is an\n"
      "                         empty system turn, as Hugging Face renders it)\n"
      "  --no-think             open the answer with Qwen3's empty think block\n"
      "  --raw                  encode the prompt text as it is, without the chat template\n"
      "  --tokenizer FILE       tokenizer.json (default: DIR/tokenizer.json of --model, else\n"
      "                         the one scripts/install-deps.sh installs)\n"
      "  --token-ids LIST       prompt token ids, comma separated\n"
      "  --max-new-tokens K     tokens to generate (default 256, or the positions that\n"
      "                         remain; 0: the prompt only); generation also stops at an\n"
      "                         end id (--model's generation_config.json / config.json\n"
      "                         eos_token_id, else <|im_end|> and <|endoftext|>).\n"
      "                         P + prompt tokens + K - 1 positions must fit the KV cache\n"
      "                         (32768) and --model's max_position_embeddings\n"
      "  --start-pos P          the prompt starts at position P; the KV rows of positions\n"
      "                         0..P-1 are seeded random bf16 (std 1), the same in the\n"
      "                         reference (default 0)\n"
      "model:\n"
      "  --layers N             decoder layers to run, 1..28 (default 28; with --model the\n"
      "                         checkpoint's num_hidden_layers, and N may not exceed it;\n"
      "                         the weights and KV cache must fit the device HBM)\n"
      "  --weight-seed S        seed of the default weights (default 42)\n"
      "  --model DIR            HF checkpoint (config.json + model.safetensors) instead of\n"
      "                         seeded weights; config.json is checked before the weights\n"
      "                         load; tie_word_embeddings true: the LM head is the embedding\n"
      "  --config FILE          seeded weights (--seed) of the shape a Hugging Face\n"
      "                         config.json gives (another Qwen3 size) instead of Qwen3-0.6B's;\n"
      "                         --layers defaults to its num_hidden_layers\n"
      "  --kernels DIR          directory with the stages' .rngd files (embedding.rngd, ...);\n"
      "                         default: the stages placed for the model's config, compiled\n"
      "                         in-process on first use and cached in $RNGD_CACHE_DIR, else\n"
      "                         $XDG_CACHE_HOME/rngd, else ~/.cache/rngd\n"
      "  --tensor-parallel N    run under `mpirun -np N`: each rank simulates one chip with its\n"
      "                         shard of the model (heads, MLP and vocabulary split N ways),\n"
      "                         the decoder's partial sums all-reduced over MPI; rank 0\n"
      "                         tokenizes, samples and prints (docs/multichip.md)\n"
      "  --keep-kernels         print the cached stages' directory to stderr\n"
      "  --device-lookup        gather the token's embedding row on the device (token_lookup:\n"
      "                         a DMA gather from the resident table at an offset the host\n"
      "                         writes) instead of uploading the row (embedding)\n"
      "  --prefill-block T      the prompt goes through the multi-token stages (prefill_*) in\n"
      "                         blocks of T = 512 tokens (one KV chunk; the last padded), one\n"
      "                         pass per layer each. The default when the stages can run\n"
      "                         (from position 0, their .rngd files in --kernels DIR, HBM for\n"
      "                         them) is blocks of 512 and a last block of the smallest size\n"
      "                         of 16, 32, ..., 512 that holds the rest; given, an error if\n"
      "                         the stages cannot run\n"
      "  --no-prefill           run the whole prompt token by token\n"
      "checks and figures:\n"
      "  --check                compare every launch with the per-boundary host oracle and\n"
      "                         the last step's logits with the whole-model reference\n"
      "                         (same top-1, cosine >= 0.999; exit 1 otherwise)\n"
      "  --dump-logits FILE     write the last step's logits (f32 little-endian, W values)\n"
      "  --report FILE.json     per-stage launches, cycles, HBM bytes, roofline, wall times\n"
      "                         and launch overhead as JSON\n"
      "sampling (greedy by default):\n"
      "  --temperature T        sample with temperature T > 0 (default 0: greedy)\n"
      "  --top-k K              sample among the K most probable tokens (default 0: all)\n"
      "  --top-p P              sample among the smallest set reaching probability P (0..1]\n"
      "  --min-p P              sample among tokens at least P times as probable as the\n"
      "                         most probable one [0..1] (top-k, top-p and min-p need\n"
      "                         --temperature)\n"
      "  --seed S               seed of the sampler's counter-based generator (default 0)\n"
      "  --repeat-penalty R     divide (multiply, when negative) the logits of the prompt's and\n"
      "                         the generated tokens by R (default 1: none), greedy too\n"
      "  --presence-penalty A   subtract A from the logits of generated tokens [-2..2]\n"
      "  --frequency-penalty A  subtract A per occurrence from generated tokens' logits\n"
      "  --stop TEXT            end generation before TEXT (repeatable); the text printed\n"
      "                         stops before it\n"
      "output:\n"
      "  --quiet                print only the generated text on stdout (streamed), no\n"
      "                         progress; errors and notes still go to stderr\n"
      "  --json                 print one JSON object on stdout at the end: prompt and\n"
      "                         generated ids, the text, the stop reason, per-stage figures\n"
      "                         and wall times (and the --check results)\n"
      "  --verbose              a stderr line per step (position, token, next token, wall\n"
      "                         time) instead of the prompt's progress line\n"
      "batches (many requests at once):\n"
      "  --prompts FILE.jsonl   one request per line: {\"prompt\": TEXT} (through the chat\n"
      "                         template unless --raw) or {\"token_ids\": [...]}, optional\n"
      "                         max_new_tokens, temperature, top_k, top_p, seed (defaults:\n"
      "                         the options above). The requests join and leave the batch\n"
      "                         between decode steps; one JSON line per request on stdout,\n"
      "                         in input order: index, generated_ids, text, stop_reason,\n"
      "                         time_to_first_token, decode_cycles\n"
      "  --max-batch B          sequences per decode step, 1..64 (default 8)\n"
      "  --dump-logits-dir DIR  write DIR/<index>.f32: each request's last logits\n"
      "  --no-prefix-cache      prefill every prompt whole (by default a prompt that starts\n"
      "                         with 16 or more tokens of an earlier request's prompt takes\n"
      "                         their KV rows: cached_tokens in its line)\n"
      "chat: rngd-qwen3 chat [--model DIR | --config FILE] [options]: a conversation on\n"
      "standard input, the KV cache kept between turns (--system, --no-think, --stop,\n"
      "sampling, --max-new-tokens, --json: a line per turn, and --kv-chunks N: N x 512\n"
      "positions, default 8, apply); /reset, /system TEXT, /quit; Ctrl-C stops an answer\n"
      "server: rngd-qwen3 serve [--model DIR | --config FILE] [options] (docs/serving.md):\n"
      "OpenAI's /v1/models, /v1/chat/completions and /v1/completions, the requests batched\n"
      "as they come (--max-batch, --layers, --seed, --no-prefill, --no-prefix-cache and\n"
      "--max-new-tokens, the default max_tokens, apply)\n"
      "  --host ADDR            the address to listen on (default 127.0.0.1)\n"
      "  --port N               the port (default 8000; 0: any free port, printed)\n"
      "  --api-key KEY          requests must send 'Authorization: Bearer KEY'\n"
      "  --served-model-name M  the model id requests name (default: the --model or --config\n"
      "                         file's name)\n"
      "  --max-queue N          requests that may wait for a place in the batch; more are\n"
      "                         refused with 429 (default 64)\n"
      "  --kv-chunks N          the KV pool in chunks of 512 positions (default 2 per\n"
      "                         sequence of --max-batch, + 1 for the batch's padding)\n"
      "  --max-body-bytes N     a larger request body is refused with 413 (default 1 MiB)\n"
      "  --help, -h             this text\n");
}

bool parseInt64(const std::string &s, long long lo, long long hi, long long &out) {
  if (s.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi)
    return false;
  out = v;
  return true;
}

} // namespace

int maxBatch() { return int(rngd::placement::batchTokenCounts().back()); }

[[noreturn]] void usageError(const std::string &msg) {
  std::fprintf(stderr, "rngd-qwen3: error: %s\n(run rngd-qwen3 --help for usage)\n", msg.c_str());
  std::exit(1);
}

[[noreturn]] void fatal(const std::string &msg) {
  std::fprintf(stderr, "rngd-qwen3: error: %s\n", msg.c_str());
  std::exit(1);
}

/// --temperature (0..100), --top-p (0, 1], --min-p [0, 1], --repeat-penalty (0, 100],
/// --presence-penalty and --frequency-penalty [-2, 2].
void parseSamplingNumber(const std::string &a, const std::string &v, SamplingOptions &s) {
  struct Range {
    const char *name;
    double lo, hi;
    bool openLo;
    double SamplingOptions::*field;
  };
  static const Range ranges[] = {
      {"--temperature", 0, 100, false, &SamplingOptions::temperature},
      {"--top-p", 0, 1, true, &SamplingOptions::topP},
      {"--min-p", 0, 1, false, &SamplingOptions::minP},
      {"--repeat-penalty", 0, 100, true, &SamplingOptions::repetitionPenalty},
      {"--presence-penalty", -2, 2, false, &SamplingOptions::presencePenalty},
      {"--frequency-penalty", -2, 2, false, &SamplingOptions::frequencyPenalty}};
  for (const Range &r : ranges) {
    if (a != r.name)
      continue;
    char *end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(d) || d > r.hi || (r.openLo ? d <= r.lo : d < r.lo)) {
      char range[64];
      std::snprintf(range, sizeof range, "%s%g, %g]", r.openLo ? "(" : "[", r.lo, r.hi);
      usageError(a + " must be a number in " + range + ", got '" + v + "'");
    }
    s.*r.field = d;
  }
}

/// The options of `rngd-qwen3 serve`; false when `a` is not one of them.
bool parseServeOption(const std::string &a, const std::function<std::string()> &next,
                      Options &o) {
  long long v = 0;
  if (a == "--host") {
    o.host = next();
    if (o.host.empty())
      usageError("--host needs an address");
  } else if (a == "--port") {
    std::string s = next();
    if (!parseInt64(s, 0, 65535, v))
      usageError("--port must be an integer in 0..65535, got '" + s + "'");
    o.port = int(v);
  } else if (a == "--api-key") {
    o.apiKey = next();
    if (o.apiKey.empty())
      usageError("--api-key needs a key");
  } else if (a == "--served-model-name") {
    o.servedModelName = next();
    if (o.servedModelName.empty())
      usageError("--served-model-name needs a name");
  } else if (a == "--max-queue") {
    std::string s = next();
    if (!parseInt64(s, 1, 1 << 16, v))
      usageError("--max-queue must be an integer in 1..65536, got '" + s + "'");
    o.maxQueue = int(v);
  } else if (a == "--kv-chunks") {
    std::string s = next();
    if (!parseInt64(s, 2, 1 << 16, v))
      usageError("--kv-chunks must be an integer in 2..65536, got '" + s + "'");
    o.kvChunks = int(v);
  } else if (a == "--max-body-bytes") {
    std::string s = next();
    if (!parseInt64(s, 1024, 1ll << 30, v))
      usageError("--max-body-bytes must be an integer in 1024..1073741824, got '" + s + "'");
    o.maxBodyBytes = v;
  } else {
    return false;
  }
  return true;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  bool haveTokens = false;
  bool shaped = false; // --top-k, --top-p or --min-p given
  int first = 1;
  if (argc > 1 && (std::string(argv[1]) == "serve" || std::string(argv[1]) == "chat")) {
    o.mode = std::string(argv[1]) == "serve" ? Mode::Serve : Mode::Chat;
    first = 2;
  }
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    std::string value;
    bool hasInline = false;
    if (a.rfind("--", 0) == 0) {
      auto eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        hasInline = true;
      }
    }
    auto next = [&]() -> std::string {
      if (hasInline)
        return value;
      if (i + 1 >= argc)
        usageError("option " + a + " needs a value");
      return argv[++i];
    };
    auto flag = [&]() {
      if (hasInline)
        usageError("option " + a + " takes no value");
    };
    long long v = 0;
    if (o.mode != Mode::Generate && parseServeOption(a, next, o)) {
      if (o.mode == Mode::Chat && a != "--kv-chunks")
        usageError(a + " applies to serve");
      continue;
    }
    if (a == "--help" || a == "-h") {
      printHelp();
      std::exit(0);
    } else if (a == "--kernels") {
      o.kernelsDir = next();
      if (o.kernelsDir.empty())
        usageError("--kernels needs a directory");
    } else if (a == "--model") {
      o.modelDir = next();
      if (o.modelDir.empty())
        usageError("--model needs a directory");
    } else if (a == "--config") {
      o.configFile = next();
      if (o.configFile.empty())
        usageError("--config needs a config.json file");
    } else if (a == "--layers") {
      std::string s = next();
      if (!parseInt64(s, 1, INT_MAX, v))
        usageError(kLayersRange + s + "'");
      o.layers = int(v);
      o.layersGiven = true;
    } else if (a == "--seed" || a == "--weight-seed") {
      std::string s = next();
      char *end = nullptr;
      errno = 0;
      unsigned long long u = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || s[0] == '-' || errno != 0 || *end != '\0')
        usageError(a + " must be a non-negative integer, got '" + s + "'");
      (a == "--seed" ? o.sampling.seed : o.weightSeed) = u;
    } else if (a == "--token-ids") {
      std::string s = next();
      o.tokens.clear();
      size_t start = 0;
      while (true) {
        size_t comma = s.find(',', start);
        std::string item = s.substr(start, comma == std::string::npos ? std::string::npos
                                                                     : comma - start);
        if (!parseInt64(item, 0, 1ll << 31, v))
          usageError("--token-ids: '" + item + "' is not a token id (list like 151644,872,...)");
        o.tokens.push_back(int(v));
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
      haveTokens = true;
    } else if (a == "--max-new-tokens") {
      std::string s = next();
      if (!parseInt64(s, 0, LLONG_MAX, v))
        usageError("--max-new-tokens must be a non-negative integer, got '" + s + "'");
      if (v > kMaxPositions)
        usageError("--max-new-tokens " + s + " needs more positions than the " +
                   std::to_string(kMaxPositions) + " the KV cache holds");
      o.maxNewTokens = int(v);
      o.maxNewTokensGiven = true;
    } else if (a == "--start-pos") {
      std::string s = next();
      if (!parseInt64(s, 0, LLONG_MAX, v))
        usageError("--start-pos must be a non-negative integer, got '" + s + "'");
      if (v >= kMaxPositions)
        usageError("--start-pos " + s + " is past the KV cache, which holds positions 0.." +
                   std::to_string(kMaxPositions - 1));
      o.startPos = int(v);
    } else if (a == "--check") {
      flag();
      o.check = true;
    } else if (a == "--dump-logits") {
      o.dumpLogits = next();
      if (o.dumpLogits.empty())
        usageError("--dump-logits needs a file name");
    } else if (a == "--report") {
      o.report = next();
      if (o.report.empty())
        usageError("--report needs a file name");
    } else if (a == "--prompts") {
      o.promptsFile = next();
      if (o.promptsFile.empty())
        usageError("--prompts needs a file name");
    } else if (a == "--max-batch") {
      std::string s = next();
      if (!parseInt64(s, 1, kMaxBatch, v))
        usageError("--max-batch must be an integer in 1.." + std::to_string(kMaxBatch) +
                   ", got '" + s + "'");
      o.maxBatch = int(v);
      o.maxBatchGiven = true;
    } else if (a == "--tensor-parallel") {
      std::string s = next();
      if (!parseInt64(s, 1, kMaxTensorParallel, v))
        usageError("--tensor-parallel must be an integer in 1.." +
                   std::to_string(kMaxTensorParallel) + ", got '" + s + "'");
      o.tensorParallel = int(v);
    } else if (a == "--no-prefix-cache") {
      flag();
      o.noPrefixCache = true;
    } else if (a == "--dump-logits-dir") {
      o.dumpLogitsDir = next();
      if (o.dumpLogitsDir.empty())
        usageError("--dump-logits-dir needs a directory name");
    } else if (a == "--keep-kernels") {
      flag();
      o.keepKernels = true;
    } else if (a == "--prefill-block") {
      std::string s = next();
      if (!parseInt64(s, 1, LLONG_MAX, v))
        usageError("--prefill-block must be a positive integer, got '" + s + "'");
      if (v != kChunk)
        usageError("--prefill-block " + s + ": only whole KV chunks (" + std::to_string(kChunk) +
                   " tokens) can be forced; by default each block but the last is a chunk and "
                   "the last the smallest block size (16, 32, 64, 128, 256, 512) that holds "
                   "the rest");
      o.noPrefill = false;
      o.prefillGiven = true;
    } else if (a == "--no-prefill") {
      flag();
      o.noPrefill = true;
      o.prefillGiven = false;
    } else if (a == "--device-lookup") {
      flag();
      o.deviceLookup = true;
    } else if (a == "--prompt" || a == "-p" || a == "--prompt-file") {
      std::string v = next();
      if (o.havePrompt)
        usageError("give one of --prompt and --prompt-file");
      o.havePrompt = true;
      (a == "--prompt-file" ? o.promptFile : o.prompt) = v;
      if (a == "--prompt-file" && v.empty())
        usageError("--prompt-file needs a file name");
    } else if (a == "--system") {
      o.system = next();
    } else if (a == "--tokenizer") {
      o.tokenizerPath = next();
      if (o.tokenizerPath.empty())
        usageError("--tokenizer needs a file name");
    } else if (a == "--temperature" || a == "--top-p" || a == "--min-p" ||
               a == "--repeat-penalty" || a == "--presence-penalty" ||
               a == "--frequency-penalty") {
      parseSamplingNumber(a, next(), o.sampling);
      shaped = shaped || a == "--top-p" || a == "--min-p";
    } else if (a == "--top-k") {
      std::string v = next();
      long long x;
      if (!parseInt64(v, 0, 1000000, x))
        usageError(a + " must be a non-negative integer, got '" + v + "'");
      o.sampling.topK = int(x);
      shaped = true;
    } else if (a == "--stop") {
      o.stops.push_back(next());
      if (o.stops.back().empty())
        usageError("--stop needs a text");
    } else if (a == "--no-think") {
      flag();
      o.noThink = true;
    } else if (a == "--raw") {
      flag();
      o.raw = true;
    } else if (a == "--quiet") {
      flag();
      o.quiet = true;
    } else if (a == "--json") {
      flag();
      o.json = true;
    } else if (a == "--verbose") {
      flag();
      o.verbose = true;
    } else {
      usageError("unknown argument '" + std::string(argv[i]) + "'");
    }
  }
  // The model's shape, whatever the mode.
  if (!o.modelDir.empty() && !o.configFile.empty())
    usageError("--model and --config both give the model's shape: give one");
  if (o.modelDir.empty() && o.configFile.empty() && o.layers > kMaxLayers)
    usageError(kLayersRange + std::to_string(o.layers) + "'");
  if (shaped && o.sampling.temperature <= 0)
    usageError("--top-k, --top-p and --min-p shape sampling: give --temperature T > 0 as well "
               "(without it the most probable token is taken)");
  if (o.tensorParallel > 0 &&
      (o.mode != Mode::Generate || !o.promptsFile.empty() || o.startPos || o.deviceLookup ||
       o.prefillGiven || !o.kernelsDir.empty() || o.check || !o.dumpLogitsDir.empty()))
    usageError("--tensor-parallel runs one prompt token by token on the decode stages: chat, "
               "serve, --prompts, --start-pos, --device-lookup, --prefill-block, --kernels, "
               "--check and --dump-logits-dir do not apply");
  if (o.mode == Mode::Chat) {
    if (o.havePrompt || haveTokens || !o.promptsFile.empty() || o.startPos || o.deviceLookup ||
        !o.dumpLogits.empty() || o.verbose || o.prefillGiven || !o.kernelsDir.empty() ||
        o.check || !o.dumpLogitsDir.empty() || !o.report.empty() || o.raw || o.maxBatchGiven)
      usageError("chat reads its turns from standard input: --prompt, --token-ids, --prompts, "
                 "--start-pos, --device-lookup, --dump-logits(-dir), --verbose, "
                 "--prefill-block, --kernels, --check, --report, --raw and --max-batch do not "
                 "apply");
    return o;
  }
  if (o.mode == Mode::Serve) {
    if (o.havePrompt || haveTokens || !o.promptsFile.empty() || o.startPos || o.deviceLookup ||
        !o.dumpLogits.empty() || o.json || o.verbose || o.prefillGiven || !o.kernelsDir.empty() ||
        o.check || !o.dumpLogitsDir.empty() || !o.report.empty() || o.raw || o.system)
      usageError("serve takes its prompts from HTTP requests: --prompt, --token-ids, --prompts, "
                 "--start-pos, --device-lookup, --dump-logits(-dir), --json, --verbose, "
                 "--prefill-block, --kernels, --check, --report, --raw and --system do not apply");
    return o;
  }
  if (!o.promptsFile.empty()) {
    if (o.havePrompt || haveTokens)
      usageError("--prompts gives the requests: no --prompt, --prompt-file or --token-ids");
    if (o.startPos || o.deviceLookup || !o.dumpLogits.empty() || o.json || o.verbose ||
        o.prefillGiven || !o.kernelsDir.empty())
      usageError("--prompts runs with the stage cache and prints JSON lines: --start-pos, "
                 "--device-lookup, --dump-logits, --json, --verbose, --prefill-block and "
                 "--kernels do not apply (--dump-logits-dir and --check do)");
    return o;
  }
  if (o.maxBatchGiven || !o.dumpLogitsDir.empty() || o.noPrefixCache)
    usageError("--max-batch, --dump-logits-dir and --no-prefix-cache apply to --prompts "
               "FILE.jsonl");
  if (o.havePrompt && haveTokens)
    usageError("give either a text prompt (--prompt, --prompt-file) or --token-ids, not both");
  if (!o.havePrompt && (!haveTokens || o.tokens.empty()))
    usageError("a prompt is required: --prompt TEXT, --prompt-file F or --token-ids 151644,872,...");
  if (!o.havePrompt && (o.raw || o.noThink || o.system))
    usageError("--system, --no-think and --raw apply to a text prompt (--prompt, --prompt-file)");
  if (o.quiet && o.json)
    usageError("give one of --quiet (only the generated text) and --json (one JSON object)");
  if (o.quiet && o.verbose)
    usageError("--quiet prints no progress: leave out --verbose");
  if (o.raw && (o.noThink || o.system))
    usageError("--raw feeds the text without the chat template: no --system or --no-think");
  return o;
}

} // namespace rngd::qwen3::cli
