#!/usr/bin/env bash
# Regenerates schedules/<kernel>.json for every kernel. Commit the result on its own, with a
# message that says why the schedules changed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for k in $(find kernels -name '*.mlir' | sort); do
  name=$(basename "$k" .mlir)
  "$BUILD_DIR/bin/rngdc" "$k" -o "$tmp/$name.rngd" --dump-schedule "schedules/$name.json"
  echo "schedules/$name.json"
done
