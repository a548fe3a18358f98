#!/usr/bin/env python3
"""Checks scripts/bench.py's kernel table against the schedules it wrote: every column is what
the schedule JSON and the simulator say, the ratios are computed from them, and the compiler's
predicted makespan is within 5 % of the simulated one (issue 5's prediction target)."""
import json
import os
import sys

table, out = sys.argv[1], sys.argv[2]
lines = open(table).read().splitlines()
assert lines[0].split()[:6] == ["kernel", "HBM", "bytes", "roofline", "predicted", "simulated"], lines[0]
within = 0
gated = []
for line in lines[1:]:
    f = line.split()
    kernel, hbm, roofline, predicted, simulated = f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4])
    sim_roof, pred_sim = float(f[5].rstrip("x")), float(f[6])
    s = json.load(open(os.path.join(out, os.path.basename(kernel).replace(".mlir", ".json"))))
    assert (hbm, roofline, predicted) == (s["hbm_bytes"], s["roofline"], s["makespan"]), kernel
    assert abs(sim_roof - simulated / roofline) <= 0.005, kernel
    assert abs(pred_sim - predicted / simulated) <= 0.0005, kernel
    assert simulated >= roofline, (kernel, "beats the roofline")
    assert abs(predicted - simulated) <= 0.05 * simulated, (kernel, predicted, simulated)
    within += 1
    if "target" in line:
        gated.append(os.path.basename(kernel))
print("kernels: %d, predicted within 5%% of simulated: %d" % (len(lines) - 1, within))
print("gated: " + " ".join(gated))
