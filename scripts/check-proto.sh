#!/usr/bin/env bash
# Fails when protos/generated is not exactly what proto-loader-gen-types makes from protos/
# (every .proto file there, as `npm run gen:proto` takes them).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx --no-install proto-loader-gen-types --longs=Number --enums=String --defaults --oneofs --grpcLib=@grpc/grpc-js \
  -I protos --outDir="$tmp" $(cd protos && find . -name '*.proto' -not -path './generated/*' | sort) >/dev/null
if ! diff -r "$tmp" protos/generated; then
  echo "protos/generated is stale: run 'npm run gen:proto' and commit the result" >&2
  exit 1
fi
echo "protos/generated matches protos/"
