#!/usr/bin/env bash
# The container image end to end on a machine with no registry: debootstraps a debian:bookworm base from
# the apt mirror this machine already uses, imports it into podman, builds the project's Dockerfile (from
# source, or with PREBUILT=1 its `prebuilt` target around the host's binaries), checks the runtime image
# (every shared library resolves, runs as an unprivileged user, no shell needed), runs it on 127.0.0.1,
# solves a Sudoku through it with qsolve from outside the container, checks health, the image's own
# HEALTHCHECK and /metrics, stops it with SIGTERM (it must drain and exit 0, not be killed), then brings up
# deploy/compose.yaml with podman-compose (this image and the Prometheus image of deploy/prometheus) and
# checks through Prometheus's HTTP API that it scrapes the server and has loaded the alert rules, and
# removes everything it made. podman's settings come from files written under a temporary directory
# (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF): nothing under /etc is changed.
#
# Usage: deploy/container-test.sh            (root or sudo; installs what it needs with apt-get)
# Env:   BUILD_DIR   host build tree of clients/qsolve (default build; configured and built if need be)
#        PREBUILT=1  the image of the Dockerfile's `prebuilt` target: qs_server and qsolve of BUILD_DIR
#                    (a Release build on this Debian bookworm host) instead of a compile in the image's
#                    build stage; the test command sets it, as its main stage has built them
#        KEEP_WORK=1 leave the temporary directory (rootfs, image store) for inspection
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build}
PREBUILT=${PREBUILT:-0}
IMAGE=localhost/qs-server:test
START=$(date +%s)

log() { printf '[container-test +%ss] %s\n' "$(($(date +%s) - START))" "$*"; }
fail() { printf '[container-test] FAIL: %s\n' "$*" >&2; exit 1; }

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

# --- tools -------------------------------------------------------------------------------------------
"$ROOT"/scripts/install-deps.sh --containers

# The mirror: the first URI of the main Debian source of this machine (deb822 or one-line format).
mirror=""
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
fi
if [[ -z $mirror && -f /etc/apt/sources.list ]]; then
  mirror=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/) {print $i; exit}}' \
    /etc/apt/sources.list)
fi
[[ -n $mirror ]] || fail "no Debian mirror found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"

# --- private podman configuration --------------------------------------------------------------------
WORK=$(mktemp -d /tmp/qs-container-test.XXXXXX)
cat >"$WORK/containers.conf" <<'EOF'
[containers]
# The default limits (1048576 open files) are more than this kernel lets a container set.
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
[engine]
# crun refuses the hybrid cgroup v1 + v2 layout; runc copes. No systemd to manage cgroups or events.
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
cat >"$WORK/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$WORK/storage"
runroot = "$WORK/run"
EOF
export CONTAINERS_CONF=$WORK/containers.conf
export CONTAINERS_STORAGE_CONF=$WORK/storage.conf
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR"
PODMAN=(podman_quiet)
# podman schedules an image's HEALTHCHECK with systemd timers and complains on stderr where there is no
# systemd; the check itself is run on demand below.
podman_quiet() {
  $SUDO env CONTAINERS_CONF="$CONTAINERS_CONF" CONTAINERS_STORAGE_CONF="$CONTAINERS_STORAGE_CONF" \
    TMPDIR="$TMPDIR" podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
}

CONTAINER=""
COMPOSE_PROJECT=""
compose() {
  $SUDO env CONTAINERS_CONF="$CONTAINERS_CONF" CONTAINERS_STORAGE_CONF="$CONTAINERS_STORAGE_CONF" \
    TMPDIR="$TMPDIR" QS_GRPC_PORT="${QS_GRPC_PORT:-}" QS_METRICS_PORT="${QS_METRICS_PORT:-}" \
    QS_PROMETHEUS_PORT="${QS_PROMETHEUS_PORT:-}" \
    podman-compose -p "$COMPOSE_PROJECT" -f "$ROOT/deploy/compose.yaml" "$@"
}
cleanup() {
  local rc=$?
  if [[ -n $CONTAINER ]]; then "${PODMAN[@]}" rm -f -t 0 "$CONTAINER" >/dev/null 2>&1 || true; fi
  if [[ -n $COMPOSE_PROJECT ]]; then
    compose down -v >/dev/null 2>&1 || true
    # The CNI configuration of the compose network lives under /etc/cni/net.d, outside the private store.
    "${PODMAN[@]}" network rm -f "${COMPOSE_PROJECT}_default" >/dev/null 2>&1 || true
  fi
  if [[ ${KEEP_WORK:-0} == 1 ]]; then
    log "work dir kept (image store included): $WORK; CONTAINERS_CONF=$CONTAINERS_CONF CONTAINERS_STORAGE_CONF=$CONTAINERS_STORAGE_CONF"
  else
    "${PODMAN[@]}" system reset --force >/dev/null 2>&1 || true
    # Anything still mounted under the work dir (overlay layers, the store's own bind mount).
    awk -v w="$WORK" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do
      $SUDO umount -l "$m" 2>/dev/null || true
    done
    $SUDO rm -rf "$WORK"
  fi
  if [[ $PREBUILT == 1 ]]; then rm -rf "$ROOT/.prebuilt"; fi
  if ((rc == 0)); then log "PASS"; else log "FAILED (exit $rc)"; fi
}
trap cleanup EXIT

