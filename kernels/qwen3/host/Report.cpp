#include "qwen3/host/Report.h"

#include <algorithm>
#include <string>

namespace rngd::qwen3 {

namespace {

using nlohmann::json;

json orNull(bool known, json value) { return known ? value : json(nullptr); }

/// One stage's entry: its counters, and what its schedules say when every one is known.
json stageEntry(const char *name, const StageStats &st, int64_t launchCycles,
                double msPerCycleToken, int steps) {
  const int64_t overhead = launchCycles * st.launches;
  json js = {{"stage", name},
             {"launches", st.launches},
             {"cycles", st.cycles},
             {"cycles_per_launch", st.launches ? st.cycles / st.launches : 0},
             {"ms_per_token", double(st.cycles) * msPerCycleToken},
             {"launch_overhead_cycles", overhead},
             {"ms_per_token_with_launch", double(st.cycles + overhead) * msPerCycleToken},
             {"sim_wall_seconds", st.wallSeconds},
             {"schedule_known", st.scheduleKnown}};
  if (st.scheduleKnown) {
    // Per launch: the mean over the launches (a prefill stage runs at several block sizes).
    const int64_t perLaunch = std::max<int64_t>(st.launches, 1);
    const double ratio = st.rooflineCycles > 0 ? double(st.cycles) / double(st.rooflineCycles) : 0;
    js["hbm_bytes_per_launch"] = st.hbmBytes / perLaunch;
    js["hbm_bytes"] = st.hbmBytes;
    js["hbm_bytes_per_token"] = double(st.hbmBytes) / steps;
    js["roofline_cycles_per_launch"] = st.rooflineCycles / perLaunch;
    js["roofline_cycles"] = st.rooflineCycles;
    js["roofline_ratio"] = orNull(st.rooflineCycles > 0, ratio);
    js["schedule_makespan"] = st.predictedCycles / perLaunch;
  }
  return js;
}

json firstTokenEntry(const RunTotals &run, double ghz, int64_t launchCycles) {
  if (run.firstTokenCycles < 0)
    return nullptr;
  return {{"cycles", run.firstTokenCycles},
          {"ms", double(run.firstTokenCycles) / (ghz * 1e6)},
          {"launches", run.firstTokenLaunches},
          {"ms_with_launch",
           double(run.firstTokenCycles + launchCycles * run.firstTokenLaunches) / (ghz * 1e6)}};
}

json prefillEntry(const Qwen3Config &cfg, const RunTotals &run, const rngd::TargetModel &target) {
  if (run.prefillTokens <= 0)
    return nullptr;
  const bool head = run.prefillTokens == run.promptTokens;
  double flops = 0;
  const double roofline = prefillRooflineCycles(cfg, run.prefillTokens, head, target, &flops);
  return {{"tokens", run.prefillTokens},
          {"blocks", run.prefillBlocks},
          {"cycles", run.prefillCycles},
          {"launches", run.prefillLaunches},
          {"flops", flops},
          {"macs_per_cycle", target.bf16MacsPerCycle()},
          {"compute_roofline_cycles", roofline},
          {"roofline_ratio", roofline > 0 ? double(run.prefillCycles) / roofline : 0.0},
          {"includes_lm_head", head}};
}

} // namespace

double prefillRooflineCycles(const Qwen3Config &cfg, int tokens, bool head,
                             const rngd::TargetModel &target, double *flopsOut) {
  const double n = tokens, H = cfg.hiddenSize, Q = cfg.qDim(), kv = cfg.kvDim();
  const double macsPerLayer = n * H * (Q + 2 * kv) +                                // q, k, v
                              2.0 * cfg.numHeads * cfg.headDim * n * (n + 1) / 2 + // QK, PV
                              n * Q * H + 3.0 * n * H * cfg.intermediateSize;      // o, MLP
  const double flops =
      2.0 * (macsPerLayer * cfg.numLayers + (head ? H * double(cfg.vocabSize) : 0.0));
  if (flopsOut)
    *flopsOut = flops;
  return flops / (2.0 * double(target.bf16MacsPerCycle()));
}

json buildReport(const Pipeline &pipe, const std::vector<int> &stages, const Qwen3Config &cfg,
                 const RunTotals &run) {
  const rngd::TargetModel &target = pipe.device().target();
  const double ghz = target.coreClockGHz;
  const int64_t launchCycles = target.kernelLaunchCycles;
  const double perToken = 1.0 / (ghz * 1e6) / run.steps; // ms per cycle, per token
  int64_t cycles = 0, launches = 0, hbm = 0, roof = 0;
  bool allKnown = true;
  double simWall = 0;
  json jstages = json::array();
  for (int s : stages) {
    const StageStats &st = pipe.stats(s);
    jstages.push_back(stageEntry(kStages[s], st, launchCycles, perToken, run.steps));
    cycles += st.cycles;
    launches += st.launches;
    simWall += st.wallSeconds;
    hbm += st.hbmBytes;
    roof += st.rooflineCycles;
    allKnown = allKnown && st.scheduleKnown;
  }
  const int64_t overhead = launchCycles * launches;
  const double ratio = roof > 0 ? double(cycles) / double(roof) : 0.0;
  return {{"format", "rngd-qwen3-report"},
          {"version", 1},
          {"layers", cfg.numLayers},
          {"start_pos", run.startPos},
          {"prompt_tokens", run.promptTokens},
          {"new_tokens", run.newTokens},
          {"steps", run.steps},
          {"generated", run.generated},
          {"clock_ghz", ghz},
          {"kernel_launch_cycles", launchCycles},
          {"stages", jstages},
          {"time_to_first_token", firstTokenEntry(run, ghz, launchCycles)},
          {"prefill", prefillEntry(cfg, run, target)},
          {"total",
           {{"launches", launches},
            {"cycles", cycles},
            {"ms_per_token", double(cycles) * perToken},
            {"launch_overhead_cycles", overhead},
            {"launch_overhead_ms_per_token", double(overhead) * perToken},
            {"ms_per_token_with_launch", double(cycles + overhead) * perToken},
            {"sim_wall_seconds", simWall},
            {"hbm_bytes", orNull(allKnown, hbm)},
            {"hbm_bytes_per_token", orNull(allKnown, double(hbm) / run.steps)},
            {"roofline_cycles", orNull(allKnown, roof)},
            {"roofline_ratio", orNull(allKnown && roof > 0, ratio)}}},
          {"wall_seconds",
           {{"weights", run.weightSeconds},
            {"decode_loop", run.loopSeconds},
            {"simulator", simWall}}}};
}

namespace {

/// `value` (a number or null) printed with `fmt`, or "-" when null.
std::string numberOr(const json &value, const char *fmt, double scale = 1) {
  if (value.is_null())
    return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value.get<double>() * scale);
  return buf;
}

const json &field(const json &j, const char *key) {
  static const json null;
  return j.contains(key) ? j[key] : null;
}

void printRow(FILE *out, const std::string &name, const json &j) {
  std::fprintf(out, "%-25s %9lld %16lld %12.4f %10.2f %12s %9s %13.4f\n", name.c_str(),
               j["launches"].get<long long>(), j["cycles"].get<long long>(),
               j["ms_per_token"].get<double>(), j["sim_wall_seconds"].get<double>(),
               numberOr(field(j, "hbm_bytes_per_token"), "%.3f", 1e-6).c_str(),
               numberOr(field(j, "roofline_ratio"), "%.2fx").c_str(),
               j["ms_per_token_with_launch"].get<double>());
}

} // namespace

