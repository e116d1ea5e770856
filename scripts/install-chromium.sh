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
# Run by `npm test` (and `npm run test:browser`) before the suites: when it cannot install, it
# stops the tests with a message saying what to install, never skips the browser suite silently.
fail() {
  echo "install-chromium: $1" >&2
  echo "install-chromium: the browser suite needs ${missing[*]} (Debian packages chromium and dbus-daemon); install them and run the tests again." >&2
  exit 1
}
command -v apt-get > /dev/null || fail "apt-get not found: this is not a Debian-based machine, so the packages cannot be installed here."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo > /dev/null || fail "not root and no sudo: cannot run apt-get."
  SUDO="sudo"
fi
echo "install-chromium: missing ${missing[*]}; running apt-get update and apt-get install -y --no-install-recommends ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update || fail "apt-get update failed."
$SUDO apt-get install -y --no-install-recommends "${missing[@]}" || fail "apt-get install failed."
echo "install-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium), $(/usr/bin/dbus-daemon --version 2>/dev/null | head -1 || echo dbus-daemon)"
