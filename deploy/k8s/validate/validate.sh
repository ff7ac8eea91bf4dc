#!/usr/bin/env bash
# Validates Kubernetes manifests offline (validate.js): installs the pinned npm packages of
# package-lock.json into this directory's node_modules on first use (npm ci; again when the lock file
# changes), then checks the given files, or deploy/k8s/*.yaml when none are given.
# Usage: deploy/k8s/validate/validate.sh [FILE.yaml|-]...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stamp="$here/node_modules/.package-lock.json"
if [[ ! -f $stamp || $here/package-lock.json -nt $stamp ]]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
if (($# == 0)); then set -- "$here"/../*.yaml; fi
exec node "$here/validate.js" "$@"
