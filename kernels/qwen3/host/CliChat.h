// `rngd-qwen3 chat` (docs/qwen3.md, "Chat"): a conversation in the terminal on one sequence
// whose KV cache stays between turns, so each turn prefills only its own tokens.
#pragma once

#include "qwen3/host/CliOptions.h"
#include "qwen3/host/Model.h"

namespace rngd::qwen3::cli {

/// Reads turns from stdin until end of input or /quit; the exit code.
int runChat(const Options &opt, const Qwen3Config &modelConfig);

} // namespace rngd::qwen3::cli
