"""`make bench`'s batched decode table (docs/batching.md): for Qwen3-0.6B and 8B, one batched
decode step of B = 1, 4, 16 and 64 sequences (rngd-qwen3 --prompts, 8-token prompts, 3 new
tokens each, one layer on seeded weights, scaled to the size's depth: layers x the step's layer
stages plus batch_final_layer once), its device time, the tokens per second of device time, and
the step against the B = 1 step (targets: B = 16 <= 1.3x, B = 64 <= 2x)."""
import json
import os
import subprocess

BATCHES = (1, 4, 16, 64)
TARGETS = {16: 1.3, 64: 2.0}
PROMPT, NEW = 8, 3


def batch_step(binary, out, config, layers, batch):
    """The scaled cycles of a decode step with `batch` sequences, or the error line."""
    work = os.path.join(out, "batch")
    os.makedirs(work, exist_ok=True)
    prompts, report = os.path.join(work, "prompts.jsonl"), os.path.join(work, "report.json")
    with open(prompts, "w") as f:
        for i in range(batch):
            ids = [(31 * i + 7 * j + 5) % 151936 for j in range(PROMPT)]
            f.write(json.dumps({"token_ids": ids, "max_new_tokens": NEW}) + "\n")
    cmd = [os.path.join(binary, "rngd-qwen3"), "--config", config, "--layers", "1", "--prompts",
           prompts, "--max-batch", str(batch), "--report", report, "--quiet"]
    env = dict(os.environ, RNGD_CACHE_DIR=os.path.join(out, "stage-cache"))
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1]
    with open(report) as f:
        r = json.load(f)
    steps = [s["cycles"] for s in r["decode_steps"] if s["batch"] == batch]
    head = [s for s in r["stages"] if s["stage"] == "batch_final_layer"][0]
    per_head = head["cycles"] / head["launches"]
    return layers * (min(steps) - per_head) + per_head, None


def print_batches(binary, out, sizes, size_config):
    """`sizes`: bench.py's SIZES rows; `size_config` writes a size's config.json."""
    print("\nBatched decode (rngd-qwen3 --prompts, %d-token prompts, 1-layer runs scaled per "
          "layer to full depth):" % PROMPT)
    print("%-6s %4s %12s %9s %14s %9s  %s" % ("size", "B", "step cycles", "ms", "tokens/s",
                                             "vs B=1", "target"))
    for size in sizes:
        if size[0] not in ("0.6B", "8B"):
            continue
        config, layers, alone = size_config(out, size), size[5], None
        for b in BATCHES:
            cycles, error = batch_step(binary, out, config, layers, b)
            if error:
                print("%-6s %4d not run: %s" % (size[0], b, error))
                continue
            alone = alone or cycles
            ratio = cycles / alone
            target = ("<= %.1fx: %s" % (TARGETS[b], "met" if ratio <= TARGETS[b] else "not met")
                      if b in TARGETS else "")
            print("%-6s %4d %12.0f %9.3f %14.0f %8.2fx  %s" % (
                size[0], b, cycles, cycles / 1e6, b * 1e9 / cycles, ratio, target))
