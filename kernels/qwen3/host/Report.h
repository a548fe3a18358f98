// What a run of rngd-qwen3 measured, as one JSON document (--report, and the parts --json
// repeats) and as the human-readable table printed from that same document: per stage the
// launches, simulated cycles, the HBM bytes and roofline of its schedules; the totals; the time
// to the first token; the prefill against its compute roofline (docs/qwen3.md, "The report").
#pragma once

#include "qwen3/host/Model.h"
#include "qwen3/host/Pipeline.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace rngd::qwen3 {

/// What the generation loop measured beside the pipeline's per-stage counters.
struct RunTotals {
  int startPos = 0;
  int promptTokens = 0;
  int newTokens = 0; // --max-new-tokens
  int steps = 0;     // tokens run through the pipeline, the prompt's included
  std::vector<int> generated;
  int64_t firstTokenCycles = -1, firstTokenLaunches = 0; // device time until the first logits
  int prefillTokens = 0;                                 // prompt tokens the prefill stages ran
  std::vector<int> prefillBlocks;
  int64_t prefillCycles = 0, prefillLaunches = 0;
  double weightSeconds = 0, loopSeconds = 0;
};

/// The FLOPs a prefill of n tokens needs (2 x the MACs of every layer's matrices, attention over
/// the keys at or before each token, and the LM head on the last row when `head`), over the
/// chip's peak: the prefill's compute roofline in cycles.
double prefillRooflineCycles(const Qwen3Config &cfg, int n, bool head,
                             const rngd::TargetModel &target, double *flops = nullptr);

/// The report of a run of the given stages (format "rngd-qwen3-report", version 1).
nlohmann::json buildReport(const Pipeline &pipe, const std::vector<int> &stages,
                           const Qwen3Config &cfg, const RunTotals &run);

/// The per-stage table, the totals and the wall times of `report`, as rngd-qwen3 prints them.
void printStageTable(const nlohmann::json &report, FILE *out);
/// The time to first token and prefill lines of `report` (nothing for parts it lacks).
void printFirstToken(const nlohmann::json &report, FILE *out);

} // namespace rngd::qwen3
