#!/usr/bin/env bash
# Fails when protos/generated is not exactly what proto-loader-gen-types makes from protos/.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx --no-install proto-loader-gen-types --longs=Number --enums=String --defaults --oneofs --grpcLib=@grpc/grpc-js \
  -I protos --outDir="$tmp" campaign/v1/campaign.proto delivery/v1/audience.proto >/dev/null
if ! diff -r "$tmp" protos/generated; then
  echo "protos/generated is stale: run 'npm run gen:proto' and commit the result" >&2
  exit 1
fi
echo "protos/generated matches protos/"
