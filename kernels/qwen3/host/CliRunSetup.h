// The parts of a one-prompt run of rngd-qwen3 (CliRun.cpp) that decide and prepare it before
// generation, and check it after: the positions and device HBM it takes, whether the prompt goes
// through the prefill stages, the stage kernels, --start-pos' seeded KV rows and --check's
// comparison with the reference decoder.
#pragma once

#include "qwen3/host/CliOptions.h"
#include "qwen3/host/Model.h"
#include "qwen3/host/Pipeline.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rngd::qwen3::cli {

/// Positions a run uses: the prompt starts at --start-pos and every generated token but the last
/// is fed back.
long long positionsNeeded(const Options &opt);

/// Whether the prompt goes through the prefill stages, and in which blocks.
struct PrefillChoice {
  int tokens = 0;           // prompt tokens prefilled (0: none)
  std::vector<int> blocks;  // each block's size, in order (Pipeline::prefillBlocks)
  std::vector<int> sizes;   // the distinct sizes, ascending: the kernels a run loads
  std::string why;          // why not, when the stages cannot run (empty: --no-prefill)
  bool unplaced = false;    // why: the generator cannot place the prefill stages
};

/// The run's limits (positions against the KV cache and max_position_embeddings, device HBM
/// against the target's), each an error with the numbers; then the prefill choice.
PrefillChoice checkLimits(const Options &opt, const Qwen3Config &config, bool fromCheckpoint);

/// The directory of the run's stage kernels: --kernels', else the stage cache's for the model
/// (its decode stages and the prefill stages at each block size compiled there on first use).
std::string runKernels(const Options &opt, const Qwen3Config &cfg, const PrefillChoice &prefill);

/// --start-pos' KV rows, seeded, for positions 0..P-1 of every layer: into the pipeline's cache
/// and (for --check's reference, as float) returned.
struct StartRows {
  std::vector<std::vector<float>> keys, values;
};
StartRows preloadStartRows(const Options &opt, Pipeline &pipe, const Qwen3Config &cfg,
                           int threads);

/// --check: the reference decoder over the tokens the pipeline was fed (from --start-pos's
/// seeded rows), compared with the last logits, and every boundary's count; prints the verdict
/// and returns --json's "check" object (its "pass").
nlohmann::json checkAgainstReference(const Options &opt, const Weights &weights,
                                     const Pipeline *pipe, const std::vector<int> &stages,
                                     const std::vector<int> &fed, const std::vector<float> &logits,
                                     StartRows rows, int threads);

} // namespace rngd::qwen3::cli
