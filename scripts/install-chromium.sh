#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/browser), which drive it with
# playwright-core; no browser is ever downloaded from anywhere else. Also Debian's dbus-daemon:
# the tests run a private D-Bus session bus with a stand-in desktop notification server, through
# which Chromium shows notifications and receives their clicks. Idempotent: does nothing when
# /usr/bin/chromium and /usr/bin/dbus-daemon are already there.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/dbus-daemon ] || missing+=(dbus-daemon)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-chromium: /usr/bin/chromium present ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown')), /usr/bin/dbus-daemon present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-chromium: missing ${missing[*]}; running apt-get update and apt-get install -y --no-install-recommends ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium), $(/usr/bin/dbus-daemon --version 2>/dev/null | head -1 || echo dbus-daemon)"
