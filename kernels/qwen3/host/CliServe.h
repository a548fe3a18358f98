// `rngd-qwen3 serve` (docs/serving.md): the weights, the batched stages and an Engine behind the
// OpenAI-compatible HTTP server, until SIGINT or SIGTERM.
#pragma once

#include "qwen3/host/CliOptions.h"
#include "qwen3/host/Model.h"

namespace rngd::qwen3::cli {

/// Serves until a signal stops it; the exit code.
int runServe(const Options &opt, const Qwen3Config &modelConfig);

} // namespace rngd::qwen3::cli
