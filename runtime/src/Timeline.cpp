#include "rngd/Timeline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace rngd {

bool readTimeline(const std::string &input, Timeline &out, std::string &why) {
  nlohmann::json in = nlohmann::json::parse(input, nullptr, false);
  if (in.is_discarded() || !in.is_object() || !in.contains("ops") || !in["ops"].is_array()) {
    why = "not a schedule or trace: expected a JSON object with an \"ops\" array";
    return false;
  }
  Timeline t;
  if (in.contains("kernel") && in["kernel"].is_string())
    t.kernel = in["kernel"].get<std::string>();
  else
    t.kernel = "kernel";
  // The target sets the clock the cycles are shown at; the name is what both JSONs write.
  if (in.contains("target") && in["target"].is_object() && in["target"].contains("name")) {
    const nlohmann::json &name = in["target"]["name"];
    t.target = name.is_string() ? findTarget(name.get<std::string>()) : nullptr;
    if (!t.target) {
      why = "target " + name.dump() + " is not one this runtime knows (" + targetNames() + ")";
      return false;
    }
  }
  std::map<std::string, int> tracks;
  std::vector<int> contextOf; // per track: the first-appearance rank of its context
  std::map<std::string, int> contexts;
  auto track = [&](const std::string &context, const std::string &name) {
    auto [it, inserted] = tracks.emplace(name, static_cast<int>(t.tracks.size()));
    if (inserted) {
      t.tracks.push_back(name);
      contextOf.push_back(contexts.emplace(context, contexts.size()).first->second);
    }
    return it->second;
  };
  auto text = [](const nlohmann::json &op, const char *key, const std::string &fallback) {
    return op.contains(key) && op[key].is_string() ? op[key].get<std::string>() : fallback;
  };
  auto critical = [](const nlohmann::json &op) {
    return op.contains("critical") && op["critical"].is_boolean() && op["critical"].get<bool>();
  };
  for (size_t i = 0; i < in["ops"].size(); ++i) {
    const nlohmann::json &op = in["ops"][i];
    if (!op.is_object() || !op.contains("start") || !op.contains("end") ||
        !op["start"].is_number_integer() || !op["end"].is_number_integer()) {
      why = "op " + std::to_string(i) + " has no integer start/end cycles";
      return false;
    }
    TimelineEvent e;
    e.name = text(op, "text", text(op, "name", "op"));
    e.context = text(op, "context", "queue");
    e.start = op["start"].get<int64_t>();
    e.end = op["end"].get<int64_t>();
    if (e.start < 0 || e.end < e.start) {
      why = "op " + std::to_string(i) + " ends before it starts (cycles " +
            std::to_string(e.start) + " to " + std::to_string(e.end) + ")";
      return false;
    }
    if (op.contains("id") && op["id"].is_number_integer())
      e.id = op["id"].get<int64_t>();
    e.critical = critical(op);
    t.end = std::max(t.end, e.end);
    e.track = track(e.context, e.context);
    t.events.push_back(e);
    if (op.contains("parts") && op["parts"].is_array()) { // a DMA's descriptors, per engine
      for (const auto &part : op["parts"]) {
        if (!part.is_object() || !part.contains("engine") || !part["engine"].is_string() ||
            !part.contains("start") || !part["start"].is_number_integer() ||
            !part.contains("end") || !part["end"].is_number_integer() ||
            part["start"].get<int64_t>() < 0 ||
            part["end"].get<int64_t>() < part["start"].get<int64_t>()) {
          why = "op " + std::to_string(i) + " has a part without an engine and start <= end";
          return false;
        }
        TimelineEvent onEngine = e;
        onEngine.start = part["start"].get<int64_t>();
        onEngine.end = part["end"].get<int64_t>();
        onEngine.track = track(e.context, e.context + "." + part["engine"].get<std::string>());
        onEngine.critical = critical(part);
        t.end = std::max(t.end, onEngine.end);
        t.events.push_back(onEngine);
      }
      continue;
    }
    if (op.contains("engines") && op["engines"].is_array())
      for (const auto &engine : op["engines"])
        if (engine.is_string() && engine.get<std::string>() != e.context) {
          TimelineEvent onEngine = e;
          onEngine.track = track(e.context, e.context + "." + engine.get<std::string>());
          t.events.push_back(onEngine);
        }
  }
  // Each context's engines right below it (contexts, then engines, in order of appearance).
  std::vector<int> order(t.tracks.size()), rank(t.tracks.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return contextOf[a] < contextOf[b]; });
  std::vector<std::string> names;
  for (size_t i = 0; i < order.size(); ++i) {
    rank[order[i]] = static_cast<int>(i);
    names.push_back(t.tracks[order[i]]);
  }
  t.tracks = std::move(names);
  for (TimelineEvent &e : t.events)
    e.track = rank[e.track];
  out = std::move(t);
  return true;
}

