#!/usr/bin/env bash
# Installs every Debian package the project needs to build, test and run. Idempotent: packages already
# installed are skipped, and apt-get update runs only when something is missing.
set -euo pipefail

BUILD_PACKAGES=(
  build-essential cmake pkg-config git ca-certificates curl clang-format
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libabsl-dev
  libspdlog-dev prometheus-cpp-dev libcurl4-openssl-dev nlohmann-json3-dev libcpp-httplib-dev grpc-proto
  libgtest-dev libgmock-dev libbenchmark-dev
  libcadical-dev libbdd-dev
)
TEST_PACKAGES=(
  python3-grpcio python3-grpc-tools python3-protobuf prometheus sgt-puzzles
)

want=("${BUILD_PACKAGES[@]}")
if [[ "${1:-}" != "--build-only" ]]; then want+=("${TEST_PACKAGES[@]}"); fi

missing=()
for pkg in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

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
