#!/usr/bin/env bash
# The test command: installs what is missing (apt-get, idempotent), builds everything and runs every test
# (unit, integration, end-to-end) with ctest. Extra arguments go to ctest (e.g. -L unit, -R Sudoku).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" "$@"
