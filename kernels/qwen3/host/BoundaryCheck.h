// --check's per-boundary oracle as a pipeline observer (Pipeline::observe): around every launch
// it reads the stage's inputs and outputs from the device and compares them with the host
// oracle (StageOracle.h) under the reference rule; the counts per stage are the report's
// boundary check. The pipeline runs the same with or without it.
#pragma once

#include "qwen3/host/Pipeline.h"
#include "qwen3/host/StageOracle.h"

#include <vector>

namespace rngd::qwen3 {

class BoundaryCheck : public PipelineObserver {
public:
  void before(const Pipeline &p, const LaunchInfo &l) override;
  void after(const Pipeline &p, const LaunchInfo &l) override;

  /// The reference rule over all of a stage's checked elements, and its failing launches.
  const oracle::RuleCount &count(int s) const { return counts_[s]; }
  int failedLaunches(int s) const { return failed_[s]; }

private:
  void record(int s, const oracle::RuleCount &c);
  void checkDecodeLayer(const Pipeline &p, const LaunchInfo &l);
  /// A prefill block's layer, row by row for its prompt tokens (after prefill_decoder).
  void checkPrefillLayer(const Pipeline &p, const LaunchInfo &l);

  oracle::RuleCount counts_[NumStages];
  int failed_[NumStages] = {};
  // What a launch overwrites, read before it: x before the decoder (in place), the attention
  // state before a fold.
  std::vector<uint16_t> xBefore_;
  oracle::AttentionState stateBefore_;
};

} // namespace rngd::qwen3
