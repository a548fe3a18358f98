#include "qwen3/host/Engine.h"

#include <exception>

namespace rngd::qwen3 {

Engine::Engine(BatchScheduler &scheduler, Pipeline &pipe, int maxWaiting)
    : scheduler_(scheduler), pipe_(pipe), maxWaiting_(maxWaiting) {
  updateStats();
  thread_ = std::thread([this] { loop(); });
}

Engine::~Engine() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool Engine::submit(BatchRequest request, Listener listener, Handle &handle) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_ || !stats_.failure.empty() ||
        int(inbox_.size()) + stats_.waiting >= maxWaiting_)
      return false;
    handle = next_++;
    inbox_.push_back({handle, std::move(request), std::move(listener)});
  }
  wake_.notify_all();
  return true;
}

void Engine::cancel(Handle handle) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancels_.push_back(handle);
  }
  wake_.notify_all();
}

EngineStats Engine::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void Engine::drain(std::unique_lock<std::mutex> &lock) {
  std::deque<Submission> inbox;
  std::deque<Handle> cancels;
  inbox.swap(inbox_);
  cancels.swap(cancels_);
  lock.unlock(); // listeners may run below (a refusal finishes at once)
  for (Submission &s : inbox) {
    const Handle h = s.handle;
    BatchScheduler::FinishListener finish = [this, h, f = std::move(s.listener.finish)](
                                                BatchScheduler::Id id, const BatchResult &r) {
      ids_.erase(h);
      cancelled_ += r.reason == StopReason::Cancelled;
      if (f)
        f(id, r);
    };
    ids_[h] = 0; // known before submit, which may finish it at once
    const BatchScheduler::Id id =
        scheduler_.submit(std::move(s.request), std::move(s.listener.token), std::move(finish));
    if (ids_.count(h))
      ids_[h] = id;
  }
  for (Handle h : cancels)
    if (auto it = ids_.find(h); it != ids_.end())
      scheduler_.cancel(it->second);
  lock.lock();
}

void Engine::updateStats() {
  // Engine thread (or the constructor), with mutex_ held.
  stats_.running = scheduler_.running();
  stats_.waiting = scheduler_.waiting();
  stats_.kvChunks = pipe_.kvCache().capacity();
  stats_.kvInUse = pipe_.kvCache().chunksInUse();
  stats_.kvPrefixCache = scheduler_.cachedOnlyChunks();
  stats_.decodeSteps = int64_t(scheduler_.decodeSteps().size());
  stats_.cancelled = cancelled_;
}

void Engine::fail(const std::string &why) {
  // The pipeline's state is unknown after an exception: every request ends, and the engine
  // takes no more.
  for (auto &[h, id] : std::map<Handle, BatchScheduler::Id>(ids_))
    scheduler_.cancel(id);
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.failure = why;
}

void Engine::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] {
      return stop_ || !inbox_.empty() || !cancels_.empty() ||
             scheduler_.running() + scheduler_.waiting() > 0;
    });
    if (stop_)
      break;
    stats_.requests += int64_t(inbox_.size());
    drain(lock);
    lock.unlock();
    std::string failure;
    try {
      scheduler_.step();
    } catch (const std::exception &e) {
      failure = e.what();
    }
    if (!failure.empty())
      fail(failure);
    lock.lock();
    updateStats();
    if (!stats_.failure.empty())
      break;
  }
  // Stopping: what is queued or running ends as cancelled.
  drain(lock);
  lock.unlock();
  for (auto &[h, id] : std::map<Handle, BatchScheduler::Id>(ids_))
    scheduler_.cancel(id);
}

} // namespace rngd::qwen3
