#!/usr/bin/env bash
# Builds the service, starts it and shows it solving the hard New York Times
# Sudoku of 2024-01-08 ([Mücke 2024]) through the command-line client. The server keeps running until Ctrl-C
# (or exits right after the demo with --exit). ADDR and METRICS override the listen addresses.
set -euo pipefail
cd "$(dirname "$0")/.."
ADDR=${ADDR:-127.0.0.1:50051}
METRICS=${METRICS:-127.0.0.1:9464}
scripts/install-deps.sh --build-only
JOBS=${JOBS:-$(nproc)}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$JOBS" --target qs_server qsolve

./build/server/qs_server --address="$ADDR" --metrics_address="$METRICS" &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 100); do
  ./build/clients/qsolve health --addr "$ADDR" >/dev/null 2>&1 && break
  sleep 0.1
done
./build/clients/qsolve health --addr "$ADDR"

NYT='.......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8.....9...4..65..'
echo
echo "== compile: the NYT 2024-01-08 puzzle, clamped by rules I-IV"
./build/clients/qsolve compile --addr "$ADDR" --kind sudoku --input "$NYT"
echo
echo "== solve with the defaults: backend auto races sat and parallel tempering, first valid grid wins"
./build/clients/qsolve solve --addr "$ADDR" --kind sudoku --input "$NYT"
echo
echo "== the QUBO samplers alone (--auto_exact off): parallel tempering finds the grid"
./build/clients/qsolve solve --addr "$ADDR" --kind sudoku --input "$NYT" --auto_exact off
echo
echo "metrics: http://$METRICS/metrics"
if [[ "${1:-}" == "--exit" ]]; then exit 0; fi
echo "server running on $ADDR; Ctrl-C stops it"
wait $SERVER
