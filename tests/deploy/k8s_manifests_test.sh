#!/usr/bin/env bash
# deploy/k8s passes the offline checks (deploy/k8s/validate: typed schemas of every object, then probes,
# security context, termination grace against --shutdown_grace_seconds, selectors, ports, scrape
# config), as files and as `kubectl kustomize` renders them where a kubectl exists; and the checks catch
# broken variants of the real manifests, so a pass means something.
set -euo pipefail
cd "$(dirname "$0")/../.."
validate=deploy/k8s/validate/validate.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== manifests as files"
$validate

if command -v kubectl >/dev/null 2>&1; then
  echo "== kubectl kustomize deploy/k8s"
  kubectl kustomize deploy/k8s >"$work/rendered.yaml"
  $validate "$work/rendered.yaml"
  grep -q '^  namespace: qs$' "$work/rendered.yaml" || { echo "FAIL: kustomize did not set the namespace"; exit 1; }
  # `set image --local` decodes the Deployment into typed Go objects (catches type errors offline).
  kubectl set image --local -f deploy/k8s/deployment.yaml qs-server=registry.example/qs-server:1 -o yaml \
    >"$work/set-image.yaml"
  grep -q 'image: registry.example/qs-server:1' "$work/set-image.yaml"
else
  echo "== kubectl not installed: kustomize rendering not checked"
fi

# Each variant breaks one thing and must be rejected with the matching message.
expect_rejected() {
  local name=$1 message=$2 dir=$3
  if out=$($validate "$dir"/*.yaml 2>&1); then
    echo "FAIL: variant '$name' passed the checks"; exit 1
  fi
  grep -q -- "$message" <<<"$out" || { echo "$out"; echo "FAIL: variant '$name' rejected for another reason"; exit 1; }
  echo "rejected as expected: $name"
}
variant() {  # variant NAME SED-EXPRESSION: the real manifests with one edit to the Deployment or flags
  local dir="$work/$1"
  mkdir -p "$dir"
  cp deploy/k8s/*.yaml "$dir/"
  sed -i "$2" "$dir/deployment.yaml" "$dir/configmap.yaml"
  echo "$dir"
}
expect_rejected "replicas as a string" "replicas must be integer" "$(variant types 's/^  replicas: 2$/  replicas: two/')"
expect_rejected "grace shorter than the drain" "terminationGracePeriodSeconds 35 <" \
  "$(variant grace 's/--shutdown_grace_seconds=20/--shutdown_grace_seconds=40/')"
expect_rejected "writable root filesystem" "readOnlyRootFilesystem is not true" \
  "$(variant rootfs 's/readOnlyRootFilesystem: true/readOnlyRootFilesystem: false/')"
expect_rejected "readiness on the wrong health service" "readinessProbe asks health service" \
  "$(variant probe 's/service: qs.v1.Solver/service: qs.v1.Nope/')"
expect_rejected "gRPC port not the flag's" "grpc port 50052" "$(variant port 's/containerPort: 50051/containerPort: 50052/')"
echo "k8s manifests: all checks passed"
