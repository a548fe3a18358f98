#include "qwen3/host/Session.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace rngd::qwen3 {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
} // namespace

int64_t Session::deviceCycles() const {
  int64_t c = 0;
  for (int s : stages_)
    c += pipe_.stats(s).cycles;
  return c;
}

int64_t Session::deviceLaunches() const {
  int64_t n = 0;
  for (int s : stages_)
    n += pipe_.stats(s).launches;
  return n;
}

GenerateResult Session::generate(const std::vector<int> &prompt, const GenerateOptions &options,
                                 Sampler &sampler, const GenerateCallbacks &cb) {
  GenerateResult res;
  const int promptLen = int(prompt.size());
  if (promptLen == 0)
    throw std::invalid_argument("a generation needs at least one prompt token");
  const bool prefilling = !options.prefillBlocks.empty();
  if (prefilling && position_ != 0)
    throw std::invalid_argument("the prefill stages start at position 0, the session is at " +
                                std::to_string(position_));
  res.steps = promptLen + std::max(0, options.maxNewTokens - 1);
  const auto loopStart = Clock::now();
  int next = -1;
  for (int i = 0; i < res.steps; ++i) {
    const auto ts = Clock::now();
    const bool prefilled = i == 0 && prefilling;
    if (prefilled) {
      // The prompt in blocks, each at the start of a KV chunk, one pass per layer each; the
      // loop goes on at its last token.
      for (size_t b = 0, begin = 0; b < options.prefillBlocks.size(); ++b, begin += kChunk) {
        const size_t end = std::min(size_t(promptLen), begin + size_t(options.prefillBlocks[b]));
        std::vector<int> block(prompt.begin() + ptrdiff_t(begin), prompt.begin() + ptrdiff_t(end));
        pipe_.prefill(block, int(b), options.prefillBlocks[b], int(end) == promptLen,
                      res.logits);
      }
      i = promptLen - 1;
      res.fed.insert(res.fed.end(), prompt.begin(), prompt.begin() + i);
      res.prefillCycles = deviceCycles();
      res.prefillLaunches = deviceLaunches();
    }
    const int pos = position_ + i;
    const int token = i < promptLen ? prompt[size_t(i)] : next;
    const bool wantLogits = i >= promptLen - 1;
    if (!prefilled)
      pipe_.step(token, pos, wantLogits, res.logits);
    if (wantLogits && res.firstTokenCycles < 0) {
      res.firstTokenCycles = deviceCycles();
      res.firstTokenLaunches = deviceLaunches();
    }
    res.fed.push_back(token);
    if (i < promptLen) {
      res.promptSeconds = since(loopStart);
      if (cb.promptProgress)
        cb.promptProgress(i + 1, promptLen, res.promptSeconds);
    }
    StepEvent ev{i, res.steps, pos, token, -1, since(ts)};
    bool stop = false;
    if (wantLogits) {
      next = sampler.next(res.logits);
      ev.next = next;
      stop = std::find(options.stopIds.begin(), options.stopIds.end(), next) !=
             options.stopIds.end();
      if (int(res.generated.size()) < options.maxNewTokens) {
        res.generated.push_back(next);
        if (cb.token)
          cb.token(next, stop);
      }
    }
    if (cb.step)
      cb.step(ev);
    if (stop) {
      res.stopped = options.maxNewTokens > 0;
      break; // end of turn / end of text: nothing after it is fed
    }
  }
  position_ += int(res.fed.size());
  res.loopSeconds = since(loopStart);
  return res;
}

} // namespace rngd::qwen3
