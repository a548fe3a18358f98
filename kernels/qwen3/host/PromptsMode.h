// `rngd-qwen3 --prompts FILE.jsonl --max-batch B`: the requests run together on one pipeline
// (BatchScheduler), joining and leaving the batch between steps; one JSON line per request on
// stdout, in input order (docs/batching.md).
#pragma once

#include "qwen3/host/BatchScheduler.h"
#include "qwen3/host/Model.h"
#include "qwen3/host/Tokenizer.h"

#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

struct PromptsModeOptions {
  int maxBatch = 8;
  std::string dumpLogitsDir; // DIR/<index>.f32: each request's last logits
  std::string report;        // --report: stages and decode_steps as JSON
  bool noPrefill = false;    // prompts token by token
  bool quiet = false;        // no summary on stderr
  bool check = false;        // each request's last logits against the host reference decoder
  bool prefixCache = true;   // reuse the KV rows of a prompt prefix an earlier request had
};

/// The stages of a batched run (generated and compiled, or found in the stage cache), its
/// pipeline over a pool of `poolChunks` KV chunks, and its scheduler (--prompts, serve).
struct BatchRuntime {
  std::unique_ptr<Pipeline> pipe;
  std::unique_ptr<BatchScheduler> scheduler;
};
BatchRuntime makeBatchRuntime(const Weights &weights, int maxBatch, int poolChunks,
                              bool noPrefill, bool prefixCache);

/// One sequence's pipeline of `positions` positions, with the prefill stages (continuing a
/// sequence mid-chunk too) unless `noPrefill` or they do not place (chat).
std::unique_ptr<Pipeline> makeSequencePipeline(const Weights &weights, int positions,
                                               bool noPrefill);

/// Runs `requests` (checked: parsePromptsFile) on seeded or loaded weights, the stages from the
/// stage cache. Returns the exit code: 0, or 1 when a request failed.
int runPromptsMode(const PromptsModeOptions &options, const Weights &weights,
                   const std::vector<BatchRequest> &requests, const Tokenizer *tokenizer);

} // namespace rngd::qwen3
