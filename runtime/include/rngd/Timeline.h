// Timelines of a schedule (rngdc --dump-schedule) or a simulator trace (rngd-run --trace): both
// list ops with a context, engines and start/end cycles. They are shown as Chrome trace /
// Perfetto JSON (chrome://tracing, ui.perfetto.dev) or as a static HTML page with an SVG
// timeline (rngd-schedule-view) that a browser opens without a server.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rngd/machine/TargetModel.h"

namespace rngd {

/// One bar of the timeline: an op on one track, over [start, end) cycles.
struct TimelineEvent {
  std::string name;    // the op's text or name
  std::string context; // tdma, main, sub (queue in a simulator trace)
  int track = 0;       // index into Timeline::tracks
  int64_t start = 0, end = 0;
  int64_t id = -1; // the op's id when the input has one
  bool critical = false; // on the schedule's critical path (its "critical" flags)
};

/// One track per context (tdma, main, sub) and per engine within it (tdma.dma0, main.contract,
/// ...): contexts in order of first appearance, each followed by its engines in order of first
/// appearance, so the output is deterministic.
struct Timeline {
  std::string kernel;
  const TargetModel *target = &defaultTarget(); // the input's target.name, by findTarget
  std::vector<std::string> tracks;
  std::vector<TimelineEvent> events;
  int64_t end = 0; // the latest end cycle
};

/// Reads a schedule or trace JSON. Returns false with a message for anything else, or for a
/// target this runtime does not know (an input without one is the default target's).
bool readTimeline(const std::string &scheduleOrTraceJson, Timeline &out, std::string &why);

/// Chrome trace JSON: each event's cycles as microseconds at the target's core clock
/// (TargetModel::coreClockGHz; 1 GHz on rngd-1chip, 0.8 GHz on rngd-1cluster).
std::string chromeTrace(const Timeline &timeline);

/// A self-contained HTML page: one SVG row per track, a bar per event coloured by context (a
/// legend names the colours; the bar's tooltip gives the op and its cycles), the critical
/// path's bars outlined, a cycle axis.
std::string htmlTimeline(const Timeline &timeline);

} // namespace rngd
