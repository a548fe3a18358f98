#!/usr/bin/env python3
"""Runs an rngd-run command on both of the simulator's bf16 contraction paths.

  both-paths.py rngd-run KERNEL.rngd [--input NAME=PATH]... [--output NAME=PATH]... [...]

First as the simulator chooses (RNGD_SIM_F32_DOT=0: the host's bf16 pair dot product where it
has one and pairDotExact allows it), writing the outputs where the command says, so the test's
oracle checks them; then with every contraction on the f32 path (RNGD_SIM_F32_DOT=1), writing
each output to PATH.f32. The outputs of the two runs must be the same bytes, so the oracle's
bit-exact check holds for both paths (docs/simulator.md, "Host speed"). Passes the first run's
stdout through, then prints the path each run took, as the simulator reports it:

  RNGD_SIM_F32_DOT=0: contraction path: pair-dot (...)
  RNGD_SIM_F32_DOT=1: contraction path: f32 (...)
  both paths: the same bytes (outputs: N)
"""
import os
import subprocess
import sys

REPORT = "rngd-sim: contraction path: "


def run(command, force_f32):
    env = dict(os.environ, RNGD_SIM_F32_DOT="1" if force_f32 else "0")
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        sys.exit("both-paths: %s exited %d (RNGD_SIM_F32_DOT=%s)"
                 % (command[0], done.returncode, env["RNGD_SIM_F32_DOT"]))
    reports = [l[len(REPORT):] for l in done.stderr.splitlines() if l.startswith(REPORT)]
    if len(reports) != 1:
        sys.exit("both-paths: expected one contraction path report, stderr was:\n" + done.stderr)
    return done.stdout, reports[0]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outputs, forced = [], list(argv)
    for i in range(1, len(argv)):
        if argv[i - 1] == "--output" and "=" in argv[i]:
            name, path = argv[i].split("=", 1)
            outputs.append(path)
            forced[i] = "%s=%s.f32" % (name, path)
    stdout, default_path = run(argv, False)
    _, f32_path = run(forced, True)
    sys.stdout.write(stdout)
    print("RNGD_SIM_F32_DOT=0: contraction path: " + default_path)
    print("RNGD_SIM_F32_DOT=1: contraction path: " + f32_path)
    for path in outputs:
        with open(path, "rb") as a, open(path + ".f32", "rb") as b:
            chosen, f32 = a.read(), b.read()
        if chosen != f32:
            at = next((i for i, (x, y) in enumerate(zip(chosen, f32)) if x != y),
                      min(len(chosen), len(f32)))
            print("both paths: %s differs from %s.f32 at byte %d" % (path, path, at))
            return 1
    print("both paths: the same bytes (outputs: %d)" % len(outputs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
