// The simulated timeline in the schedule JSON format (docs/design.md section 1), so predicted and
// simulated schedules can be compared with the same tools.
#include "Machine.h"

#include <nlohmann/json.hpp>

namespace rngd::sim {
namespace {

nlohmann::ordered_json ranges(const std::vector<MemoryRange> &rs) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const MemoryRange &r : rs) {
    nlohmann::ordered_json j;
    j["memory"] = !r.dm                              ? "hbm"
                  : r.memory == SliceMemory::Trf ? "trf"
                  : r.memory == SliceMemory::Vrf ? "vrf"
                                                 : "dm";
    if (r.dm)
      j["slices"] = {r.sliceLo, r.sliceHi};
    j["range"] = {r.lo, r.hi};
    out.push_back(std::move(j));
  }
  return out;
}

} // namespace

std::string traceJson(const Executable &exe, const SimResult &result, const TargetModel &target) {
  nlohmann::ordered_json j;
  j["format"] = "rngd-trace";
  j["version"] = 1;
  j["kernel"] = exe.kernelName;
  j["target"] = {{"name", target.name}, {"hash", hexString(target.hash())}};
  j["makespan"] = result.makespan;
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (const TraceOp &op : result.ops) {
    nlohmann::ordered_json o;
    o["id"] = op.id;
    o["name"] = op.name;
    o["text"] = op.text;
    o["context"] = op.context;
    o["engines"] = op.engines;
    o["start"] = op.start;
    o["end"] = op.end;
    o["reads"] = ranges(op.reads);
    o["writes"] = ranges(op.writes);
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  return j.dump(2) + "\n";
}

} // namespace rngd::sim
