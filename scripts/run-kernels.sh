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

# The flagship, text in and text out: the prompt "Hello" through Qwen3's chat template and the
# real tokenizer (9 ids), seeded Qwen3-0.6B (28 layers), four generated tokens streamed as text,
# every launch and the last step's logits checked against the host oracles, with the per-stage
# report. The weights are seeded random values, so the text is arbitrary (the program says so).
echo
"$BIN/rngd-qwen3" --layers 28 --prompt "Hello" --max-new-tokens 4 --check
