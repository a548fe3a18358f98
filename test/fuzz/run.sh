#!/usr/bin/env bash
# make fuzz: configures and builds FUZZ_BUILD_DIR (default build-fuzz) with clang-19 and
# -DRNGD_FUZZ=ON (only the fuzz targets asked for are built), then runs each fuzz target (FUZZ_TARGETS, default
# all of test/fuzz/corpus) for FUZZ_SECONDS (default 60): first over its regression inputs and
# seeds, then fuzzing from its seed corpus (new inputs go to FUZZ_BUILD_DIR/corpus/<target>, not
# into the tree) with its dictionary. Any finding (crash, sanitizer report, failed property,
# timeout, out-of-memory) fails the run; the input is left in FUZZ_BUILD_DIR/findings/<target>/.
# Prints executions per second and time per target. FUZZ_BUILD=0 fuzzes the executables already
# in FUZZ_BUILD_DIR without configuring or building. docs/reliability.md.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
JOBS="${FUZZ_BUILD_JOBS:-1}"
FUZZ="$ROOT/test/fuzz"
TARGETS="${FUZZ_TARGETS:-$(ls "$FUZZ/corpus")}"

if ! command -v clang++-19 >/dev/null; then
  echo "fuzz: clang++-19 not found (scripts/install-deps.sh installs clang-19 and libclang-rt-19-dev)" >&2
  exit 1
fi
if [ "${FUZZ_BUILD:-1}" != 0 ]; then
  if [ ! -f "$BUILD/build.ninja" ]; then
    CC=clang-19 CXX=clang++-19 cmake -S "$ROOT" -B "$BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRNGD_FUZZ=ON || exit 1
  fi
  build_targets=()
  for t in $TARGETS; do build_targets+=("fuzz-$t"); done
  cmake --build "$BUILD" --target "${build_targets[@]}" -- -j"$JOBS" || exit 1
fi

failed=()
summary=()
for t in $TARGETS; do
  exe="$BUILD/bin/fuzz-$t"
  corpus="$BUILD/corpus/$t"
  findings="$BUILD/findings/$t"
  mkdir -p "$corpus" "$findings"
  log="$BUILD/fuzz-$t.log"
  dict=()
  [ -f "$FUZZ/dicts/$t.dict" ] && dict=(-dict="$FUZZ/dicts/$t.dict")
  # The fixed findings and the seeds first, one run each (no fuzzing).
  replay=()
  for f in "$FUZZ/regressions/$t"/* "$FUZZ/corpus/$t"/*; do
    [ -f "$f" ] && [ "$(basename "$f")" != README.md ] && replay+=("$f")
  done
  echo "fuzz: $t: replaying ${#replay[@]} regression and seed inputs"
  if ! "$exe" -runs=1 "${replay[@]}" > "$log.replay" 2>&1; then
    echo "fuzz: $t: FAILED on a regression or seed input (see $log.replay)" >&2
    tail -20 "$log.replay" >&2
    failed+=("$t"); continue
  fi
  echo "fuzz: $t: fuzzing for ${SECONDS_PER_TARGET} s"
  start=$(date +%s)
  "$exe" "$corpus" "$FUZZ/corpus/$t" "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$findings/" > "$log" 2>&1
  rc=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  line="$t: ${elapsed} s, ${execs:-?} executions, ${rate:-?} exec/s, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l) files"
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t: FINDING (exit $rc), input in $findings/ (see $log):" >&2
    grep -E "ERROR|SUMMARY|fuzz property failed|runtime error|Test unit written" "$log" | head -10 >&2
    failed+=("$t"); line="$line, FINDING"
  fi
  echo "fuzz: $line"
  summary+=("$line")
done
echo "fuzz: summary"
for l in "${summary[@]}"; do echo "  $l"; done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings in: ${failed[*]} (fix, then copy the input into test/fuzz/regressions/<target>/)" >&2
  exit 1
fi
