#!/usr/bin/env bash
# Installs promtool (Prometheus' rule checker and rule unit-test runner) from Debian's
# `prometheus` package, which ships it, never from anywhere else. `npm run check:alerts` (part
# of `npm test`) runs it first: the alert rules in deploy/prometheus/ are checked and their unit
# tests run by promtool, so when it cannot be installed the tests stop with a message saying
# what to install; they never skip the check silently.
# Idempotent: does nothing when promtool is there. On a machine run by systemd the package also
# enables its Prometheus server (port 9090); `systemctl disable --now prometheus` stops it.
set -euo pipefail
if command -v promtool > /dev/null; then
  echo "install-promtool: present: $(promtool --version 2>&1 | head -1)"
  exit 0
fi
fail() {
  echo "install-promtool: $1" >&2
  echo "install-promtool: the alert-rule checks need promtool (Debian package prometheus); install it and run the tests again." >&2
  exit 1
}
command -v apt-get > /dev/null || fail "apt-get not found: this is not a Debian-based machine, so the package cannot be installed here."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo > /dev/null || fail "not root and no sudo: cannot run apt-get."
  SUDO="sudo"
fi
# Another apt-get (unattended upgrades, the browser install) may hold the dpkg lock: wait for it
# rather than fail.
APT=(apt-get -o DPkg::Lock::Timeout=600)
echo "install-promtool: missing; running apt-get update and apt-get install -y --no-install-recommends prometheus"
export DEBIAN_FRONTEND=noninteractive
$SUDO "${APT[@]}" update || fail "apt-get update failed."
$SUDO "${APT[@]}" install -y --no-install-recommends prometheus || fail "apt-get install failed."
command -v promtool > /dev/null || fail "the prometheus package was installed but promtool is not on PATH."
echo "install-promtool: installed: $(promtool --version 2>&1 | head -1)"
