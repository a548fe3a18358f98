#!/usr/bin/env python3
"""Prints the track names, the number of complete events and the clock of a Chrome trace
(cycles per microsecond, from each event's cycles and its ts/dur), after checking that every
event is well formed and that all events agree on the clock."""
import json
import sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
process = [e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"]
spans = [e for e in events if e["ph"] == "X"]
for e in spans:
    assert e["tid"] in names and e["dur"] >= 0 and e["ts"] >= 0, e
print("tracks: %s | %s" % (process[0], " ".join(names[t] for t in sorted(names))))
print("events: %d" % len([e for e in spans if names[e["tid"]] in ("tdma", "main", "sub")]))
timed = [e for e in spans if "start_cycle" in e.get("args", {}) and e["dur"] > 0]
rates = [(e["args"]["end_cycle"] - e["args"]["start_cycle"]) / e["dur"] for e in timed]
assert rates, "no event with cycles and a duration"
for e, rate in zip(timed, rates):
    assert abs(rate - rates[0]) < 1e-6 * rates[0], (e, rate, rates[0])
    assert abs(e["ts"] * rate - e["args"]["start_cycle"]) < 1e-6 * max(1, e["ts"] * rate), e
print("cycles per us: %g" % rates[0])
