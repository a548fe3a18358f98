#!/usr/bin/env python3
"""The benchmark (`make bench`; `make run` prints its kernel table).

Per kernel: HBM bytes moved, the roofline (DESIGN.md section 12, computed by rngdc into the
schedule JSON), the compiler's predicted and the simulator's makespan in cycles (1 GHz), their
ratios, the compile time and the simulator's wall time. Then, unless --kernels-only, one
28-layer Qwen3-0.6B decode run (rngd-qwen3 --report) for the device time of a step that generates
a token (every stage once plus final_layer for its logits; the prompt's earlier steps, without
final_layer, and the run's average are printed beside it), the launch overhead beside it, that
step's roofline and the simulator's wall time per token, each target of issue 5 marked met or not. Times are measured here, on this machine; nothing is assumed.
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
PREFILL = ["prefill_projection", "prefill_attention_first", "prefill_decoder"]  # the multi-token stages built so far (docs/prefill.md)
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
    """The Qwen3 stages in decode order, the multi-token stages, then the examples."""
    files = [os.path.join("kernels", "qwen3", s + ".mlir") for s in QWEN3 + PREFILL]
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
        print_step(json.load(f), wall)


def print_step(r, wall=None):
    """The figures of a step that generates a token, from an rngd-qwen3 report."""
    t, steps = r["total"], r["steps"]
    # A step that generates a token runs every stage once and final_layer for its logits; the
    # prompt's earlier steps skip final_layer. Per-step cycles: each stage's cycles over its
    # launches times its launches per step (final_layer: one).
    per_step = final = roof_step = roof_final = 0.0
    launches = 1.0 # final_layer's
    for st in r["stages"]:
        if st["launches"] == 0:
            continue
        roof = st.get("roofline_cycles", 0)
        if st["stage"] == "final_layer":
            final, roof_final = st["cycles"] / st["launches"], roof / st["launches"]
        else:
            per_step += st["cycles"] / steps
            roof_step += roof / steps
            launches += st["launches"] / steps
    launch_ms = launches * r["kernel_launch_cycles"] / 1e6
    token_ms = (per_step + final) / 1e6
    roof_ms = (roof_step + roof_final) / 1e6
    met = token_ms <= TOKEN_TARGET_MS
    print("decode steps: %d (%d layers)" % (steps, r["layers"]))
    print("device time of a generated token's step (with logits): %.4f ms  target <= %.1f ms: %s" % (
        token_ms, TOKEN_TARGET_MS, "met" if met else "not met"))
    print("  a prompt step without logits: %.4f ms; average over the run's %d steps: %.4f ms" % (
        per_step / 1e6, steps, t["ms_per_token"]))
    print("launch overhead beside it: %.4f ms (%d launches of %d cycles); device + launch %.4f ms" % (
        launch_ms, round(launches), r["kernel_launch_cycles"], token_ms + launch_ms))
    print("HBM roofline of a generated token's step: %.4f ms; simulated / roofline = %.2fx" % (
        roof_ms, token_ms / roof_ms))
    whole = "" if wall is None else ", whole run %.1f s" % wall
    print("wall: simulator %.2f s/token%s (weights %.1f s)" % (
        t["sim_wall_seconds"] / steps, whole, r["wall_seconds"]["weights"]))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build", nargs="?", default="build", help="build directory (default: build)")
    p.add_argument("--kernels-only", action="store_true", help="the kernel table alone")
    p.add_argument("--layers", type=int, default=28, help="layers of the decode run (default 28)")
    p.add_argument("--out", help="where kernels, schedules and the report go (default BUILD/bench)")
    p.add_argument("--step-report", metavar="REPORT",
                   help="print the step figures of an existing rngd-qwen3 --report file, run nothing")
    a = p.parse_args()
    if a.step_report:
        with open(a.step_report) as f:
            print_step(json.load(f))
        return
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
