#!/usr/bin/env bash
# Configures and builds everything (server, client, tests, benchmarks) in one CMake tree, ./build by
# default. Usage: scripts/build.sh [extra cmake -D options]. BUILD_DIR and JOBS override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "$@" >/dev/null
cmake --build "$BUILD_DIR" -j"$JOBS"
