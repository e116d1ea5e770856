#!/usr/bin/env bash
# Fails when packages/contracts/src/generated is not exactly what proto-loader-gen-types makes
# from packages/contracts/protos (every .proto file there, as `npm run gen:proto` takes them).
set -euo pipefail
cd "$(dirname "$0")/.."
protos=packages/contracts/protos
generated=packages/contracts/src/generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx --no-install proto-loader-gen-types --longs=Number --enums=String --defaults --oneofs --grpcLib=@grpc/grpc-js \
  -I "$protos" --outDir="$tmp" $(cd "$protos" && find . -name '*.proto' | sort) >/dev/null
if ! diff -r "$tmp" "$generated"; then
  echo "$generated is stale: run 'npm run gen:proto' and commit the result" >&2
  exit 1
fi
echo "$generated matches $protos"
