#!/usr/bin/env bash
# Soak: qs_loadgen at concurrency 64 for 2 minutes against one qs_server with small limits (4 requests
# running, 8 queued, small per-request budgets), so that most calls meet a full queue. Passes when the
# server is still up, every request was answered OK or with a documented status (UNAVAILABLE for a full
# queue), and the server's resident memory once idle after the run is within 10% of what it was once idle
# after a warm-up at the same load. Both are read after a pause longer than the server's memory trim
# interval (--memory_trim_seconds, 10 s), so that they count what the server keeps, not what the
# allocator holds on to in the middle of a burst; the RSS under load is sampled and printed too.
# Prints the figures; exit status 0 when every check passed. Not part of scripts/test.sh (too long).
#
#   scripts/soak.sh                    # 120 s, concurrency 64, Solve calls
#   DURATION=30 MODE=batch scripts/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ADDR=${ADDR:-127.0.0.1:50661}
METRICS=${METRICS:-127.0.0.1:9661}
DURATION=${DURATION:-120}
WARMUP_SECONDS=${WARMUP_SECONDS:-30}
CONCURRENCY=${CONCURRENCY:-64}
MODE=${MODE:-solve}
SETTLE=${SETTLE:-12}  # seconds of idle before reading the RSS (one memory trim of the server)
STREAMS=${STREAMS:-16}  # batch mode: SolveBatch streams
MIX=${MIX:-tests/data/loadgen/small_puzzles.txt}  # qs_loadgen --mix
OUT=build/soak
JOBS=${JOBS:-$(nproc)}

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$JOBS" --target qs_server qs_loadgen >/dev/null
mkdir -p "$OUT"

./build/server/qs_server --address="$ADDR" --metrics_address="$METRICS" --worker_threads=2 \
  --max_concurrent_requests=4 --max_queued_requests=8 --max_batch_in_flight=2 --max_reads=256 \
  --max_sweeps=5000 --max_attempts=5e7 --log_level=warn 2>"$OUT/server.log" &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://$METRICS/metrics" >/dev/null 2>&1 && break
  sleep 0.1
done
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER/status"; }
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$SERVER/status"; }

RSS_IDLE=$(rss_kb)
echo "qs_server pid $SERVER; RSS idle ${RSS_IDLE} kB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== warm-up: ${WARMUP_SECONDS} s at concurrency $CONCURRENCY"
./build/clients/qs_loadgen --targets "$ADDR" --mode "$MODE" --concurrency "$CONCURRENCY" --streams "$STREAMS" \
  --duration "$WARMUP_SECONDS" --reads 32 --stop_at_first_valid=false --time_limit 0 --mix "$MIX" --json_report "$OUT/warmup.json" >/dev/null
RSS_LOADED=$(rss_kb)
sleep "$SETTLE"
RSS_BEFORE=$(rss_kb)
echo "RSS at the end of the warm-up ${RSS_LOADED} kB, ${SETTLE} s later ${RSS_BEFORE} kB"

echo "== soak: ${DURATION} s at concurrency $CONCURRENCY ($MODE)"
FAILED=0
: >"$OUT/rss.txt"
(
  while kill -0 $SERVER 2>/dev/null; do
    echo "$(date +%s) $(rss_kb)" >>"$OUT/rss.txt"
    sleep 10
  done
) &
SAMPLER=$!
./build/clients/qs_loadgen --targets "$ADDR" --mode "$MODE" --concurrency "$CONCURRENCY" --streams "$STREAMS" \
  --duration "$DURATION" --reads 32 --stop_at_first_valid=false --time_limit 0 --mix "$MIX" --metrics "$METRICS" --json_report "$OUT/soak.json" || FAILED=1
kill $SAMPLER 2>/dev/null || true
wait $SAMPLER 2>/dev/null || true
RSS_END=$(rss_kb || echo 0)
sleep "$SETTLE"

if kill -0 $SERVER 2>/dev/null; then
  echo "server alive after the soak: yes"
else
  echo "server alive after the soak: NO"
  FAILED=1
fi
RSS_AFTER=$(rss_kb || echo 0)
HWM=$(hwm_kb || echo 0)
echo "RSS under load (kB, every 10 s): $(awk '{print $2}' "$OUT/rss.txt" | tr '\n' ' ')"
echo "RSS at the end of the soak ${RSS_END} kB, ${SETTLE} s later ${RSS_AFTER} kB"
/usr/bin/python3 - "$OUT/soak.json" "$RSS_BEFORE" "$RSS_AFTER" "$HWM" <<'PY' || FAILED=1
import json, sys
report = json.load(open(sys.argv[1]))
before, after, hwm = (int(x) for x in sys.argv[2:5])
codes = report["status_codes"]
documented = {"OK", "UNAVAILABLE"}
others = {c: n for c, n in codes.items() if c not in documented}
change = (after - before) / before
print(f"requests {report['requests']:.0f} in {report['seconds']:.1f} s: "
      + ", ".join(f"{c} {n:.0f}" for c, n in sorted(codes.items())))
print(f"OK latency p50 {report['latency']['p50_ms']:.1f} ms, p99 {report['latency']['p99_ms']:.1f} ms; "
      f"valid {100 * report['valid_rate']:.1f}% of OK")
print(f"RSS idle after the warm-up {before} kB, idle after the soak {after} kB ({100 * change:+.1f}%), "
      f"peak {hwm} kB")
ok = True
if others:
    print(f"FAIL: undocumented statuses {others}")
    ok = False
if abs(change) > 0.10:
    print("FAIL: RSS moved more than 10%")
    ok = False
if codes.get("OK", 0) == 0:
    print("FAIL: no request succeeded")
    ok = False
print("soak passed" if ok else "soak FAILED")
sys.exit(0 if ok else 1)
PY
exit $FAILED
