// rngd-qwen3 --tensor-parallel N: one prompt on N simulated chips, one MPI rank each
// (docs/multichip.md). Rank 0 tokenizes, samples and prints; every rank loads only its shard
// of the weights and runs its chip's decode stages; the ranks exchange rows through `group`.
#pragma once

#include "qwen3/host/CliOptions.h"
#include "qwen3/host/Collective.h"

namespace rngd::qwen3::cli {

/// Runs the options' prompt on `group` (its size must be --tensor-parallel's N); the exit code.
/// Errors exit with a message; the caller ends the other ranks.
int runTensorParallel(Options opt, Collective &group);

} // namespace rngd::qwen3::cli
