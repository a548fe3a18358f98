#include "qwen3/host/BatchScheduler.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace rngd::qwen3 {

struct BatchScheduler::Running {
  size_t index = 0;
  const BatchRequest *request = nullptr;
  std::unique_ptr<KvSequence> sequence;
  std::unique_ptr<Sampler> sampler;
  std::unique_ptr<Session> session; // its prompt on its sequence
  int position = 0; // of the next token fed
  int next = -1;    // the token fed at the next step
  bool done = false;
};

BatchScheduler::BatchScheduler(Pipeline &pipe, int maxBatch, bool prefill, bool prefixCache)
    : pipe_(pipe), maxBatch_(maxBatch), prefill_(prefill), prefixCache_(prefixCache) {
  if (pipe.batchSizes().empty())
    throw std::logic_error("internal error: a BatchScheduler needs Pipeline::enableBatch");
  if (maxBatch < 1 || maxBatch > pipe.batchSizes().back())
    throw std::invalid_argument("the batch holds 1.." + std::to_string(pipe.batchSizes().back()) +
                                " sequences, not " + std::to_string(maxBatch));
}

BatchScheduler::~BatchScheduler() = default;

int BatchScheduler::freeChunks() const {
  return pipe_.kvCache().capacity() - pipe_.kvCache().chunksInUse();
}

BatchScheduler::Cached *BatchScheduler::longestPrefix(const std::vector<int> &prompt,
                                                      int &length) {
  Cached *best = nullptr;
  length = 0;
  for (Cached &c : cache_) {
    const size_t most = std::min(c.prompt.size(), prompt.size() - 1);
    const int common =
        int(std::mismatch(prompt.begin(), prompt.begin() + ptrdiff_t(most), c.prompt.begin())
                .first -
            prompt.begin());
    if (common >= kMinCachedPrefix && common > length) {
      best = &c;
      length = common;
    }
  }
  return best;
}

bool BatchScheduler::makeRoom(int chunks, const Cached *keep) {
  // Prompts whose eviction frees a chunk (one no running sequence holds too) go first; when
  // none does alone (cached prompts sharing chunks), any, so the cache always makes way.
  auto frees = [&](const Cached &c) {
    for (int chunk : c.sequence->chunks())
      if (pipe_.kvCache().users(chunk) == 1)
        return true;
    return false;
  };
  auto order = [&](const Cached &c) { return std::make_tuple(!frees(c), &c == keep, c.lastUse); };
  while (freeChunks() < chunks && !cache_.empty())
    cache_.erase(std::min_element(cache_.begin(), cache_.end(),
                                  [&](const Cached &a, const Cached &b) {
                                    return order(a) < order(b);
                                  }));
  return freeChunks() >= chunks;
}

int BatchScheduler::positions(const BatchRequest &r) {
  return int(r.prompt.size()) + std::max(0, r.maxNewTokens - 1);
}

int64_t BatchScheduler::deviceCycles() const {
  int64_t c = 0;
  for (int s = 0; s < NumStages; ++s)
    c += pipe_.stats(s).cycles;
  return c;
}

void BatchScheduler::start(Running &r, Cached *from, int shared) {
  const BatchRequest &q = *r.request;
  BatchResult &res = (*results_)[r.index];
  const int64_t before = deviceCycles();
  r.sequence = std::make_unique<KvSequence>(pipe_.kvCache());
  if (from) { // the cached prompt's KV rows of the common prefix, then the rest of the prompt
    pipe_.forkPrefix(*from->sequence, shared, *r.sequence);
    from->lastUse = ++clock_;
    res.cachedTokens = shared;
  }
  r.sequence->reserve(positions(q));
  r.session = std::make_unique<Session>(pipe_, std::vector<int>{}, shared);
  GenerateResult fed;
  pipe_.useSequence(r.sequence.get());
  r.session->prompt(std::vector<int>(q.prompt.begin() + shared, q.prompt.end()), prefill_, fed);
  pipe_.useSequence(nullptr);
  if (prefixCache_ && int(q.prompt.size()) > kMinCachedPrefix) {
    Cached c{q.prompt, std::make_unique<KvSequence>(pipe_.kvCache()), ++clock_};
    c.sequence->share(*r.sequence, Pipeline::kvChunks(int(q.prompt.size())));
    cache_.push_back(std::move(c));
  }
  std::vector<float> &logits = fed.logits;
  res.firstTokenCycles = deviceCycles() - before;
  r.position = r.session->position();
  r.next = r.sampler->next(logits);
  res.generated.push_back(r.next);
  res.lastLogits = std::move(logits);
  res.stopped = std::count(q.stopIds.begin(), q.stopIds.end(), r.next) > 0;
  r.done = res.stopped || int(res.generated.size()) >= q.maxNewTokens;
}

