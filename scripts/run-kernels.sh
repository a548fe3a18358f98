#!/usr/bin/env bash
# `make run`: compile every kernel, run it on the simulator with seeded inputs, and print its
# makespan next to the compiler's prediction.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
BIN="$BUILD_DIR/bin"
out="$BUILD_DIR/kernels"
mkdir -p "$out"

# Roofline (DESIGN.md section 12): HBM bytes moved / 1.5 TB/s (or the busiest cluster's DM
# intake) + one DMA start-up, computed by rngdc into the schedule.
printf '%-44s %10s %10s %10s %8s\n' "kernel" "predicted" "simulated" "roofline" "ratio"
for k in $(find kernels -name '*.mlir' | sort); do
  name=$(basename "$k" .mlir)
  "$BIN/rngdc" "$k" -o "$out/$name.rngd" --dump-schedule "$out/$name.json"
  inputs=()
  if [ "$name" = kv_scatter ] || [ "$name" = projection ]; then # a cache row offset: row 5
    python3 -c "import struct; open('$out/offset.bin', 'wb').write(struct.pack('<i', 5 * 2048))"
    inputs=(--input "$([ "$name" = projection ] && echo kv_offset || echo offset)=$out/offset.bin")
  fi
  simulated=$("$BIN/rngd-run" "$out/$name.rngd" --seed 1 "${inputs[@]}" | sed -E 's/makespan: ([0-9]+) cycles.*/\1/')
  read -r predicted roofline < <(python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print(s['makespan'], s['roofline'])" "$out/$name.json")
  ratio=$(python3 -c "print('%.2f' % ($simulated / $roofline))")
  printf '%-44s %10s %10s %10s %7sx\n' "$k" "$predicted" "$simulated" "$roofline" "$ratio"
done

# The flagship: seeded Qwen3-0.6B (28 layers), a three-token prompt and two generated tokens,
# checked against the whole-model reference, with the per-stage report.
echo
"$BIN/rngd-qwen3" --layers 28 --token-ids 151644,872,198 --max-new-tokens 2 --check
