// Many requests on one Pipeline (docs/batching.md): each request is a sequence with its own KV
// chunks from the pipeline's pool; its prompt is prefilled when it joins, and every step after
// that decodes one token of each running sequence in one batched step (Pipeline::stepBatch).
// Requests join between steps, up to maxBatch at a time and while the pool has the chunks their
// whole run needs, and leave when they stop; a request that could never fit is refused with the
// numbers, the others run on.
#pragma once

#include "qwen3/host/Pipeline.h"
#include "qwen3/host/Sampler.h"
#include "qwen3/host/Session.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rngd::qwen3 {

struct BatchRequest {
  std::vector<int> prompt; // token ids, at least one
  int maxNewTokens = 16;
  SamplingOptions sampling;
  std::vector<int> stopIds; // generation ends after one of these (kept in generated)
};

struct BatchResult {
  std::vector<int> generated;
  bool stopped = false;          // at a stop id (else the token budget ended it)
  int64_t firstTokenCycles = 0;  // device cycles of its prompt, up to its first token
  int64_t decodeCycles = 0;      // device cycles of the batched steps it took part in
  int decodeSteps = 0;
  std::vector<float> lastLogits; // of its last step
  std::string error;             // why it did not run (then nothing else is set)
};

/// One batched decode step: how many sequences it ran and its device cycles.
struct DecodeStepRecord {
  int batch = 0;
  int64_t cycles = 0;
};

class BatchScheduler {
public:
  /// `prefill`: prompts through the pipeline's prefill stages (else token by token).
  BatchScheduler(Pipeline &pipe, int maxBatch, bool prefill);

  /// Runs every request to its end; results in request order. `finished` (optional) is called
  /// as each request ends, with its index and result (valid until run returns).
  std::vector<BatchResult>
  run(const std::vector<BatchRequest> &requests,
      const std::function<void(size_t, const BatchResult &)> &finished = {});
  const std::vector<DecodeStepRecord> &decodeSteps() const { return steps_; }

private:
  struct Running;
  /// Positions a request's run takes: its prompt and every generated token but the last.
  static int positions(const BatchRequest &r);
  /// Prefills the request's prompt on its sequence and samples its first token.
  void start(Running &r);
  /// One batched step over `running`; sequences that end are marked done.
  void step(std::vector<Running *> &running);
  int64_t deviceCycles() const;

  Pipeline &pipe_;
  int maxBatch_;
  bool prefill_;
  std::vector<DecodeStepRecord> steps_;
  std::vector<BatchResult> *results_ = nullptr;
};

} // namespace rngd::qwen3
