#include "qwen3/host/BatchScheduler.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <stdexcept>

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

BatchScheduler::BatchScheduler(Pipeline &pipe, int maxBatch, bool prefill)
    : pipe_(pipe), maxBatch_(maxBatch), prefill_(prefill) {
  if (pipe.batchSizes().empty())
    throw std::logic_error("internal error: a BatchScheduler needs Pipeline::enableBatch");
  if (maxBatch < 1 || maxBatch > pipe.batchSizes().back())
    throw std::invalid_argument("the batch holds 1.." + std::to_string(pipe.batchSizes().back()) +
                                " sequences, not " + std::to_string(maxBatch));
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

void BatchScheduler::start(Running &r) {
  const BatchRequest &q = *r.request;
  BatchResult &res = (*results_)[r.index];
  const int64_t before = deviceCycles();
  GenerateResult fed;
  pipe_.useSequence(r.sequence.get());
  r.session->prompt(q.prompt, prefill_, fed);
  pipe_.useSequence(nullptr);
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
  KvCache &pool = pipe_.kvCache();
  std::deque<size_t> waiting;
  for (size_t i = 0; i < requests.size(); ++i) {
    const BatchRequest &q = requests[i];
    const int chunks = Pipeline::kvChunks(positions(q));
    const int usable = pool.capacity() - pool.chunksInUse();
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
      const int chunks = Pipeline::kvChunks(positions(q));
      if (chunks > pool.capacity() - pool.chunksInUse())
        break;
      auto r = std::make_unique<Running>();
      r->index = waiting.front();
      r->request = &q;
      r->sequence = std::make_unique<KvSequence>(pool);
      r->sequence->reserve(positions(q));
      r->sampler = std::make_unique<Sampler>(q.sampling);
      r->session = std::make_unique<Session>(pipe_, std::vector<int>{});
      waiting.pop_front();
      start(*r);
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