std::string chromeTrace(const Timeline &t) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  events.push_back(
      {{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", t.kernel}}}});
  for (size_t i = 0; i < t.tracks.size(); ++i)
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", static_cast<int>(i) + 1},
                      {"args", {{"name", t.tracks[i]}}}});
  double cyclesPerUs = t.target->coreClockGHz * 1000.0;
  for (const TimelineEvent &e : t.events) {
    nlohmann::ordered_json j;
    j["name"] = e.name;
    j["cat"] = e.context;
    j["ph"] = "X";
    j["ts"] = static_cast<double>(e.start) / cyclesPerUs;
    j["dur"] = static_cast<double>(e.end - e.start) / cyclesPerUs;
    j["pid"] = 1;
    j["tid"] = e.track + 1;
    if (e.id >= 0)
      j["args"] = {{"id", e.id}, {"start_cycle", e.start}, {"end_cycle", e.end}};
    if (e.critical)
      j["args"]["critical"] = true;
    events.push_back(std::move(j));
  }
  nlohmann::ordered_json result;
  result["traceEvents"] = std::move(events);
  result["displayTimeUnit"] = "ns";
  return result.dump(1) + "\n";
}

namespace {

std::string escapeXml(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

const char *contextColor(const std::string &context) {
  if (context == "tdma")
    return "#4e79a7";
  if (context == "main")
    return "#e15759";
  if (context == "sub")
    return "#59a14f";
  return "#9c755f";
}

/// A round step (1, 2 or 5 times a power of ten) for about `ticks` ticks over `span` cycles.
int64_t tickStep(int64_t span, int64_t ticks) {
  for (int64_t decade = 1;; decade *= 10)
    for (int64_t m : {1, 2, 5})
      if (m * decade * ticks >= span)
        return m * decade;
}

} // namespace

std::string htmlTimeline(const Timeline &t) {
  const int labelWidth = 160, plotWidth = 1200, rowHeight = 22, axisHeight = 30;
  const int64_t span = std::max<int64_t>(t.end, 1);
  const int height = axisHeight + rowHeight * static_cast<int>(t.tracks.size()) + 10;
  auto x = [&](int64_t cycle) {
    return labelWidth + static_cast<double>(cycle) * plotWidth / static_cast<double>(span);
  };
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  std::string kernel = escapeXml(t.kernel);
  o << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << kernel
    << " timeline</title>\n<style>body{font-family:sans-serif}svg text{font-size:12px}"
       "rect.op:hover{stroke:#000;stroke-width:1}</style></head>\n<body>\n<h1>"
    << kernel << "</h1>\n<p>" << t.events.size() << " bars on " << t.tracks.size()
    << " tracks, " << t.end << " cycles. Hover a bar for its op and cycles; outlined bars are "
       "the critical path (rngdc --critical-path).</p>\n<p>";
  for (const char *context : {"tdma", "sub", "main", "queue"})
    o << "<span style=\"color:" << contextColor(context) << "\">&#9632; " << context
      << "</span> ";
  o << "</p>\n";
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << labelWidth + plotWidth + 20
    << "\" height=\"" << height << "\">\n";
  int64_t step = tickStep(span, 10);
  for (int64_t c = 0; c <= span; c += step)
    o << "<line x1=\"" << x(c) << "\" y1=\"" << axisHeight - 8 << "\" x2=\"" << x(c)
      << "\" y2=\"" << height - 10 << "\" stroke=\"#ddd\"/><text x=\"" << x(c) << "\" y=\""
      << axisHeight - 12 << "\" text-anchor=\"middle\">" << c << "</text>\n";
  for (size_t i = 0; i < t.tracks.size(); ++i)
    o << "<text class=\"track\" x=\"4\" y=\"" << axisHeight + rowHeight * static_cast<int>(i) + 15
      << "\">" << escapeXml(t.tracks[i]) << "</text>\n";
  for (const TimelineEvent &e : t.events) {
    double width = std::max(x(e.end) - x(e.start), 1.0);
    o << "<rect class=\"op\" x=\"" << x(e.start) << "\" y=\""
      << axisHeight + rowHeight * e.track + 3 << "\" width=\"" << width << "\" height=\""
      << rowHeight - 6 << "\" fill=\"" << contextColor(e.context) << "\""
      << (e.critical ? " stroke=\"#000\" stroke-width=\"2\"" : "") << "><title>"
      << escapeXml(e.name) << (e.id >= 0 ? " (op " + std::to_string(e.id) + ")" : "") << ": "
      << e.start << " to " << e.end << " cycles</title></rect>\n";
  }
  o << "</svg>\n</body></html>\n";
  return o.str();
}

} // namespace rngd
