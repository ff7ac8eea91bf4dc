#!/usr/bin/env bash
# The OpenAPI document of a running server, checked by a real validator: installs
# @apidevtools/swagger-parser from package-lock.json on first use (npm ci; again when the lock file
# changes) and runs openapi_test.mjs against this build's qs_server. QS_BINARY_DIR names the build tree
# (ctest sets it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stamp="$here/node_modules/.package-lock.json"
if [[ ! -f $stamp || $here/package-lock.json -nt $stamp ]]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
: "${QS_BINARY_DIR:?QS_BINARY_DIR must name the build tree}"
exec node --test --test-reporter=spec "$here/openapi_test.mjs"
