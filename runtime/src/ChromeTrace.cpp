#include "rngd/ChromeTrace.h"

#include <nlohmann/json.hpp>

#include <map>

namespace rngd {

bool chromeTrace(const std::string &input, std::string &out, std::string &why) {
  nlohmann::ordered_json in = nlohmann::ordered_json::parse(input, nullptr, false);
  if (in.is_discarded() || !in.is_object() || !in.contains("ops") || !in["ops"].is_array()) {
    why = "not a schedule or trace: expected a JSON object with an \"ops\" array";
    return false;
  }
  // Tracks in order of first appearance, so the output is deterministic.
  std::map<std::string, int> tracks;
  std::vector<std::string> order;
  auto track = [&](const std::string &name) {
    auto [it, inserted] = tracks.emplace(name, static_cast<int>(tracks.size()) + 1);
    if (inserted)
      order.push_back(name);
    return it->second;
  };
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const auto &op : in["ops"]) {
    if (!op.is_object() || !op.contains("start") || !op.contains("end") ||
        !op["start"].is_number_integer() || !op["end"].is_number_integer()) {
      why = "an op without integer start/end cycles";
      return false;
    }
    std::string name = op.value("text", op.value("name", std::string("op")));
    std::string context = op.value("context", std::string("queue"));
    int64_t start = op["start"], end = op["end"];
    auto event = [&](const std::string &trackName) {
      nlohmann::ordered_json e;
      e["name"] = name;
      e["cat"] = context;
      e["ph"] = "X";
      e["ts"] = static_cast<double>(start) / 1000.0; // cycles at 1 GHz, in microseconds
      e["dur"] = static_cast<double>(end - start) / 1000.0;
      e["pid"] = 1;
      e["tid"] = track(trackName);
      if (op.contains("id"))
        e["args"] = {{"id", op["id"]}, {"start_cycle", start}, {"end_cycle", end}};
      events.push_back(std::move(e));
    };
    event(context);
    if (op.contains("engines") && op["engines"].is_array())
      for (const auto &engine : op["engines"])
        if (engine.is_string() && engine.get<std::string>() != context)
          event(context + "." + engine.get<std::string>());
  }
  nlohmann::ordered_json result;
  nlohmann::ordered_json meta = nlohmann::ordered_json::array();
  meta.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1},
                  {"args", {{"name", in.value("kernel", std::string("kernel"))}}}});
  for (const std::string &name : order)
    meta.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tracks[name]},
                    {"args", {{"name", name}}}});
  for (auto &e : events)
    meta.push_back(std::move(e));
  result["traceEvents"] = std::move(meta);
  result["displayTimeUnit"] = "ns";
  out = result.dump(1) + "\n";
  return true;
}

} // namespace rngd