# Two free loopback ports, probed with bash's /dev/tcp (a refused connection means free).
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

# --- base image by debootstrap ------------------------------------------------------------------------
log "debootstrap bookworm (minbase) from $mirror"
$SUDO debootstrap --variant=minbase bookworm "$WORK/rootfs" "$mirror" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -20 "$WORK/debootstrap.log"; fail "debootstrap"; }
# Tagged with the name the Dockerfile's FROM lines use, so the build never looks for a registry.
log "podman import"
$SUDO tar -C "$WORK/rootfs" -c . | "${PODMAN[@]}" import -q - docker.io/library/debian:bookworm >/dev/null
$SUDO rm -rf "$WORK/rootfs"

# --- image --------------------------------------------------------------------------------------------
# The host's qsolve talks to the container; with PREBUILT=1 the image takes qs_server from there too.
host_targets=(qsolve)
if [[ $PREBUILT == 1 ]]; then host_targets+=(qs_server); fi
# Nothing to do when they are up to date (the test command's main stage has built them).
log "host build of ${host_targets[*]} in $BUILD_DIR"
if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD_DIR" --target "${host_targets[@]}" -j"$(nproc)" >/dev/null
QSOLVE=$BUILD_DIR/clients/qsolve
# docker format keeps the Dockerfile's HEALTHCHECK (the OCI format has no such field).
build_args=()
if [[ $PREBUILT == 1 ]]; then
  # .dockerignore leaves build trees out of the context: the binaries go to .prebuilt/ (git-ignored,
  # removed on exit).
  mkdir -p "$ROOT/.prebuilt"
  cp "$BUILD_DIR/server/qs_server" "$BUILD_DIR/clients/qsolve" "$ROOT/.prebuilt/"
  build_args=(--target prebuilt)
  log "podman build --target prebuilt (qs_server and qsolve of $BUILD_DIR)"
else
  log "podman build"
fi
"${PODMAN[@]}" build --pull=never --format docker --network host "${build_args[@]}" -t "$IMAGE" "$ROOT" \
  >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; fail "podman build"; }
rm -rf "$ROOT/.prebuilt"
log "image size: $("${PODMAN[@]}" image inspect --format '{{.Size}}' "$IMAGE") bytes"

user=$("${PODMAN[@]}" image inspect --format '{{.Config.User}}' "$IMAGE")
[[ $user == 65534:65534 ]] || fail "image user is '$user', want 65534:65534"
for bin in qs_server qsolve; do
  libs=$("${PODMAN[@]}" run --rm --network none --no-healthcheck --entrypoint /usr/bin/ldd "$IMAGE" /usr/local/bin/$bin)
  if grep -q "not found" <<<"$libs"; then
    echo "$libs"
    fail "$bin: unresolved shared libraries in the runtime image"
  fi
done
log "ldd clean for qs_server and qsolve; user $user"
# The runtime stage carries no compiler and no -dev packages.
if "${PODMAN[@]}" run --rm --network none --no-healthcheck --entrypoint /bin/sh "$IMAGE" -c 'command -v c++ || ls /usr/include/grpcpp' \
  >/dev/null 2>&1; then
  fail "runtime image contains build tools or headers"
fi

