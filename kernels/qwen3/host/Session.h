// One sequence on a Pipeline: the prompt (through the prefill stages in blocks, or token by
// token), then decode steps that sample the next token until an end id or the token budget.
// It keeps the sequence's position and what it has fed, so a later call continues it. Output
// (progress, streamed text, per-step lines) goes through callbacks: the tools decide what to
// print (docs/qwen3.md, "The host library").
#pragma once

#include "qwen3/host/Pipeline.h"
#include "qwen3/host/Sampler.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace rngd::qwen3 {

struct GenerateOptions {
  int maxNewTokens = 0;
  std::vector<int> stopIds;     // generation ends after one of these (not fed back)
  bool prefill = false; // the prompt through the pipeline's prefill stages (Pipeline::prefillPlan
                        // from the session's position), else token by token
};

/// What the callbacks see of one step (a prefill is one step for its whole prompt).
struct StepEvent {
  int index = 0;       // of the run's steps, 0-based
  int steps = 0;       // the run's steps: prompt + max(0, maxNewTokens - 1)
  int position = 0;
  int token = 0;       // the token fed
  int next = -1;       // the sampled token, -1 when the step has no logits
  double seconds = 0;  // wall time of the step
};

struct GenerateCallbacks {
  /// After each prompt token (all at once after a prefill): tokens done, of total, wall time.
  std::function<void(int done, int total, double seconds)> promptProgress;
  /// Each generated token that is kept, in order; `stop`: it is the end id that ends the
  /// generation.
  std::function<void(int token, bool stop)> token;
  /// After every step.
  std::function<void(const StepEvent &)> step;
  /// Asked before each step after the first token: false ends the generation there
  /// (GenerateResult::ended), for a stop string or an interrupt.
  std::function<bool()> keepGoing;
};

struct GenerateResult {
  std::vector<int> fed;       // tokens run through the pipeline, in order
  std::vector<int> generated; // sampled tokens, the end id included when it stopped them
  bool stopped = false;       // at an end id
  bool ended = false;         // keepGoing said no
  std::vector<float> logits;  // of the last step
  int steps = 0;              // planned steps (prompt + max(0, maxNewTokens - 1))
  int64_t firstTokenCycles = -1, firstTokenLaunches = 0; // device time to the first logits
  int64_t prefillCycles = 0, prefillLaunches = 0;        // device time of the prefill
  double promptSeconds = 0, loopSeconds = 0;
};

class Session {
public:
  /// `stages`: the pipeline stages whose counters make up the device time.
  Session(Pipeline &pipe, std::vector<int> stages, int startPos = 0)
      : pipe_(pipe), stages_(std::move(stages)), position_(startPos) {}

  /// Runs `prompt` from the session's position, then samples up to maxNewTokens tokens.
  GenerateResult generate(const std::vector<int> &prompt, const GenerateOptions &options,
                          Sampler &sampler, const GenerateCallbacks &callbacks = {});
  int position() const { return position_; }

  /// Feeds `tokens` from the session's position (prefill blocks and decode steps as
  /// Pipeline::prefillPlan lays them out; token by token without prefill) and advances it;
  /// leaves the last token's logits in res.logits and adds the tokens to res.fed.
  void prompt(const std::vector<int> &tokens, bool prefill, GenerateResult &res,
              const GenerateCallbacks &cb = {});

private:
  int64_t deviceCycles() const;
  int64_t deviceLaunches() const;
  Pipeline &pipe_;
  std::vector<int> stages_;
  int position_;
};

} // namespace rngd::qwen3
