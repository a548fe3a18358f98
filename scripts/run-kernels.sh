#!/usr/bin/env bash
# `make run`: compile every kernel, run it on the simulator with seeded inputs, and print its
# makespan next to the compiler's prediction.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
BIN="$BUILD_DIR/bin"
out="$BUILD_DIR/kernels"
mkdir -p "$out"

printf '%-36s %14s %14s\n' "kernel" "predicted" "simulated"
for k in $(find kernels -name '*.mlir' | sort); do
  name=$(basename "$k" .mlir)
  "$BIN/rngdc" "$k" -o "$out/$name.rngd" --dump-schedule "$out/$name.json"
  predicted=$("$BIN/rngd-dump" "$out/$name.rngd" | head -1 | sed -E 's/.* makespan ([0-9]+) .*/\1/')
  simulated=$("$BIN/rngd-run" "$out/$name.rngd" --seed 1 | sed -E 's/makespan: ([0-9]+) cycles.*/\1/')
  printf '%-36s %8s cycles %7s cycles\n' "$k" "$predicted" "$simulated"
done
