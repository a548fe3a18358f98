// Many requests on one Pipeline (docs/batching.md): each request is a sequence with its own KV
// chunks from the pipeline's pool; its prompt is prefilled when it joins, and every step after
// that decodes one token of each running sequence in one batched step (Pipeline::stepBatch).
// Requests join between steps, up to maxBatch at a time and while the pool has the chunks their
// whole run needs, and leave when they stop; a request that could never fit is refused with the
// numbers, the others run on.
//
// Requests arrive at any time (submit) and are driven one step at a time (step), so a server
// can run them as they come (continuous batching); run() takes a fixed list to its end. The
// scheduler is not thread-safe: one thread submits, cancels and steps (Engine.h wraps it).
#pragma once

#include "qwen3/host/Pipeline.h"
#include "qwen3/host/Sampler.h"
#include "qwen3/host/Session.h"

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngd::qwen3 {

struct BatchRequest {
  std::vector<int> prompt; // token ids, at least one
  int maxNewTokens = 16;
  SamplingOptions sampling;
  std::vector<int> stopIds; // generation ends after one of these (kept in generated)
};

/// Why a request ended.
enum class StopReason {
  EndId,     // it generated one of its stop ids
  MaxTokens, // its token budget ended it
  Listener,  // its token listener asked it to stop (a stop string, say)
  Cancelled, // cancel(): before or while it ran
  Refused,   // it could not run (BatchResult::error says why)
};
const char *stopReasonName(StopReason reason);

struct BatchResult {
  std::vector<int> generated;
  StopReason reason = StopReason::MaxTokens;
  int64_t firstTokenCycles = 0;  // device cycles of its prompt, up to its first token
  int64_t decodeCycles = 0;      // device cycles of the batched steps it took part in
  int decodeSteps = 0;
  int cachedTokens = 0;          // prompt tokens whose KV rows came from a cached prefix
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
  using Id = uint64_t;
  /// Each generated token as it is sampled; false stops the request (StopReason::Listener).
  using TokenListener = std::function<bool(Id, int token)>;
  /// Once, when the request ends (the result is valid during the call).
  using FinishListener = std::function<void(Id, const BatchResult &)>;

  /// `prefill`: prompts through the pipeline's prefill stages (else token by token).
  /// `prefixCache`: a request whose prompt starts with at least kMinCachedPrefix tokens of an
  /// earlier request's prompt takes their KV rows (Pipeline::forkPrefix) instead of
  /// prefilling them; the prompts stay cached, holding their chunks, until the pool needs them.
  BatchScheduler(Pipeline &pipe, int maxBatch, bool prefill, bool prefixCache = true);
  ~BatchScheduler();
  static constexpr int kMinCachedPrefix = 16;

  /// Queues a request (ids count up from 0). One that can never run (no prompt, no token
  /// budget, more KV chunks than the pool has) finishes at once with StopReason::Refused.
  Id submit(BatchRequest request, TokenListener onToken = {}, FinishListener onFinish = {});
  /// Ends a waiting or running request now (StopReason::Cancelled); its chunks return to the
  /// pool. Unknown or finished ids are ignored.
  void cancel(Id id);
  /// Admits waiting requests (prefilling their prompts) and runs one batched decode step;
  /// false when there was nothing to do.
  bool step();
  int waiting() const { return int(waiting_.size()); }
  int running() const { return int(running_.size()); }
  /// KV chunks the prefix cache holds that no running request holds too.
  int cachedOnlyChunks() const;

  /// Runs every request to its end; results in request order. `finished` (optional) is called
  /// as each request ends, with its index and result (valid until run returns).
  std::vector<BatchResult>
  run(const std::vector<BatchRequest> &requests,
      const std::function<void(size_t, const BatchResult &)> &finished = {});
  const std::vector<DecodeStepRecord> &decodeSteps() const { return steps_; }

private:
  struct Running;
  struct Cached {
    std::vector<int> prompt;
    std::unique_ptr<KvSequence> sequence; // shares the chunks of the prompt's rows
    uint64_t lastUse = 0;
  };
  /// The cached prompt sharing the longest prefix with `prompt` (at most its length - 1, at
  /// least kMinCachedPrefix tokens), and that length; nullptr when none does.
  Cached *longestPrefix(const std::vector<int> &prompt, int &length);
  /// Drops cached prompts until `chunks` chunks are free: those whose eviction frees a chunk
  /// first, `keep` last, least recently used first; false when the cache runs out first.
  bool makeRoom(int chunks, const Cached *keep = nullptr);
  int freeChunks() const;
  /// Positions a request's run takes: its prompt and every generated token but the last.
  static int positions(const BatchRequest &r);
  /// Why `r` can never run on this pool, or "".
  std::string refusal(const BatchRequest &r);
  /// Admits the first waiting request when the batch and the pool have room; false if not.
  bool admit();
  /// Takes the request's sequence (with `from`'s first `shared` positions, when given),
  /// prefills the rest of its prompt, caches the prompt, and samples its first token.
  void start(Running &r, Cached *from, int shared);
  /// Records token `next` of `r`; marks it done when it ends.
  void generated(Running &r, int next);
  /// One batched step over the running requests that are not done.
  void decode();
  /// Ends the requests marked done: calls their listeners and frees their chunks.
  void retire();
  int64_t deviceCycles() const;

  Pipeline &pipe_;
  int maxBatch_;
  bool prefill_, prefixCache_;
  std::list<Cached> cache_; // stable addresses: a Cached * outlives other entries' eviction
  uint64_t clock_ = 0;
  Id nextId_ = 0;
  std::list<std::unique_ptr<Running>> waiting_;
  std::vector<std::unique_ptr<Running>> running_;
  std::vector<DecodeStepRecord> steps_;
};

} // namespace rngd::qwen3
