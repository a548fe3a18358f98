#!/usr/bin/env python3
"""Prints the track names and the number of complete events of a Chrome trace, after checking
that every event is well formed."""
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
