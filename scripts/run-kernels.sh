#!/usr/bin/env bash
# `make run`: compile every kernel, run it on the simulator with seeded inputs, print its
# makespan next to the compiler's prediction and the roofline, then decode Qwen3-0.6B.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
BIN="$BUILD_DIR/bin"

# Every kernel compiled and simulated: bytes, roofline, predicted and simulated cycles
# (scripts/bench.py, whose whole run is `make bench`).
python3 scripts/bench.py "$BUILD_DIR" --kernels-only

# The flagship: seeded Qwen3-0.6B (28 layers), a three-token prompt and two generated tokens,
# checked against the whole-model reference, with the per-stage report.
echo
"$BIN/rngd-qwen3" --layers 28 --token-ids 151644,872,198 --max-new-tokens 2 --check
