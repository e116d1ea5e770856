#!/usr/bin/env bash
# Installs what the Go client check (test/e2e/generated-cli-clients.test.ts) needs: Debian's Go
# (golang-go) and the one library the generated client imports, gopkg.in/validator.v2
# (golang-gopkg-validator.v2-dev, under /usr/share/gocode), never from anywhere else: the test
# builds in GOPATH mode, downloading no module.
# Run by `npm test` before the suites. Idempotent: does nothing when both are there.
set -euo pipefail
source "$(dirname "$0")/debian-packages.sh"
missing=()
command -v go > /dev/null || missing+=(golang-go)
[ -d /usr/share/gocode/src/gopkg.in/validator.v2 ] || missing+=(golang-gopkg-validator.v2-dev)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-go: present: $(go version)"
  exit 0
fi
require_debian_packages install-go "the Go client check (Go and gopkg.in/validator.v2)" "${missing[@]}"
echo "install-go: installed: $(go version)"
