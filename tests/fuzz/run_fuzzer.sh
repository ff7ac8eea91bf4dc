#!/usr/bin/env bash
# Runs one libFuzzer target for a while: replays the seeds and the saved regression inputs, then fuzzes
# for SECONDS from a scratch copy of the seeds (the committed corpus stays as it is). A crash, leak,
# sanitizer report, timeout (10 s per input) or memory blow-up fails the run; its input is saved in
# ARTIFACTS as <target>-crash-<sha1> (copy it into regressions/<target>/ once fixed).
# Usage: run_fuzzer.sh FUZZER SECONDS SEED_DIR REGRESSION_DIR ARTIFACTS [extra libFuzzer flags]
set -euo pipefail
fuzzer=$1 seconds=$2 seeds=$3 regressions=$4 artifacts=$5
shift 5
name=$(basename "$fuzzer")
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dirs=("$work")
[[ -d $seeds ]] && dirs+=("$seeds")
[[ -d $regressions ]] && dirs+=("$regressions")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$name-" "$@" "${dirs[@]}" >"$work.log" 2>&1 || status=$?
# Progress lines are noise in a test log; the rest (stats, reports) stays.
grep -v '^#[0-9]' "$work.log" || true
rm -f "$work.log"
if ((status != 0)); then
  echo "FAIL: $name exited $status; the input is in $artifacts/$name-*"
  exit 1
fi
echo "$name: no crash in ${seconds}s"
