"""Checks rngd-qwen3's --report prefill object against figures computed here from
Qwen3-0.6B's dimensions: usage check_prefill_report.py REPORT LAYERS TOKENS."""
import json
import sys

rep = json.load(open(sys.argv[1]))
layers, n = int(sys.argv[2]), int(sys.argv[3])
p = rep["prefill"]
H, Q, KV, L, HEADS, D, VOCAB = 1024, 2048, 1024, 3072, 16, 128, 151936
macs = layers * (n * H * (Q + 2 * KV) + 2 * HEADS * D * n * (n + 1) // 2 + n * Q * H + 3 * n * H * L)
macs += H * VOCAB  # the LM head on the last row (the prompt is prefilled whole)
flops_ok = abs(p["flops"] - 2 * macs) <= 1e-9 * 2 * macs
roof_ok = abs(p["compute_roofline_cycles"] - 2 * macs / (2 * 131072)) <= 1e-6 * macs
stages = {s["stage"]: s["cycles"] for s in rep["stages"]}
# The prefill's cycles: its two stages over every layer plus the LM head's first launch.
cycles_ok = p["cycles"] > sum(stages[s] for s in ("prefill_projection",
                                                   "prefill_attention_decoder"))
print("prefill tokens %d blocks %s flops %s roofline %s cycles %s"
      % (p["tokens"], ",".join(str(b) for b in p["blocks"]), "ok" if flops_ok else "WRONG %r" % p["flops"],
         "ok" if roof_ok else "WRONG", "ok" if cycles_ok else "WRONG"))
print("first token after %d launches" % rep["time_to_first_token"]["launches"])
