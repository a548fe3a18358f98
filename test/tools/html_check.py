#!/usr/bin/env python3
"""Checks an rngd-schedule-view page against the schedule it was made from: the SVG parses as
XML, there is one labelled row per track, and every op of the schedule has a bar on its context's
row (and one per engine, a DMA's parts at their own cycles) whose position and width are its
cycles scaled to the plot. Prints the tracks, the bar count and how many cycles DMA overlaps
contraction. Outlined bars are exactly the schedule's critical ops (on their context's row and
each engine's; a DMA only on its critical part's engine)."""
import json
import re
import sys
import xml.etree.ElementTree as ET

LABEL, PLOT = 160, 1200  # the page's label column and plot width, in pixels

page = open(sys.argv[1]).read()
schedule = json.load(open(sys.argv[2]))
svg = ET.fromstring(page[page.index("<svg"):page.index("</svg>") + 6])
ns = "{http://www.w3.org/2000/svg}"
labels = [t.text for t in svg.iter(ns + "text") if t.get("class") == "track"]
rows = {float(t.get("y")): t.text for t in svg.iter(ns + "text") if t.get("class") == "track"}
bars = []
for r in svg.iter(ns + "rect"):
    title = r.find(ns + "title").text
    m = re.search(r"(\d+) to (\d+) cycles$", title)
    row = min(rows, key=lambda y: abs(y - (float(r.get("y")) + 12)))
    bars.append((rows[row], title, int(m.group(1)), int(m.group(2)), float(r.get("x")), float(r.get("width")),
                 r.get("stroke") == "#000"))

end = max(op["end"] for op in schedule["ops"])
def x(c):
    return LABEL + c * PLOT / end
for op in schedule["ops"]:
    # (track, start, end): the op on its context, and on each engine (a DMA's parts at their
    # own cycles).
    spans_of = [(op["context"], op["start"], op["end"])]
    if "parts" in op:
        spans_of += [(op["context"] + "." + p["engine"], p["start"], p["end"]) for p in op["parts"]]
    else:
        spans_of += [(op["context"] + "." + e, op["start"], op["end"])
                     for e in op.get("engines", []) if e != op["context"]]
    for track, start, stop in spans_of:
        match = [b for b in bars if b[0] == track and b[2] == start and b[3] == stop
                 and b[1].startswith(op.get("text", op["name"]))]
        assert match, ("no bar for op", op["id"], track)
        b = match[0]
        assert abs(b[4] - x(start)) < 0.01, (b, x(start))
        assert abs(b[5] - max(x(stop) - x(start), 1.0)) < 0.01, b

critical = set()
for op in schedule["ops"]:
    if not op.get("critical"):
        continue
    critical.add((op["context"], op["start"], op["end"]))
    if "parts" in op:
        critical |= {(op["context"] + "." + p["engine"], p["start"], p["end"])
                     for p in op["parts"] if p.get("critical")}
    else:
        critical |= {(op["context"] + "." + e, op["start"], op["end"])
                     for e in op.get("engines", []) if e != op["context"]}
outlined = {(b[0], b[2], b[3]) for b in bars if b[6]}
assert outlined == critical, (sorted(outlined ^ critical))

def spans(pred):
    return [(b[2], b[3]) for b in bars if pred(b[0])]
overlap = sum(max(0, min(e1, e2) - max(s1, s2))
              for s1, e1 in spans(lambda t: t.startswith("tdma."))
              for s2, e2 in spans(lambda t: t.endswith(".contract")))
print("tracks: " + " ".join(labels))
print("bars: %d" % len(bars))
print("dma/contract overlap: %d cycles" % overlap)
print("critical bars: %d" % len(outlined))
