// rngd-qwen3's runs: one prompt, or --prompts' requests (CliRun.cpp).
#pragma once

#include "qwen3/host/CliOptions.h"

namespace rngd::qwen3::cli {

/// Runs what the options ask for; the exit code (0, or 1 when --check fails or a request
/// could not run). Errors throw or exit with a message.
int run(Options opt);

} // namespace rngd::qwen3::cli
