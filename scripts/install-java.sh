#!/usr/bin/env bash
# Installs what the Java client check (test/e2e/generated-java-client.test.ts) needs: a JDK 17 or
# newer and Apache Maven, from Debian (default-jdk-headless, maven), never from anywhere else.
# Maven then fetches the generator, its plugins and the client's dependencies from Maven Central
# into ~/.m2 on the first build (the test builds test/clients/java itself).
# Run by `npm test` before the suites. Idempotent: does nothing when `java` (17+), `javac` and
# `mvn` are there.
set -euo pipefail
source "$(dirname "$0")/debian-packages.sh"
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
require_debian_packages install-java "the Java client check (a JDK 17+ and Apache Maven 3.8+)" "${missing[@]}"
[ "$(java_major)" -ge 17 ] || { echo "install-java: the installed java is older than 17 ($(java -version 2>&1 | head -1))." >&2; exit 1; }
echo "install-java: installed: $(versions)"
