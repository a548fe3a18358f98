// The BatchScheduler on a thread of its own, for a server (docs/serving.md): other threads
// submit and cancel requests at any time; the engine thread admits them between batched
// steps (continuous batching) and calls each request's listeners as its tokens come. A
// request waits in a bounded queue; submit refuses one when the queue is full.
#pragma once

#include "qwen3/host/BatchScheduler.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace rngd::qwen3 {

/// What the engine holds, for /health and the soak test.
struct EngineStats {
  int running = 0, waiting = 0;
  int kvChunks = 0;       // the pool
  int kvInUse = 0;        // chunks held (sequences, the prefix cache, the batch's padding)
  int kvPrefixCache = 0;  // chunks only the prefix cache holds
  int64_t decodeSteps = 0, requests = 0;
  int64_t cancelled = 0; // requests that ended by cancel() (a client that hung up, say)
  std::string failure; // why the engine stopped, "" while it runs
};

class Engine {
public:
  using Handle = uint64_t;
  /// Called on the engine thread: each token (false stops the request), then its end.
  struct Listener {
    BatchScheduler::TokenListener token;
    BatchScheduler::FinishListener finish;
  };

  /// `maxWaiting`: requests that may wait for a place in the batch.
  Engine(BatchScheduler &scheduler, Pipeline &pipe, int maxWaiting);
  ~Engine(); // stops the thread; requests still waiting or running end as cancelled

  /// Queues a request; false (nothing queued) when `maxWaiting` requests already wait or the
  /// engine has failed.
  bool submit(BatchRequest request, Listener listener, Handle &handle);
  /// Ends the request (BatchScheduler::cancel) at the engine's next chance.
  void cancel(Handle handle);
  EngineStats stats() const;

private:
  struct Submission {
    Handle handle;
    BatchRequest request;
    Listener listener;
  };
  void loop();
  /// Takes the queued submissions and cancellations into the scheduler (engine thread).
  void drain(std::unique_lock<std::mutex> &lock);
  void updateStats();
  void fail(const std::string &why);

  BatchScheduler &scheduler_;
  Pipeline &pipe_;
  const int maxWaiting_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Submission> inbox_;
  std::deque<Handle> cancels_;
  std::map<Handle, BatchScheduler::Id> ids_; // engine thread only
  Handle next_ = 0;
  int64_t cancelled_ = 0; // engine thread only
  bool stop_ = false;
  EngineStats stats_;
  std::thread thread_;
};

} // namespace rngd::qwen3
