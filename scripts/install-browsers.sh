#!/usr/bin/env bash
# Installs the browsers of the browser suite (test/browser) from Debian, never from anywhere else:
# - chromium, driven by playwright-core, with dbus-daemon: the Chromium suites run a private D-Bus
#   session bus with a stand-in desktop notification server, through which Chromium shows
#   notifications and receives their clicks; one of them points Chromium's GCM client at a local
#   FCM (command-line switches), so that Chromium itself receives and decrypts our pushes;
# - firefox-esr, driven over WebDriver BiDi by puppeteer-core, with its push service pointed at a
#   local server so that Firefox itself receives and decrypts our pushes; with libnotify4, through
#   which Firefox shows notifications (with their buttons) on that stand-in desktop when asked to.
# Run by `npm test` (and `npm run test:browser`) before the suites. Idempotent: does nothing when
# all of them are there.
set -euo pipefail
source "$(dirname "$0")/debian-packages.sh"
declare -A binary=([chromium]=/usr/bin/chromium [dbus-daemon]=/usr/bin/dbus-daemon [firefox-esr]=/usr/bin/firefox-esr)
present() {
  case "$1" in
    # A library, found where the dynamic linker finds it (any architecture).
    libnotify4) /sbin/ldconfig -p 2>/dev/null | grep -q 'libnotify\.so\.4 ' ;;
    *) [ -x "${binary[$1]}" ] ;;
  esac
}
missing=()
for package in chromium dbus-daemon firefox-esr libnotify4; do
  present "$package" || missing+=("$package")
done
versions() {
  echo "$(/usr/bin/chromium --version 2>/dev/null || echo 'chromium: version unknown'), $(/usr/bin/firefox-esr --version 2>/dev/null || echo 'firefox-esr: version unknown'), $(/usr/bin/dbus-daemon --version 2>/dev/null | head -1 || echo 'dbus-daemon')"
}
if [ ${#missing[@]} -gt 0 ]; then
  require_debian_packages install-browsers "the browser suite" "${missing[@]}"
  echo "install-browsers: installed: $(versions)"
else
  echo "install-browsers: present: $(versions)"
fi