# --- run ----------------------------------------------------------------------------------------------
GRPC_PORT=$(free_port)
METRICS_PORT=$(free_port)
while [[ $METRICS_PORT == "$GRPC_PORT" ]]; do METRICS_PORT=$(free_port); done
# slirp4netns forwards the ports from 127.0.0.1 without a host bridge or iptables rules. The image's
# HEALTHCHECK runs on demand below (podman would schedule it with systemd timers, and there may be no
# systemd).
CONTAINER=qs-container-test-$$
log "podman run on 127.0.0.1:$GRPC_PORT (gRPC), 127.0.0.1:$METRICS_PORT (metrics)"
"${PODMAN[@]}" run -d --name "$CONTAINER" --network slirp4netns --read-only --health-interval=disable \
  -p "127.0.0.1:$GRPC_PORT:50051" -p "127.0.0.1:$METRICS_PORT:9464" \
  "$IMAGE" --address=0.0.0.0:50051 --metrics_address=0.0.0.0:9464 --shutdown_grace_seconds=20 >/dev/null

for _ in $(seq 1 300); do
  "$QSOLVE" health --addr "127.0.0.1:$GRPC_PORT" >/dev/null 2>&1 && break
  sleep 0.1
done
"$QSOLVE" health --addr "127.0.0.1:$GRPC_PORT" || { "${PODMAN[@]}" logs "$CONTAINER"; fail "health"; }
"${PODMAN[@]}" healthcheck run "$CONTAINER" >/dev/null || fail "the image's HEALTHCHECK reports unhealthy"
uid=$("${PODMAN[@]}" exec "$CONTAINER" /usr/bin/id -u)
[[ $uid == 65534 ]] || fail "server runs as uid $uid"

# The hard New York Times Sudoku of 2024-01-08 ([Mücke 2024]).
NYT='.......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8.....9...4..65..'
log "solve through the container"
out=$("$QSOLVE" solve --addr "127.0.0.1:$GRPC_PORT" --kind sudoku --input "$NYT" --reads 3000 --sweeps 3000 \
  --seed 2024 --stop_at_first_valid --json --deadline 300)
last=$(tail -n 1 <<<"$out")
grep -q '"valid":true' <<<"$last" || { echo "$last"; fail "no valid Sudoku from the container"; }
grep -q '"energy":-81' <<<"$last" || { echo "$last"; fail "valid board without the ground energy -81"; }
log "solved: $(grep -o '"board":\[[^]]*\]' <<<"$last")"

metrics=$(curl -sf "http://127.0.0.1:$METRICS_PORT/metrics") || fail "GET /metrics"
grep '^qs_requests_total{' <<<"$metrics" | grep 'method="Solve"' | grep 'code="OK"' | grep -q ' 1$' ||
  { grep '^qs_requests_total' <<<"$metrics"; fail "/metrics lacks the solve in qs_requests_total"; }
grep -q '^qs_request_duration_seconds_count{' <<<"$metrics" || fail "/metrics lacks qs_request_duration_seconds"
log "/metrics counts the solve"

# --- graceful stop ------------------------------------------------------------------------------------
# SIGTERM while a solve runs: the server turns NOT_SERVING, lets the solve finish within the grace period
# and exits 0 on its own, before podman's 60 s would escalate to SIGKILL.
"$QSOLVE" solve --addr "127.0.0.1:$GRPC_PORT" --kind sudoku --input "$NYT" --reads 200 --sweeps 2000 \
  --seed 7 --json --deadline 120 >"$WORK/inflight.json" 2>"$WORK/inflight.err" &
inflight=$!
sleep 1
log "podman stop (SIGTERM)"
stop_start=$(date +%s)
"${PODMAN[@]}" stop -t 60 "$CONTAINER" >/dev/null
stop_secs=$(($(date +%s) - stop_start))
wait "$inflight" || { cat "$WORK/inflight.err"; fail "the solve running at SIGTERM did not finish"; }
grep -q '"termination"' <(tail -n 1 "$WORK/inflight.json") || fail "the in-flight solve has no summary"
code=$("${PODMAN[@]}" inspect --format '{{.State.ExitCode}}' "$CONTAINER")
logs=$("${PODMAN[@]}" logs "$CONTAINER" 2>&1)
[[ $code == 0 ]] || { echo "$logs" | tail -20; fail "server exit code $code after SIGTERM (137: killed)"; }
grep -q "draining" <<<"$logs" || fail "no drain in the server log"
grep -q "stopped" <<<"$logs" || fail "no clean stop in the server log"
log "stopped by SIGTERM in ${stop_secs}s, exit 0, the in-flight solve finished"
"${PODMAN[@]}" rm "$CONTAINER" >/dev/null
CONTAINER=""

