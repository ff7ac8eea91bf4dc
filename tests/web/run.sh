#!/usr/bin/env bash
# The playground in a real browser: installs playwright-core from package-lock.json on first use
# (npm ci; again when the lock file changes; never a browser download) and runs
# playground_test.mjs against this build's qs_server and Debian's chromium
# (scripts/install-deps.sh installs it). QS_BINARY_DIR names the build tree (ctest sets it);
# screenshots go to $QS_BINARY_DIR/tests/web/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
stamp="$here/node_modules/.package-lock.json"
if [[ ! -f $stamp || $here/package-lock.json -nt $stamp ]]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
: "${QS_BINARY_DIR:?QS_BINARY_DIR must name the build tree}"
export QS_SOURCE_DIR="$here/../.."
exec node --test --test-reporter=spec "$here/playground_test.mjs"
