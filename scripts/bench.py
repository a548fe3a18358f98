#!/usr/bin/env python3
"""The benchmark (`make bench`; `make run` prints its kernel table).

Per kernel: HBM bytes moved, the roofline (docs/design.md section 2, computed by rngdc into the
schedule JSON), the compiler's predicted and the simulator's makespan in cycles (1 GHz), their
ratios, the compile time and the simulator's wall time. Then, unless --kernels-only, one
28-layer Qwen3-0.6B decode run (rngd-qwen3 --report) for the device time of a step that generates
a token (every stage once plus final_layer for its logits; the prompt's earlier steps, without
final_layer, and the run's average are printed beside it), the launch overhead beside it, that
step's roofline and the simulator's wall time per token, each target of issue 5 marked met or not. Then
the prefill (issue 18): a 512-token prompt through the multi-token stages of every layer
(rngd-qwen3 --report's prefill object) against its compute roofline, the time to the first token
beside the token-by-token path's (512 of the decode run's prompt steps and a final_layer), and
the simulator's wall time of that prefill beside PyTorch's for the same prefill on this machine
(scripts/prefill_torch.py, Debian's python3-torch, bf16 on the CPU). Times are measured here, on
this machine; nothing is assumed. Then the Qwen3 sizes (print_sizes) and the batched decode
step at B = 1, 4, 16, 64 (bench_batch.py), and Qwen3-32B over 2, 4 and 8 chips (bench_tp.py).
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import time

import bench_batch
import bench_tp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QWEN3 = ["embedding", "projection", "attention_forward_first", "attention_forward", "decoder",
         "final_layer"]
PREFILL = ["prefill_projection_t512", "prefill_attention_first_t512", "prefill_attention_t512",
           "prefill_decoder_t512"]  # the multi-token stages at T = 512 (docs/prefill.md)
GATED = {"projection": 1.2, "decoder": 1.2, "final_layer": 1.2,  # simulated / roofline targets
         "prefill_projection_t512": 1.5, "prefill_decoder_t512": 1.5}
TOKEN_TARGET_MS = 1.0
PREFILL_ROOFLINE_TARGET = 2.0  # a 512-token prompt through every layer, over its compute roofline
PREFILL_TORCH_TARGET = 3.0     # the simulator's wall time of that prefill over PyTorch's


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
           "--token-ids", "151644,872,198", "--max-new-tokens", "2", "--no-prefill", "--report",
           report]
    print("\n$ " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd))
    _, wall = run(cmd)
    with open(report) as f:
        r = json.load(f)
    print_step(r, wall)
    return r


def print_prefill(binary, out, layers, step_report, kernels):
    """A 512-token prompt prefilled: cycles against the compute roofline, the time to the
    first token beside the token-by-token path's, the simulator's wall time beside PyTorch's."""
    report = os.path.join(out, "qwen3-prefill-report.json")
    ids = ",".join(str(1000 + 37 * i % 140000) for i in range(512))
    cmd = [os.path.join(binary, "rngd-qwen3"), "--kernels", out, "--layers", str(layers),
           "--token-ids", ids, "--max-new-tokens", "1", "--report", report]
    print("\n$ rngd-qwen3 --kernels %s --layers %d --token-ids <512 ids> --max-new-tokens 1 "
          "--report %s" % (os.path.relpath(out, ROOT), layers, os.path.relpath(report, ROOT)))
    _, wall = run(cmd)
    with open(report) as f:
        r = json.load(f)
    p = r["prefill"]
    ratio = p["cycles"] / p["compute_roofline_cycles"]
    print("prefill stages at T = 512 (simulated / roofline, the larger of compute and HBM):")
    for k in kernels:
        if k["name"] in PREFILL:
            target = GATED.get(k["name"])
            mark = "" if target is None else "  target <= %.1fx: %s" % (
                target, "met" if k["simulated"] <= target * k["roofline"] else "not met")
            print("  %-26s %8d cycles, roofline %6d: %.2fx%s" % (
                k["name"], k["simulated"], k["roofline"], k["simulated"] / k["roofline"], mark))
    print("prefill of %d tokens, %d layers: %d cycles (%.3f ms), compute roofline %.0f cycles "
          "(%.3g FLOPs): %.2fx  target <= %.1fx: %s" % (
              p["tokens"], layers, p["cycles"], p["cycles"] / 1e6, p["compute_roofline_cycles"],
              p["flops"], ratio, PREFILL_ROOFLINE_TARGET,
              "met" if ratio <= PREFILL_ROOFLINE_TARGET else "not met"))
    # Token by token: the decode run's prompt step (without logits) 512 times, one final_layer.
    steps, final = 0.0, 0.0
    for st in step_report["stages"]:
        if st["launches"] and st["stage"] == "final_layer":
            final = st["cycles"] / st["launches"]
        elif st["launches"] and st["stage"] not in PREFILL:
            steps += st["cycles"] / step_report["steps"]
    ttft = r["time_to_first_token"]
    print("time to first token: %.3f ms prefilled; token by token %.3f ms (512 prompt steps of "
          "the decode run above and a final_layer: %.0fx)" % (
              ttft["ms"], (512 * steps + final) / 1e6, (512 * steps + final) / ttft["cycles"]))
    print("  (the distances, stage by stage, and why: docs/prefill.md, \"What exists\")")
    sim = sum(st["sim_wall_seconds"] for st in r["stages"])
    torch_py = "/usr/bin/python3"
    done = subprocess.run([torch_py, os.path.join(ROOT, "scripts", "prefill_torch.py"),
                           "--layers", str(layers)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        print("simulator wall time of the prefill: %.1f s; PyTorch: not available (%s)" % (
            sim, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"))
        return
    t = json.loads(done.stdout)
    print("simulator wall time of the prefill: %.1f s (whole run %.1f s); PyTorch %s, %d "
          "threads, bf16: %.2f s; %.1fx  target <= %.1fx: %s" % (
              sim, wall, t["torch"], t["threads"], t["seconds"], sim / t["seconds"],
              PREFILL_TORCH_TARGET, "met" if sim <= PREFILL_TORCH_TARGET * t["seconds"] else
              "not met"))


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


# The Qwen3 dense sizes (Hugging Face config values): hidden, intermediate, q heads, kv heads,
# layers, tied embeddings. head_dim 128 and the 151,936-token vocabulary for all.
SIZES = [("0.6B", 1024, 3072, 16, 8, 28, True), ("1.7B", 2048, 6144, 16, 8, 28, True),
         ("4B", 2560, 9728, 32, 8, 36, True), ("8B", 4096, 12288, 32, 8, 36, False),
         ("14B", 5120, 17408, 40, 8, 40, False)]
SIZE_TARGETS = {"decode": 1.15, "prefill 512": 2.0, "prefill 16": 1.5}
HBM_BYTES_PER_CYCLE = 1500  # rngd-1chip's, as rngd-run --print-target says
MACS_PER_CYCLE = 131072


def size_config(out, size):
    name, h, inter, heads, kv, layers, tied = size
    path = os.path.join(out, "sizes", name + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"model_type": "qwen3", "hidden_size": h, "intermediate_size": inter,
                   "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": 128,
                   "vocab_size": 151936, "num_hidden_layers": layers, "rms_norm_eps": 1e-6,
                   "rope_theta": 1e6, "tie_word_embeddings": tied}, f)
    return path


def one_layer_run(binary, out, config, ids, extra):
    """rngd-qwen3 on seeded weights of the config's shape, one layer: its report, or the error."""
    report = os.path.join(out, "sizes", "report.json")
    cmd = [os.path.join(binary, "rngd-qwen3"), "--config", config, "--layers", "1",
           "--token-ids", ",".join(str(i) for i in ids), "--report", report, "--quiet"] + extra
    env = dict(os.environ, RNGD_CACHE_DIR=os.path.join(out, "stage-cache"))
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1]
    with open(report) as f:
        return json.load(f), None


def prefill_refusal(binary, out, config, tokens):
    """Why the generator refuses the prefill stages at block size `tokens`, or None: checked
    before a run, which would otherwise take the prompt token by token."""
    cmd = [os.path.join(binary, "rngd-stagegen"), config, "-o", os.path.join(out, "sizes", "stages"),
           "--tokens", str(tokens), "--stages",
           "prefill_projection,prefill_attention_first,prefill_attention,prefill_decoder"]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return done.stderr.strip().splitlines()[-1] if done.returncode != 0 else None


def stage_cycles(r, name):
    st = [s for s in r["stages"] if s["stage"] == name]
    return (st[0]["cycles"], st[0].get("roofline_cycles", 0)) if st else (0, 0)


def print_sizes(binary, out):
    """Per Qwen3 size, from 1-layer runs scaled to the size's depth (layers x the one layer's
    stages, plus final_layer once): a generated token's decode step against its HBM roofline,
    and the time to the first token of a 512- and a 16-token prompt against a roofline that
    counts each part at its own bound: a layer at the larger of its MACs at 131,072 per cycle
    and its weights at 1.5 TB/s (16 tokens are bound by the weights), the LM head's weights at
    1.5 TB/s."""
    print("\nQwen3 sizes (1-layer runs on seeded weights, scaled per layer to full depth):")
    print("%-6s %-12s %12s %12s %8s  %s" % ("size", "", "simulated", "roofline", "ratio", "target"))
    for size in SIZES:
        name, h, inter, heads, kv, layers, _ = size
        config = size_config(out, size)
        r, error = one_layer_run(binary, out, config, [1, 2], ["--max-new-tokens", "2",
                                                              "--no-prefill"])
        if error:
            print("%-6s not placed: %s" % (name, error))
            continue
        head, head_roof = stage_cycles(r, "final_layer")
        launches_head = [s for s in r["stages"] if s["stage"] == "final_layer"][0]["launches"]
        layer = layer_roof = 0.0
        for st in r["stages"]:
            if st["stage"] not in ("final_layer", "embedding", "token_lookup") and st["launches"]:
                layer += st["cycles"] / r["steps"]
                layer_roof += st.get("roofline_cycles", 0) / r["steps"]
        step = layers * layer + head / launches_head
        roof = layers * layer_roof + head_roof / launches_head
        print_size_row(name, "decode step", step, roof, "decode")
        for n in (512, 16):
            error = prefill_refusal(binary, out, config, n)
            r = None
            if not error:
                r, error = one_layer_run(binary, out, config, list(range(1, n + 1)),
                                         ["--max-new-tokens", "1"])
            if error or not r.get("prefill"):
                print("%-6s %-12s not prefilled: %s" % (name, "prefill %d" % n,
                      error or "the prefill stages do not place"))
                continue
            head = stage_cycles(r, "final_layer")[0]
            ttft = layers * (r["time_to_first_token"]["cycles"] - head) + head
            q = heads * 128
            params = h * (q + 2 * kv * 128) + q * h + 3 * h * inter  # a layer's matrices
            macs = n * params + 2 * heads * 128 * n * (n + 1) / 2
            layer = max(macs / MACS_PER_CYCLE, 2 * params / HBM_BYTES_PER_CYCLE)
            roofline = layers * layer + 151936 * h * 2 / HBM_BYTES_PER_CYCLE
            print_size_row(name, "prefill %d" % n, ttft, roofline, "prefill %d" % n)


def print_size_row(name, what, cycles, roofline, target):
    ratio = cycles / roofline
    print("%-6s %-12s %12.0f %12.0f %7.2fx  <= %.2fx: %s" % (
        name, what, cycles, roofline, ratio, SIZE_TARGETS[target],
        "met" if ratio <= SIZE_TARGETS[target] else "not met"))


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
    kernels = [bench_kernel(binary, out, k) for k in kernel_files()]
    print_kernels(kernels)
    if not a.kernels_only:
        step = print_token(binary, out, a.layers)
        print_prefill(binary, out, a.layers, step, kernels)
        print_sizes(binary, out)
        bench_batch.print_batches(binary, out, SIZES, size_config)
        bench_tp.print_tensor_parallel(binary, out)


if __name__ == "__main__":
    main()
