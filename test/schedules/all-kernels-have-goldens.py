#!/usr/bin/env python3
"""Fails when a kernel under KERNELS has no schedules/<name>.json or a golden has no kernel."""
import os
import sys

kernels_dir, schedules_dir = sys.argv[1], sys.argv[2]
kernels = set()
for root, _, files in os.walk(kernels_dir):
    kernels.update(f[:-5] for f in files if f.endswith(".mlir"))
goldens = {f[:-5] for f in os.listdir(schedules_dir) if f.endswith(".json")}
missing, stale = sorted(kernels - goldens), sorted(goldens - kernels)
if missing or stale:
    print("kernels without golden schedules:", missing, "goldens without kernels:", stale)
    sys.exit(1)
print("%d kernels, %d goldens" % (len(kernels), len(goldens)))
