#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/browser), which drive it with
# playwright-core; no browser is ever downloaded from anywhere else. Idempotent: does nothing
# when /usr/bin/chromium is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "install-chromium: /usr/bin/chromium present ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-chromium: /usr/bin/chromium missing; running apt-get update and apt-get install -y --no-install-recommends chromium"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium
echo "install-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
