#!/usr/bin/env bash
# Installs the browsers of the browser suite (test/browser) from Debian, never from anywhere else:
# - chromium, driven by playwright-core, with dbus-daemon: the Chromium suite runs a private D-Bus
#   session bus with a stand-in desktop notification server, through which Chromium shows
#   notifications and receives their clicks;
# - firefox-esr, driven over WebDriver BiDi by puppeteer-core, with its push service pointed at a
#   local server so that Firefox itself receives and decrypts our pushes.
# Idempotent: does nothing when all of them are there.
set -euo pipefail
declare -A binary=([chromium]=/usr/bin/chromium [dbus-daemon]=/usr/bin/dbus-daemon [firefox-esr]=/usr/bin/firefox-esr)
missing=()
for package in chromium dbus-daemon firefox-esr; do
  [ -x "${binary[$package]}" ] || missing+=("$package")
done
versions() {
  echo "$(/usr/bin/chromium --version 2>/dev/null || echo 'chromium: version unknown'), $(/usr/bin/firefox-esr --version 2>/dev/null || echo 'firefox-esr: version unknown'), $(/usr/bin/dbus-daemon --version 2>/dev/null | head -1 || echo 'dbus-daemon')"
}
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-browsers: present: $(versions)"
  exit 0
fi
# Run by `npm test` (and `npm run test:browser`) before the suites: when it cannot install, it
# stops the tests with a message saying what to install, never skips the browser suite silently.
fail() {
  echo "install-browsers: $1" >&2
  echo "install-browsers: the browser suite needs ${missing[*]} (Debian packages chromium, dbus-daemon and firefox-esr); install them and run the tests again." >&2
  exit 1
}
command -v apt-get > /dev/null || fail "apt-get not found: this is not a Debian-based machine, so the packages cannot be installed here."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo > /dev/null || fail "not root and no sudo: cannot run apt-get."
  SUDO="sudo"
fi
# Another apt-get (unattended upgrades, a second install) may hold the dpkg lock: wait for it
# rather than fail.
APT=(apt-get -o DPkg::Lock::Timeout=600)
echo "install-browsers: missing ${missing[*]}; running apt-get update and apt-get install -y --no-install-recommends ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO "${APT[@]}" update || fail "apt-get update failed."
$SUDO "${APT[@]}" install -y --no-install-recommends "${missing[@]}" || fail "apt-get install failed."
echo "install-browsers: installed: $(versions)"
