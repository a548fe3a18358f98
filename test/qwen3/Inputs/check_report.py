"""Checks an rngd-qwen3 --report JSON: every stage present, sensible non-zero numbers, and the
launch overhead exactly LAUNCH_CYCLES (TargetModel::kernelLaunchCycles) per launch.

  check_report.py REPORT.json LAYERS STEPS LAUNCH_CYCLES
"""
import json
import sys

path, layers, steps, launch_cycles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4])
with open(path) as f:
    r = json.load(f)
assert r["format"] == "rngd-qwen3-report", r["format"]
assert r["layers"] == layers and r["steps"] == steps, (r["layers"], r["steps"])
stages = {s["stage"]: s for s in r["stages"]}
expected = ["embedding", "projection", "attention_forward_first", "attention_forward", "decoder",
            "final_layer"]
assert list(stages) == expected, list(stages)
launch = r["kernel_launch_cycles"]
assert launch == launch_cycles, (launch, launch_cycles)
tot_cycles = tot_roof = tot_hbm = tot_launches = 0
for name in expected:
    s = stages[name]
    assert s["schedule_known"], name
    assert s["hbm_bytes_per_launch"] > 0 and s["roofline_cycles_per_launch"] > 0, name
    assert s["launch_overhead_cycles"] == launch * s["launches"], name
    if s["launches"] == 0:
        continue
    assert s["cycles"] > 0 and s["sim_wall_seconds"] >= 0, name
    assert s["hbm_bytes"] == s["hbm_bytes_per_launch"] * s["launches"], name
    # Simulated time can't beat the roofline; the kernels are not tuned, so < 100x.
    assert 1.0 <= s["roofline_ratio"] < 100, (name, s["roofline_ratio"])
    assert s["ms_per_token_with_launch"] > s["ms_per_token"] > 0, name
    tot_cycles += s["cycles"]
    tot_roof += s["roofline_cycles"]
    tot_hbm += s["hbm_bytes"]
    tot_launches += s["launches"]
t = r["total"]
assert t["cycles"] == tot_cycles and t["launches"] == tot_launches and t["hbm_bytes"] == tot_hbm
assert t["launch_overhead_cycles"] == launch_cycles * tot_launches, t["launch_overhead_cycles"]
assert abs(t["launch_overhead_ms_per_token"] - launch_cycles * tot_launches / 1e6 / steps) < 1e-12
assert abs(t["roofline_ratio"] - tot_cycles / tot_roof) < 1e-9
assert abs(t["ms_per_token"] - tot_cycles / 1e6 / steps) < 1e-9
assert abs(t["ms_per_token_with_launch"] - (tot_cycles + launch * tot_launches) / 1e6 / steps) < 1e-9
# The LM head alone is 151,936 x 1024 bf16 = 311 MB: final_layer must move at least that.
assert stages["final_layer"]["hbm_bytes_per_launch"] >= 151936 * 1024 * 2
print("report ok: %d stages, launch overhead %d cycles, %.4f ms/token, %.4f with launch "
      "overhead, %.1f MB/token, roofline ratio %.2f"
      % (len(stages), t["launch_overhead_cycles"], t["ms_per_token"],
         t["ms_per_token_with_launch"], t["hbm_bytes_per_token"] / 1e6, t["roofline_ratio"]))
for name in expected:
    print("stage %s launches %d" % (name, stages[name]["launches"]))
