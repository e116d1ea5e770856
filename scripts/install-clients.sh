#!/usr/bin/env bash
# Installs test/clients' own packages (openapi-typescript, openapi-fetch, TypeScript 5), which
# test/e2e/generated-client.test.ts uses to generate a client from the OpenAPI document. They
# live in a package of their own because openapi-typescript needs typescript@5 as a peer while
# the repository uses TypeScript 7 (tsgo): installed together they do not resolve.
# Idempotent: runs `npm ci` only when node_modules is missing or its lockfile changed since.
set -euo pipefail
cd "$(dirname "$0")/../test/clients"
stamp=node_modules/.package-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
fi
