#include "qwen3/host/BatchScheduler.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace rngd::qwen3 {

const char *stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::EndId:
    return "end_id";
  case StopReason::MaxTokens:
    return "max_new_tokens";
  case StopReason::Listener:
    return "stopped";
  case StopReason::Cancelled:
    return "cancelled";
  case StopReason::Refused:
    return "refused";
  }
  return "?";
}

struct BatchScheduler::Running {
  Id id = 0;
  BatchRequest request;
  TokenListener onToken;
  FinishListener onFinish;
  BatchResult result;
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
  const BatchRequest &q = r.request;
  BatchResult &res = r.result;
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
  res.firstTokenCycles = deviceCycles() - before;
  r.position = r.session->position();
  r.sampler->setPrompt(q.prompt);
  const int next = r.sampler->next(fed.logits);
  res.lastLogits = std::move(fed.logits);
  generated(r, next);
}

void BatchScheduler::generated(Running &r, int next) {
  BatchResult &res = r.result;
  r.next = next;
  res.generated.push_back(next);
  const BatchRequest &q = r.request;
  if (std::count(q.stopIds.begin(), q.stopIds.end(), next) > 0) {
    res.reason = StopReason::EndId;
    r.done = true;
  } else if (int(res.generated.size()) >= q.maxNewTokens) {
    res.reason = StopReason::MaxTokens;
    r.done = true;
  }
  if (r.onToken && !r.onToken(r.id, next) && !r.done) {
    res.reason = StopReason::Listener;
    r.done = true;
  }
}

void BatchScheduler::decode() {
  std::vector<Running *> batch;
  std::vector<BatchToken> tokens;
  for (auto &r : running_)
    if (!r->done) {
      batch.push_back(r.get());
      tokens.push_back({r->sequence.get(), r->next, r->position});
    }
  if (batch.empty())
    return;
  std::vector<std::vector<float>> logits;
  const int64_t cycles = pipe_.stepBatch(tokens, logits);
  steps_.push_back({int(batch.size()), cycles});
  for (size_t b = 0; b < batch.size(); ++b) {
    Running &r = *batch[b];
    r.result.decodeCycles += cycles;
    r.result.decodeSteps += 1;
    r.position += 1;
    const int next = r.sampler->next(logits[b]);
    r.result.lastLogits = std::move(logits[b]);
    generated(r, next);
  }
}

void BatchScheduler::retire() {
  std::vector<std::unique_ptr<Running>> done;
  for (auto &r : running_)
    if (r->done)
      done.push_back(std::move(r));
  running_.erase(std::remove(running_.begin(), running_.end(), nullptr), running_.end());
  for (auto &r : done) {
    r->session.reset();
    r->sequence.reset(); // its chunks return to the pool (those the prefix cache shares stay)
    if (r->onFinish)
      r->onFinish(r->id, r->result);
  }
}

std::string BatchScheduler::refusal(const BatchRequest &q) {
  const int chunks = Pipeline::kvChunks(positions(q));
  if (q.prompt.empty())
    return "the request has no prompt tokens";
  if (q.maxNewTokens < 1)
    return "max_new_tokens is " + std::to_string(q.maxNewTokens) + ", at least 1";
  const int usable = pipe_.kvCache().capacity() - 1; // one chunk holds the batch's padding
  if (chunks > usable)
    return "the request needs " + std::to_string(positions(q)) + " positions (" +
           std::to_string(chunks) + " KV chunks of " + std::to_string(kChunk) +
           "); the pool has " + std::to_string(usable) + " chunks for sequences";
  return "";
}

BatchScheduler::Id BatchScheduler::submit(BatchRequest request, TokenListener onToken,
                                          FinishListener onFinish) {
  auto r = std::make_unique<Running>();
  r->id = nextId_++;
  r->request = std::move(request);
  r->onToken = std::move(onToken);
  r->onFinish = std::move(onFinish);
  r->result.error = refusal(r->request);
  if (!r->result.error.empty()) {
    r->result.reason = StopReason::Refused;
    if (r->onFinish)
      r->onFinish(r->id, r->result);
    return r->id;
  }
  r->sampler = std::make_unique<Sampler>(r->request.sampling);
  waiting_.push_back(std::move(r));
  return waiting_.back()->id;
}

void BatchScheduler::cancel(Id id) {
  for (auto it = waiting_.begin(); it != waiting_.end(); ++it)
    if ((*it)->id == id) {
      std::unique_ptr<Running> r = std::move(*it);
      waiting_.erase(it);
      r->result.reason = StopReason::Cancelled;
      if (r->onFinish)
        r->onFinish(r->id, r->result);
      return;
    }
  for (auto &r : running_)
    if (r->id == id && !r->done) {
      r->result.reason = StopReason::Cancelled;
      r->done = true;
    }
  retire();
}

bool BatchScheduler::admit() {
  if (waiting_.empty() || int(running_.size()) >= maxBatch_)
    return false;
  const BatchRequest &q = waiting_.front()->request;
  // The chunks of the whole run, less the prefix's whole chunks it shares; cached prompts
  // make room, the one it shares last.
  int shared = 0;
  Cached *from = prefixCache_ ? longestPrefix(q.prompt, shared) : nullptr;
  auto need = [&] { return Pipeline::kvChunks(positions(q)) - shared / kChunk; };
  while (need() > freeChunks() && makeRoom(need(), from))
    from = prefixCache_ ? longestPrefix(q.prompt, shared) : nullptr; // `from` may be gone
  from = prefixCache_ ? longestPrefix(q.prompt, shared) : nullptr;
  if (need() > freeChunks()) {
    if (running_.empty())
      throw std::logic_error("internal error: an admitted request does not fit the KV pool");
    return false;
  }
  running_.push_back(std::move(waiting_.front()));
  waiting_.pop_front();
  start(*running_.back(), from, shared);
  return true;
}

bool BatchScheduler::step() {
  if (waiting_.empty() && running_.empty())
    return false;
  // Join: in request order, while the batch has room and the pool the chunks for the whole
  // run (so a running sequence never runs out).
  while (admit()) {
  }
  decode();
  retire(); // finished sequences return their chunks
  return true;
}

int BatchScheduler::cachedOnlyChunks() const {
  std::vector<bool> seen(size_t(pipe_.kvCache().capacity()), false);
  int n = 0;
  for (const Cached &c : cache_)
    for (int chunk : c.sequence->chunks())
      if (!seen[size_t(chunk)]) {
        seen[size_t(chunk)] = true;
        int holders = 0;
        for (const Cached &d : cache_)
          holders += int(std::count(d.sequence->chunks().begin(), d.sequence->chunks().end(),
                                    chunk));
        n += pipe_.kvCache().users(chunk) == holders;
      }
  return n;
}

std::vector<BatchResult>
BatchScheduler::run(const std::vector<BatchRequest> &requests,
                    const std::function<void(size_t, const BatchResult &)> &finished) {
  std::vector<BatchResult> results(requests.size());
  const Id first = nextId_;
  auto done = [&](Id id, const BatchResult &r) {
    results[size_t(id - first)] = r;
    if (finished)
      finished(size_t(id - first), results[size_t(id - first)]);
  };
  for (const BatchRequest &q : requests)
    submit(q, {}, done);
  while (step()) {
  }
  return results;
}

} // namespace rngd::qwen3
