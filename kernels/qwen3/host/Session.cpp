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

void Session::prompt(const std::vector<int> &tokens, bool prefill, GenerateResult &res,
                     const GenerateCallbacks &cb) {
  const int n = int(tokens.size());
  std::vector<Pipeline::PrefillPiece> plan;
  if (prefill && !pipe_.prefillSizes().empty())
    plan = Pipeline::prefillPlan(position_, n, pipe_.prefillSizes(), pipe_.partialPrefill());
  else
    for (int i = 0; i < n; ++i)
      plan.push_back({position_ + i, 1, 0});
  const auto start = Clock::now();
  bool blocks = false;
  for (const Pipeline::PrefillPiece &p : plan) {
    const auto ts = Clock::now();
    const int first = p.start - position_;
    const bool last = first + p.count == n;
    const std::vector<int> piece(tokens.begin() + first, tokens.begin() + first + p.count);
    if (p.size > 0) {
      pipe_.prefill(piece, p.start, p.size, last, res.logits);
      blocks = true;
    } else {
      pipe_.step(piece[0], p.start, last, res.logits);
    }
    res.fed.insert(res.fed.end(), piece.begin(), piece.end());
    res.promptSeconds = since(start);
    if (cb.promptProgress)
      cb.promptProgress(first + p.count, n, res.promptSeconds);
    if (last && blocks) {
      res.prefillCycles = deviceCycles();
      res.prefillLaunches = deviceLaunches();
    }
    if (cb.step && !last)
      cb.step({first + p.count - 1, res.steps, p.start + p.count - 1, piece.back(), -1,
               since(ts)});
  }
  position_ += n;
}

GenerateResult Session::generate(const std::vector<int> &tokens, const GenerateOptions &options,
                                 Sampler &sampler, const GenerateCallbacks &cb) {
  GenerateResult res;
  const int n = int(tokens.size());
  if (n == 0)
    throw std::invalid_argument("a generation needs at least one prompt token");
  res.steps = n + std::max(0, options.maxNewTokens - 1);
  const auto loopStart = Clock::now();
  auto ts = Clock::now();
  prompt(tokens, options.prefill, res, cb);
  res.firstTokenCycles = deviceCycles();
  res.firstTokenLaunches = deviceLaunches();
  // Sample from the last logits; feed the token back until the budget or an end id.
  for (int k = 0;; ++k) {
    const int next = sampler.next(res.logits);
    const bool stop =
        std::find(options.stopIds.begin(), options.stopIds.end(), next) != options.stopIds.end();
    if (int(res.generated.size()) < options.maxNewTokens) {
      res.generated.push_back(next);
      if (cb.token)
        cb.token(next, stop);
    }
    if (cb.step)
      cb.step({n - 1 + k, res.steps, position_ - 1, res.fed.back(), next, since(ts)});
    if (stop) {
      res.stopped = options.maxNewTokens > 0;
      break; // end of turn / end of text: nothing after it is fed
    }
    if (int(res.generated.size()) >= options.maxNewTokens)
      break;
    if (cb.keepGoing && !cb.keepGoing()) {
      res.ended = true;
      break;
    }
    ts = Clock::now();
    pipe_.step(next, position_, true, res.logits);
    res.fed.push_back(next);
    ++position_;
  }
  res.loopSeconds = since(loopStart);
  return res;
}

} // namespace rngd::qwen3
