#!/usr/bin/env bash
# Installs promtool (Prometheus' rule checker and rule unit-test runner) from Debian's
# `prometheus` package, which ships it. `npm run check:alerts` (part of `npm test`) runs it
# first: the alert rules in deploy/prometheus/ are checked and their unit tests run by promtool.
# Idempotent: does nothing when promtool is there. On a machine run by systemd the package also
# enables its Prometheus server (port 9090); `systemctl disable --now prometheus` stops it.
set -euo pipefail
source "$(dirname "$0")/debian-packages.sh"
if command -v promtool > /dev/null; then
  echo "install-promtool: present: $(promtool --version 2>&1 | head -1)"
  exit 0
fi
require_debian_packages install-promtool "the alert-rule check" prometheus
command -v promtool > /dev/null || { echo "install-promtool: the prometheus package was installed but promtool is not on PATH." >&2; exit 1; }
echo "install-promtool: installed: $(promtool --version 2>&1 | head -1)"
