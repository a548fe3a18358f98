"""`make bench`'s tensor-parallel table (docs/multichip.md): Qwen3-32B-shaped stages (hidden
5120, MLP 25600, 64 q / 8 kv heads, 64 layers, untied) over 2, 4 and 8 chips, one MPI rank each
(mpirun -np N rngd-qwen3 --tensor-parallel N on seeded weights, one layer, scaled per layer to
the 64 layers). A generated token's decode step: the chip's stages (every chip runs the same
shapes, so rank 0's counters are the step's), the link's all-reduces (the embedding row's and
two per layer) and the logits' gather, against a roofline of the chip's HBM bytes at 1.5 TB/s
plus the same link time. Target: TP 4 <= 1.3x. The all-reduces' share of the step is shown.
Then a 512-token prompt's time to the first token, through the chips' prefill stages, against a
roofline that counts each chip's share at its bound (its layers' MACs at 131,072 per cycle or
their weights at 1.5 TB/s, its LM head block at 1.5 TB/s) plus the link time."""
import json
import math
import os
import shutil
import subprocess

CONFIG = {"model_type": "qwen3", "hidden_size": 5120, "intermediate_size": 25600,
          "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128,
          "vocab_size": 151936, "num_hidden_layers": 64, "rms_norm_eps": 1e-6,
          "rope_theta": 1e6, "tie_word_embeddings": False}
CHIPS = (2, 4, 8)
TARGET = {4: 1.3}
HBM_BYTES_PER_CYCLE = 1500
STARTUP, PCIE = 500, 30  # TargetModel::dmaStartupCycles, pcieBytesPerCycle


def all_reduce(chips, bytes_):
    return 2 * (chips - 1) * (STARTUP + math.ceil(math.ceil(bytes_ / chips) / PCIE))


def gather(chips, bytes_per_chip):
    return STARTUP + math.ceil((chips - 1) * bytes_per_chip / PCIE)


MACS_PER_CYCLE = 131072


def tp_run(binary, out, chips, ids, new, extra=()):
    """rank 0's report of a 1-layer run over `chips` ranks, or the error line."""
    work = os.path.join(out, "tp")
    os.makedirs(work, exist_ok=True)
    config, report = os.path.join(work, "32B.json"), os.path.join(work, "report.json")
    with open(config, "w") as f:
        json.dump(CONFIG, f)
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(chips),
           os.path.join(binary, "rngd-qwen3"), "--tensor-parallel", str(chips), "--config",
           config, "--layers", "1", "--token-ids", ",".join(map(str, ids)), "--max-new-tokens",
           str(new), "--report", report, "--quiet"] + list(extra)
    env = dict(os.environ, RNGD_CACHE_DIR=os.path.join(out, "stage-cache"))
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        lines = [l for l in done.stderr.splitlines() if "rngd-qwen3: error" in l]
        return None, (lines[0] if lines else done.stderr.strip().splitlines()[-1])
    with open(report) as f:
        return json.load(f), None


def print_tensor_parallel(binary, out):
    print("\nTensor parallel, Qwen3-32B shape (mpirun -np N, 1-layer runs on seeded weights, "
          "scaled per layer to 64 layers):")
    if not shutil.which("mpirun"):
        print("  mpirun not found (scripts/install-deps.sh installs Open MPI)")
        return
    print("%-5s %-12s %12s %12s %8s %10s  %s" % ("chips", "", "simulated", "roofline", "ratio",
                                               "link share", "target"))
    H, layers = CONFIG["hidden_size"], CONFIG["num_hidden_layers"]
    for chips in CHIPS:
        r, error = tp_run(binary, out, chips, (1, 2), 2, ["--no-prefill"])
        if error:
            print("%-5d decode step  not run: %s" % (chips, error))
            continue
        stages = {s["stage"]: s for s in r["stages"]}
        head = stages["final_layer"]
        per_head = head["cycles"] / head["launches"]
        head_roof = head["roofline_cycles"] / head["launches"]
        layer = layer_roof = 0.0
        for name, st in stages.items():
            if name not in ("final_layer", "embedding", "chip_link") and st["launches"]:
                layer += st["cycles"] / r["steps"]
                layer_roof += st["roofline_cycles"] / r["steps"]
        ar = all_reduce(chips, H * 2)
        link = (2 * layers + 1) * ar + gather(chips, math.ceil(CONFIG["vocab_size"] / chips) * 2)
        step = layers * layer + per_head + link
        roof = layers * layer_roof + head_roof + link
        ratio = step / roof
        target = TARGET.get(chips)
        verdict = ("<= %.2fx: %s" % (target, "met" if ratio <= target else "not met")
                   if target else "")
        print("%-5d %-12s %12.0f %12.0f %7.2fx %9.1f%%  %s" % (
            chips, "decode step", step, roof, ratio, 100.0 * link / step, verdict))
        print_prefill(binary, out, chips)


def prefill_refusal(binary, out, chips, n):
    """Why the chip's prefill stages do not place at block size n, or None: checked before a
    run, which would otherwise take the prompt token by token."""
    work = os.path.join(out, "tp")
    cmd = [os.path.join(binary, "rngd-stagegen"), os.path.join(work, "32B.json"), "-o",
           os.path.join(work, "stages"), "--tensor-parallel", str(chips), "--tokens", str(n)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return done.stderr.strip().splitlines()[-1] if done.returncode != 0 else None


def print_prefill(binary, out, chips, n=512):
    """The 512-token prompt's time to the first token over `chips` chips, scaled per layer."""
    error = prefill_refusal(binary, out, chips, n)
    r = None
    if not error:
        r, error = tp_run(binary, out, chips, range(1, n + 1), 1)
    if error or not r.get("prefill"):
        print("%-5d %-12s not prefilled: %s" % (chips, "prefill %d" % n,
                                                error or "the chip's prefill stages do not place"))
        return
    H, inter, layers = CONFIG["hidden_size"], CONFIG["intermediate_size"], CONFIG["num_hidden_layers"]
    heads, kv = CONFIG["num_attention_heads"] // chips, CONFIG["num_key_value_heads"] // chips
    block = math.ceil(CONFIG["vocab_size"] / chips)
    stages = {s["stage"]: s for s in r["stages"]}
    head = stages["final_layer"]["cycles"] / stages["final_layer"]["launches"]
    embed, logits = all_reduce(chips, n * H * 2), gather(chips, block * 2)
    per_layer = r["time_to_first_token"]["cycles"] - head - embed - logits
    ttft = layers * per_layer + head + embed + logits
    q = heads * 128
    params = H * (q + 2 * kv * 128) + q * H + 3 * H * inter // chips  # the chip's matrices
    macs = n * params + 2 * heads * 128 * n * (n + 1) / 2
    link = 2 * all_reduce(chips, n * H * 2)
    layer = max(macs / MACS_PER_CYCLE, 2 * params / HBM_BYTES_PER_CYCLE) + link
    roof = layers * layer + block * H * 2 / HBM_BYTES_PER_CYCLE + embed + logits
    link_all = layers * link + embed + logits
    print("%-5d %-12s %12.0f %12.0f %7.2fx %9.1f%%" % (chips, "prefill %d" % n, ttft, roof,
                                                       ttft / roof, 100.0 * link_all / ttft))