void BatchScheduler::step(std::vector<Running *> &running) {
  std::vector<BatchToken> tokens;
  for (Running *r : running)
    tokens.push_back({r->sequence.get(), r->next, r->position});
  std::vector<std::vector<float>> logits;
  const int64_t cycles = pipe_.stepBatch(tokens, logits);
  steps_.push_back({int(running.size()), cycles});
  for (size_t b = 0; b < running.size(); ++b) {
    Running &r = *running[b];
    BatchResult &res = (*results_)[r.index];
    res.decodeCycles += cycles;
    res.decodeSteps += 1;
    r.position += 1;
    r.next = r.sampler->next(logits[b]);
    res.generated.push_back(r.next);
    res.lastLogits = std::move(logits[b]);
    res.stopped = std::count(r.request->stopIds.begin(), r.request->stopIds.end(), r.next) > 0;
    r.done = res.stopped || int(res.generated.size()) >= r.request->maxNewTokens;
  }
}

std::vector<BatchResult>
BatchScheduler::run(const std::vector<BatchRequest> &requests,
                    const std::function<void(size_t, const BatchResult &)> &finished) {
  std::vector<BatchResult> results(requests.size());
  results_ = &results;
  std::deque<size_t> waiting;
  for (size_t i = 0; i < requests.size(); ++i) {
    const BatchRequest &q = requests[i];
    const int chunks = Pipeline::kvChunks(positions(q));
    if (chunks > freeChunks())
      makeRoom(chunks);
    const int usable = freeChunks();
    if (q.prompt.empty())
      results[i].error = "the request has no prompt tokens";
    else if (q.maxNewTokens < 1)
      results[i].error = "max_new_tokens is " + std::to_string(q.maxNewTokens) + ", at least 1";
    else if (chunks > usable)
      results[i].error = "the request needs " + std::to_string(positions(q)) + " positions (" +
                         std::to_string(chunks) + " KV chunks of " + std::to_string(kChunk) +
                         "); the pool has " + std::to_string(usable) + " chunks for sequences";
    else
      waiting.push_back(i);
    if (!results[i].error.empty() && finished)
      finished(i, results[i]);
  }
  std::vector<std::unique_ptr<Running>> running;
  while (!waiting.empty() || !running.empty()) {
    // Join: in request order, while the batch has room and the pool the chunks for the whole
    // run (so a running sequence never runs out).
    while (!waiting.empty() && int(running.size()) < maxBatch_) {
      const BatchRequest &q = requests[waiting.front()];
      // The chunks of the whole run, less the prefix's whole chunks it shares; cached prompts
      // make room, the one it shares last.
      int shared = 0;
      Cached *from = prefixCache_ ? longestPrefix(q.prompt, shared) : nullptr;
      auto need = [&] { return Pipeline::kvChunks(positions(q)) - shared / kChunk; };
      while (need() > freeChunks() && makeRoom(need(), from))
        from = prefixCache_ ? longestPrefix(q.prompt, shared) : nullptr; // `from` may be gone
      from = prefixCache_ ? longestPrefix(q.prompt, shared) : nullptr;
      if (need() > freeChunks()) {
        if (running.empty())
          throw std::logic_error("internal error: an admitted request does not fit the KV pool");
        break;
      }
      auto r = std::make_unique<Running>();
      r->index = waiting.front();
      r->request = &q;
      r->sampler = std::make_unique<Sampler>(q.sampling);
      waiting.pop_front();
      start(*r, from, shared);
      running.push_back(std::move(r));
    }
    std::vector<Running *> batch;
    for (auto &r : running)
      if (!r->done)
        batch.push_back(r.get());
    if (!batch.empty())
      step(batch);
    // Leave: finished sequences return their chunks.
    for (auto &r : running)
      if (r->done && finished)
        finished(r->index, results[r->index]);
    running.erase(std::remove_if(running.begin(), running.end(),
                                 [](const std::unique_ptr<Running> &r) { return r->done; }),
                  running.end());
  }
  results_ = nullptr;
  return results;
}

} // namespace rngd::qwen3
