#!/usr/bin/env python3
"""The benchmark (`make bench`; `make run` prints its kernel table).

Per kernel: HBM bytes moved, the roofline (DESIGN.md section 12, computed by rngdc into the
schedule JSON), the compiler's predicted and the simulator's makespan in cycles (1 GHz), their
ratios, the compile time and the simulator's wall time. Then, unless --kernels-only, one
28-layer Qwen3-0.6B decode run (rngd-qwen3 --report) for the device time per token, the launch
overhead beside it, the roofline per token and the simulator's wall time per token, each target
of issue 5 marked met or not. Times are measured here, on this machine; nothing is assumed.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QWEN3 = ["embedding", "projection", "attention_forward_first", "attention_forward", "decoder",
         "final_layer"]
GATED = {"projection": 1.2, "decoder": 1.2, "final_layer": 1.2}  # simulated / roofline targets
TOKEN_TARGET_MS = 1.0


def run(cmd):
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("bench: %s failed:\n%s%s" % (" ".join(cmd), done.stdout, done.stderr))
    return done.stdout, seconds


def kernel_files():
    """The Qwen3 stages in decode order, then the examples."""
    files = [os.path.join("kernels", "qwen3", s + ".mlir") for s in QWEN3]
    d = os.path.join(ROOT, "kernels", "examples")
    return files + [os.path.join("kernels", "examples", f) for f in sorted(os.listdir(d))
                    if f.endswith(".mlir")]


def bench_kernel(binary, out, path):
    name = os.path.splitext(os.path.basename(path))[0]
    rngd, sched = os.path.join(out, name + ".rngd"), os.path.join(out, name + ".json")
    _, compile_s = run([os.path.join(binary, "rngdc"), os.path.join(ROOT, path), "-o", rngd,
                        "--dump-schedule", sched])
    inputs = []
    offset_arg = {"projection": "kv_offset", "kv_scatter": "offset"}.get(name)
    if offset_arg:  # a KV cache row offset: row 5
        offset = os.path.join(out, "offset.bin")
        with open(offset, "wb") as f:
            f.write(struct.pack("<i", 5 * 2048))
        inputs = ["--input", "%s=%s" % (offset_arg, offset)]
    text, sim_s = run([os.path.join(binary, "rngd-run"), rngd, "--seed", "1"] + inputs)
    simulated = int(text.split("makespan:")[1].split()[0])
    with open(sched) as f:
        s = json.load(f)
    return {"kernel": path, "name": name, "hbm": s["hbm_bytes"], "roofline": s["roofline"],
            "predicted": s["makespan"], "simulated": simulated, "compile_s": compile_s,
            "sim_s": sim_s}


def print_kernels(rows):
    head = "%-42s %10s %9s %10s %10s %8s %8s %8s %8s"
    print(head % ("kernel", "HBM bytes", "roofline", "predicted", "simulated", "sim/roof",
                  "pred/sim", "compile", "sim wall"))
    for r in rows:
        mark = ""
        if r["name"] in GATED:
            met = r["simulated"] <= GATED[r["name"]] * r["roofline"]
            mark = "  target <= %.1fx: %s" % (GATED[r["name"]], "met" if met else "not met")
        print("%-42s %10d %9d %10d %10d %7.2fx %8.3f %7.2fs %7.2fs%s" % (
            r["kernel"], r["hbm"], r["roofline"], r["predicted"], r["simulated"],
            r["simulated"] / r["roofline"], r["predicted"] / r["simulated"], r["compile_s"],
            r["sim_s"], mark))


def print_token(binary, out, layers):
    report = os.path.join(out, "qwen3-report.json")
    cmd = [os.path.join(binary, "rngd-qwen3"), "--kernels", out, "--layers", str(layers),
           "--token-ids", "151644,872,198", "--max-new-tokens", "2", "--report", report]
    print("\n$ " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd))
    _, wall = run(cmd)
    with open(report) as f:
        r = json.load(f)
    t, steps = r["total"], r["steps"]
    met = t["ms_per_token"] <= TOKEN_TARGET_MS
    print("decode steps: %d (%d layers)" % (steps, r["layers"]))
    print("device time: %.4f ms/token (sum of kernel makespans)  target <= %.1f ms: %s" % (
        t["ms_per_token"], TOKEN_TARGET_MS, "met" if met else "not met"))
    print("launch overhead: %.4f ms/token (%d cycles per launch); device + launch %.4f ms/token" % (
        t["launch_overhead_ms_per_token"], r["kernel_launch_cycles"], t["ms_per_token_with_launch"]))
    print("HBM roofline: %.4f ms/token (%.1f MB/token); simulated / roofline = %.2fx" % (
        t["roofline_cycles"] / 1e6 / steps, t["hbm_bytes_per_token"] / 1e6, t["roofline_ratio"]))
    print("wall: simulator %.2f s/token, whole run %.1f s (weights %.1f s)" % (
        t["sim_wall_seconds"] / steps, wall, r["wall_seconds"]["weights"]))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build", nargs="?", default="build", help="build directory (default: build)")
    p.add_argument("--kernels-only", action="store_true", help="the kernel table alone")
    p.add_argument("--layers", type=int, default=28, help="layers of the decode run (default 28)")
    p.add_argument("--out", help="where kernels, schedules and the report go (default BUILD/bench)")
    a = p.parse_args()
    binary = os.path.join(os.path.abspath(a.build), "bin")
    out = os.path.abspath(a.out) if a.out else os.path.join(os.path.abspath(a.build), "bench")
    for tool in ("rngdc", "rngd-run", "rngd-qwen3"):
        if not os.access(os.path.join(binary, tool), os.X_OK):
            sys.exit("bench: %s not found (build first: make build)" % os.path.join(binary, tool))
    os.makedirs(out, exist_ok=True)
    print_kernels([bench_kernel(binary, out, k) for k in kernel_files()])
    if not a.kernels_only:
        print_token(binary, out, a.layers)


if __name__ == "__main__":
    main()
