#!/usr/bin/env bash
# Generates the Python stubs of the qs.v1 API into clients/python/gen/ with Debian's protoc and
# grpc_python_plugin (protobuf-compiler, protobuf-compiler-grpc); python3-grpc-tools' bundled protoc is too
# old for proto3 `optional` fields.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/gen"
protoc -I"$root/proto" --python_out="$here/gen" --grpc_python_out="$here/gen" \
  --plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin "$root"/proto/qs/v1/*.proto
touch "$here/gen/__init__.py" "$here/gen/qs/__init__.py" "$here/gen/qs/v1/__init__.py"
