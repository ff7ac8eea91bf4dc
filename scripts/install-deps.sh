#!/usr/bin/env bash
# Installs every Debian package the project needs to build, test and run. Idempotent: packages already
# installed are skipped, and apt-get update runs only when something is missing.
#   scripts/install-deps.sh               build + test packages (what scripts/test.sh needs)
#   scripts/install-deps.sh --build-only  only what building needs (the Dockerfile's build stage)
#   scripts/install-deps.sh --containers  what deploy/container-test.sh needs (podman, debootstrap)
set -euo pipefail

BUILD_PACKAGES=(
  build-essential cmake pkg-config git ca-certificates curl clang-format
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libabsl-dev
  libspdlog-dev prometheus-cpp-dev libcurl4-openssl-dev nlohmann-json3-dev libcpp-httplib-dev grpc-proto
  libgtest-dev libgmock-dev libbenchmark-dev
  libcadical-dev libbdd-dev libnlopt-cxx-dev
)
# prometheus: the real server scraping qs_server in an integration test (and promtool for the alert
# rules); clang-14 + libclang-rt-14-dev: libFuzzer targets (g++ has no -fsanitize=fuzzer); llvm-14:
# llvm-symbolizer for readable sanitizer stacks; chromium: the playground's browser test (tests/web). The Python package (clients/python) installs into a
# virtual environment over Debian's python3-grpcio, python3-protobuf and python3-numpy (python3-venv,
# python3-setuptools and python3-wheel build it); its tests use python3-pytest, and python3-pandas and
# python3-tqdm for the data-frame and progress-bar paths; python3-matplotlib draws the benchmarks' plots
# (tests/bench). jq: the documentation's examples pipe JSON
# through it (tests/docs). ccache: a rebuild of any test stage's tree (in a new
# clone too) takes the objects an earlier build compiled from the same source (CMakeLists.txt uses it).
TEST_PACKAGES=(
  python3-grpcio python3-protobuf prometheus sgt-puzzles
  python3-numpy python3-pytest python3-venv python3-setuptools python3-wheel python3-pandas python3-tqdm
  python3-matplotlib
  coinor-cbc
  clang-14 libclang-rt-14-dev llvm-14 chromium ccache jq
)
# runc: crun refuses this machine's hybrid cgroup layout; slirp4netns: port forwarding without a host
# bridge or iptables rules; podman-compose and the dnsname CNI plugin (service names) for
# deploy/compose.yaml.
CONTAINER_PACKAGES=(podman debootstrap runc slirp4netns uidmap curl ca-certificates podman-compose
  golang-github-containernetworking-plugin-dnsname)

case "${1:-}" in
  --build-only) want=("${BUILD_PACKAGES[@]}") ;;
  --containers) want=("${CONTAINER_PACKAGES[@]}") ;;
  "") want=("${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}") ;;
  *) echo "usage: $0 [--build-only|--containers]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
# The offline Kubernetes manifest check and the browser test run on Node.js with npm packages
# (deploy/k8s/validate, tests/web); any
# Node.js 18+ with npm will do, Debian's nodejs + npm when there is none.
if [[ -z "${1:-}" ]] && ! { command -v node && command -v npm; } >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#want[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
