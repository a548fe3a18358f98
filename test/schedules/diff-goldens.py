#!/usr/bin/env python3
"""Compiles the kernel of every golden in SCHEDULES and diffs the schedule rngdc emits today.

  diff-goldens.py RNGDC KERNELS SCHEDULES OUT

The loop runs over the goldens, not over a list in the test, so a new golden cannot be left
undiffed. Each schedules/<name>.json comes from the one kernels/**/<name>.mlir (as
scripts/update-schedules.sh makes it); a golden with no such kernel, or with two, fails.
Prints a unified diff for each golden that differs and exits 1 if any check failed.
"""
import difflib
import os
import subprocess
import sys


def kernels_by_name(kernels_dir):
    found = {}
    for root, _, files in os.walk(kernels_dir):
        for f in files:
            if f.endswith(".mlir"):
                found.setdefault(f[:-len(".mlir")], []).append(os.path.join(root, f))
    return found


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    rngdc, kernels_dir, schedules_dir, out_dir = argv
    os.makedirs(out_dir, exist_ok=True)
    kernels = kernels_by_name(kernels_dir)
    goldens = sorted(f[:-len(".json")] for f in os.listdir(schedules_dir) if f.endswith(".json"))
    failures = 0
    for name in goldens:
        paths = kernels.get(name, [])
        if len(paths) != 1:
            print("FAIL %s.json: %s" % (name, "no kernel %s.mlir under %s" % (name, kernels_dir)
                                          if not paths else "kernels " + ", ".join(sorted(paths))))
            failures += 1
            continue
        got = os.path.join(out_dir, name + ".json")
        run = subprocess.run([rngdc, paths[0], "-o", os.path.join(out_dir, name + ".rngd"),
                              "--dump-schedule", got], capture_output=True, text=True)
        if run.returncode != 0:
            print("FAIL %s.json: rngdc %s exited %d\n%s" % (name, paths[0], run.returncode,
                                                          run.stderr))
            failures += 1
            continue
        golden = os.path.join(schedules_dir, name + ".json")
        with open(golden) as a, open(got) as b:
            want, have = a.readlines(), b.readlines()
        if want != have:
            sys.stdout.writelines(difflib.unified_diff(want, have, golden, got))
            print("FAIL %s.json differs from what rngdc emits for %s" % (name, paths[0]))
            failures += 1
            continue
        print("ok %s.json" % name)
    print("%d goldens, %d failed" % (len(goldens), failures))
    return 1 if failures or not goldens else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
