#!/usr/bin/env bash
# Throughput and latency of the small-puzzle mix (tests/data/loadgen/small_puzzles.txt: 9x9 Sudoku with
# many givens, 8x8 LinkedIn Queens, 6x6 Takuzu/Tango; 32 reads each) against one local qs_server, at several
# concurrencies, with the server's phase split from its /metrics. Prints a Markdown table and leaves one
# JSON report per point in build/bench/. A benchmark, not a test: figures depend on the machine.
#
#   scripts/benchmark.sh                       # concurrency 1, 8, 64; 20 s per point; Solve calls
#   CONCURRENCY="1 8" SECONDS_PER_POINT=10 MODE=batch scripts/benchmark.sh
#
# WORKERS sets the server's compute threads (default: 2, the cores the figures are quoted for).
set -euo pipefail
cd "$(dirname "$0")/.."
ADDR=${ADDR:-127.0.0.1:50651}
METRICS=${METRICS:-127.0.0.1:9651}
CONCURRENCY=${CONCURRENCY:-1 8 64}
SECONDS_PER_POINT=${SECONDS_PER_POINT:-20}
MODE=${MODE:-solve}
WORKERS=${WORKERS:-2}
READS=${READS:-32}
MIX=${MIX:-tests/data/loadgen/small_puzzles.txt}
OUT=build/bench
JOBS=${JOBS:-$(nproc)}

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$JOBS" --target qs_server qs_loadgen >/dev/null
mkdir -p "$OUT"

./build/server/qs_server --address="$ADDR" --metrics_address="$METRICS" --worker_threads="$WORKERS" \
  --log_level=warn &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://$METRICS/metrics" >/dev/null 2>&1 && break
  sleep 0.1
done

echo "qs_server pid $SERVER, $WORKERS compute threads, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
# CPU seconds the server process has used (user + system), from /proc.
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$SERVER/stat"
}
for c in $CONCURRENCY; do
  echo "== concurrency $c ($MODE, $SECONDS_PER_POINT s)"
  CPU_BEFORE=$(cpu_seconds)
  ./build/clients/qs_loadgen --targets "$ADDR" --mode "$MODE" --concurrency "$c" \
    --duration "$SECONDS_PER_POINT" --warmup $((2 * c)) --reads "$READS" --mix "$MIX" --metrics "$METRICS" \
    --stop_at_first_valid=false --time_limit 0 --json_report "$OUT/$MODE-c$c.json"
  awk -v a="$(cpu_seconds)" -v b="$CPU_BEFORE" 'BEGIN {print a - b}' >"$OUT/$MODE-c$c.cpu"
done

echo
echo "| concurrency | requests/s | p50 ms | p90 ms | p99 ms | valid | served time outside the annealer | server CPU outside the annealer | server CPU ms/request |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in $CONCURRENCY; do
  /usr/bin/python3 - "$OUT/$MODE-c$c.json" "$(cat "$OUT/$MODE-c$c.cpu")" "$((2 * c))" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cpu, warmup = float(sys.argv[2]), int(sys.argv[3])
l = r["latency"]
print(f"| {r['concurrency']:.0f} | {r['requests_per_second']:.1f} | {l['p50_ms']:.1f} | {l['p90_ms']:.1f} "
      f"| {l['p99_ms']:.1f} | {100 * r['valid_rate']:.1f}% | {100 * r['server_phases']['outside_share']:.2f}% "
      f"| {100 * r['server_phases']['cpu_outside_share']:.2f}% | {1e3 * cpu / (r['requests'] + warmup):.2f} |")
PY
done
