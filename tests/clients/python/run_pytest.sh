#!/usr/bin/env bash
# Runs the Python package's tests (tests/clients/python/test_*.py) against this build tree's qs_server:
# installs clients/python into a fresh virtual environment over Debian's python3-grpcio, python3-protobuf,
# python3-numpy and python3-pytest exactly as docs/python.md says, then runs pytest. pytest's exit code 5
# (no test ran) is a failure; -rs lists each skipped test with its reason, and those lines ("SKIPPED [N]
# file:line: reason", N test cases) are also written to BINARY_DIR/Testing/pytest-skipped.txt (empty when
# none skipped), where scripts/test.sh counts them.
#   tests/clients/python/run_pytest.sh BINARY_DIR [pytest arguments]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
binary_dir="$(cd "${1:?usage: $0 BINARY_DIR [pytest arguments]}" && pwd)"
shift
venv="$binary_dir/python-venv"
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-deps --no-build-isolation "$root/clients/python"
cd "$root"
skips="$binary_dir/Testing/pytest-skipped.txt"
mkdir -p "$binary_dir/Testing"
output=$(mktemp)
trap 'rm -f "$output"' EXIT
status=0
QS_BINARY_DIR="$binary_dir" "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider "$here" "$@" |
  tee "$output" || status=$?
grep -E '^SKIPPED \[[0-9]+\] ' "$output" >"$skips" || true
if ((status == 5)); then
  echo "run_pytest: no test ran" >&2
  exit 1
fi
exit "$status"