# --- compose: the server with a real Prometheus scraping it ------------------------------------------
# deploy/compose.yaml as a user runs it, with this image under the name the file gives it and the
# Prometheus image of deploy/prometheus built on the same base.
log "podman build (Prometheus image of deploy/compose.yaml)"
"${PODMAN[@]}" tag "$IMAGE" localhost/qs-server:latest
"${PODMAN[@]}" build --pull=never --format docker --network host -t localhost/qs-prometheus:latest \
  "$ROOT/deploy/prometheus" >"$WORK/prometheus-build.log" 2>&1 ||
  { tail -40 "$WORK/prometheus-build.log"; fail "podman build of deploy/prometheus"; }
QS_GRPC_PORT=$(free_port)
QS_METRICS_PORT=$(free_port)
QS_PROMETHEUS_PORT=$(free_port)
while [[ $QS_METRICS_PORT == "$QS_GRPC_PORT" || $QS_PROMETHEUS_PORT == "$QS_GRPC_PORT" ||
  $QS_PROMETHEUS_PORT == "$QS_METRICS_PORT" ]]; do
  QS_METRICS_PORT=$(free_port)
  QS_PROMETHEUS_PORT=$(free_port)
done
COMPOSE_PROJECT=qs-compose-test-$$
log "podman-compose up: gRPC 127.0.0.1:$QS_GRPC_PORT, metrics :$QS_METRICS_PORT, Prometheus :$QS_PROMETHEUS_PORT"
compose up -d >"$WORK/compose-up.log" 2>&1 || { tail -40 "$WORK/compose-up.log"; fail "podman-compose up"; }

for _ in $(seq 1 300); do
  "$QSOLVE" health --addr "127.0.0.1:$QS_GRPC_PORT" >/dev/null 2>&1 && break
  sleep 0.1
done
"$QSOLVE" health --addr "127.0.0.1:$QS_GRPC_PORT" ||
  { compose logs 2>&1 | tail -40; fail "health of the compose service"; }
out=$("$QSOLVE" solve --addr "127.0.0.1:$QS_GRPC_PORT" --kind sudoku --input "$NYT" --reads 3000 --sweeps 3000 \
  --seed 2024 --stop_at_first_valid --json --deadline 300)
grep -q '"valid":true' <(tail -n 1 <<<"$out") || { tail -n 1 <<<"$out"; fail "no valid Sudoku from compose"; }
log "solved through the compose service"

# Prometheus scrapes every 5 s (deploy/prometheus/prometheus.yml); allow a minute for its start and the
# first scrapes that include the solve.
PROM=http://127.0.0.1:$QS_PROMETHEUS_PORT
scraped=""
for _ in $(seq 1 120); do
  scraped=$(curl -sf --get "$PROM/api/v1/query" \
    --data-urlencode 'query=sum(qs_requests_total{method="Solve",code="OK"})' 2>/dev/null || true)
  grep -q '"value":\[[0-9.]*,"1"\]' <<<"$scraped" && break
  sleep 0.5
done
grep -q '"value":\[[0-9.]*,"1"\]' <<<"$scraped" ||
  { echo "$scraped"; compose logs 2>&1 | tail -40; fail "Prometheus does not show the solve"; }
targets=$(curl -sf "$PROM/api/v1/targets") || fail "GET $PROM/api/v1/targets"
grep -q '"health":"up"' <<<"$targets" || { echo "$targets"; fail "the qs-server target is not up"; }
grep -q '"scrapeUrl":"http://qs-server:9464/metrics"' <<<"$targets" ||
  { echo "$targets"; fail "Prometheus does not scrape qs-server by its service name"; }
rules=$(curl -sf "$PROM/api/v1/rules") || fail "GET $PROM/api/v1/rules"
grep -q '"type":"alerting"' <<<"$rules" || { echo "$rules" | head -c 2000; fail "no alert rules loaded"; }
log "Prometheus scrapes qs-server:9464 (target up), counts the solve, and has the alert rules"

compose down -v >"$WORK/compose-down.log" 2>&1 || { tail -20 "$WORK/compose-down.log"; fail "podman-compose down"; }
"${PODMAN[@]}" network rm -f "${COMPOSE_PROJECT}_default" >/dev/null 2>&1 || true
COMPOSE_PROJECT=""
log "podman-compose down"