void printStageTable(const json &report, FILE *out) {
  std::fprintf(out, "\n%-25s %9s %16s %12s %10s %12s %9s %13s\n", "stage", "launches", "cycles",
               "ms/token", "sim wall s", "HBM MB/tok", "roofline", "+launch ms/t");
  long long finalLaunches = 0;
  for (const json &st : report["stages"]) {
    printRow(out, st["stage"].get<std::string>(), st);
    if (st["stage"] == kStages[FinalLayer])
      finalLaunches = st["launches"].get<long long>();
  }
  const json &total = report["total"];
  printRow(out, "total", total);
  const int steps = report["steps"].get<int>();
  const double ghz = report["clock_ghz"].get<double>();
  std::fprintf(out,
               "tokens: %d, simulated ms/token at %g GHz: %.4f (all tokens, final_layer only on "
               "the %lld steps that need logits)\n",
               steps, ghz, total["ms_per_token"].get<double>(), finalLaunches);
  std::fprintf(out,
               "launch overhead: %lld cycles per launch (TargetModel::kernelLaunchCycles), %.1f "
               "launches/token: %.4f ms/token; device + launch: %.4f ms/token\n",
               report["kernel_launch_cycles"].get<long long>(),
               total["launches"].get<double>() / steps,
               total["launch_overhead_ms_per_token"].get<double>(),
               total["ms_per_token_with_launch"].get<double>());
  if (!total["hbm_bytes"].is_null())
    std::fprintf(out,
                 "HBM: %.3f MB/token from the schedules; roofline %.4f ms/token, simulated / "
                 "roofline = %.2fx\n",
                 total["hbm_bytes_per_token"].get<double>() / 1e6,
                 total["roofline_cycles"].get<double>() / (ghz * 1e6) / steps,
                 total["roofline_ratio"].is_null() ? 0.0 : total["roofline_ratio"].get<double>());
  else
    std::fprintf(out, "HBM: unknown (no schedule JSON for some stage; with --kernels DIR put "
                      "rngdc --dump-schedule output in DIR/<stage>.json)\n");
  const json &wall = report["wall_seconds"];
  std::fprintf(out, "wall: weights %.2f s, decode loop %.2f s (%.3f s/token), simulator %.2f s\n",
               wall["weights"].get<double>(), wall["decode_loop"].get<double>(),
               wall["decode_loop"].get<double>() / steps, wall["simulator"].get<double>());
}

void printFirstToken(const json &report, FILE *out) {
  const json &ttft = report["time_to_first_token"];
  if (!ttft.is_null())
    std::fprintf(out,
                 "time to first token: %lld cycles, %.3f ms simulated (%.3f ms with %lld "
                 "launches' overhead)\n",
                 ttft["cycles"].get<long long>(), ttft["ms"].get<double>(),
                 ttft["ms_with_launch"].get<double>(), ttft["launches"].get<long long>());
  const json &pre = report["prefill"];
  if (pre.is_null())
    return;
  std::string blocks;
  for (const json &b : pre["blocks"])
    blocks += (blocks.empty() ? "" : ",") + std::to_string(b.get<int>());
  const double ghz = report["clock_ghz"].get<double>();
  const double cycles = pre["cycles"].get<double>();
  const double roofline = pre["compute_roofline_cycles"].get<double>();
  std::fprintf(out,
               "prefill: %d tokens (blocks of %s) in %lld cycles (%.3f ms); compute roofline "
               "%.0f cycles (%.3g FLOPs at %lld MACs/cycle): %.2fx\n",
               pre["tokens"].get<int>(), blocks.c_str(), pre["cycles"].get<long long>(),
               cycles / (ghz * 1e6), roofline, pre["flops"].get<double>(),
               pre["macs_per_cycle"].get<long long>(), cycles / roofline);
}


} // namespace rngd::qwen3
