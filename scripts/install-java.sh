#!/usr/bin/env bash
# Installs what the Java client check (test/e2e/generated-java-client.test.ts) needs: a JDK 17 or
# newer and Apache Maven, from Debian (default-jdk-headless, maven), never from anywhere else.
# Maven then fetches the generator, its plugins and the client's dependencies from Maven Central
# into ~/.m2 on the first build (the test builds test/clients/java itself).
# Idempotent: does nothing when `java` (17+), `javac` and `mvn` are there.
set -euo pipefail
java_major() {
  # `java -version` prints e.g. `openjdk version "17.0.15" 2025-04-15` (or "1.8.0_…" for Java 8).
  local v
  v=$(java -version 2>&1 | sed -n 's/.* version "\([0-9][0-9.]*\).*/\1/p' | head -1)
  v=${v#1.}
  echo "${v%%.*}"
}
missing=()
if ! command -v java > /dev/null || ! command -v javac > /dev/null || [ "$(java_major 2>/dev/null || echo 0)" -lt 17 ]; then
  missing+=(default-jdk-headless)
fi
command -v mvn > /dev/null || missing+=(maven)
versions() {
  echo "$(java -version 2>&1 | head -1), $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
}
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-java: present: $(versions)"
  exit 0
fi
# Run by `npm test` before the suites: when it cannot install, it stops the tests with a message
# saying what to install, never skips the Java client check silently.
fail() {
  echo "install-java: $1" >&2
  echo "install-java: the Java client check needs a JDK 17+ and Apache Maven 3.8+ (Debian packages ${missing[*]}); install them and run the tests again." >&2
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
echo "install-java: missing ${missing[*]}; running apt-get update and apt-get install -y --no-install-recommends ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO "${APT[@]}" update || fail "apt-get update failed."
$SUDO "${APT[@]}" install -y --no-install-recommends "${missing[@]}" || fail "apt-get install failed."
[ "$(java_major)" -ge 17 ] || fail "the installed java is older than 17 ($(java -version 2>&1 | head -1))."
echo "install-java: installed: $(versions)"
