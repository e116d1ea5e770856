#!/usr/bin/env bash
# Fetches OpenAPI Generator's CLI jar (org.openapitools:openapi-generator-cli, the version pinned in
# test/clients/package.json's config.openapiGeneratorCli) from Maven Central into ~/.m2 with Maven,
# for test/e2e/generated-cli-clients.test.ts. Needs Java and Maven (`npm run java`, which npm test
# runs first). Run by `npm test` before the suites. Idempotent: does nothing when the jar is there.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*"openapiGeneratorCli": *"\([^"]*\)".*/\1/p' test/clients/package.json)
[ -n "$version" ] || { echo "install-openapi-generator: no config.openapiGeneratorCli in test/clients/package.json" >&2; exit 1; }
jar="$HOME/.m2/repository/org/openapitools/openapi-generator-cli/$version/openapi-generator-cli-$version.jar"
if [ -f "$jar" ]; then
  echo "install-openapi-generator: present: openapi-generator-cli $version"
  exit 0
fi
command -v mvn > /dev/null || { echo "install-openapi-generator: mvn not found: run \`npm run java\` first (a JDK and Maven)." >&2; exit 1; }
# The dependency plugin is pinned like every plugin of test/clients/java.
mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
  -Dartifact="org.openapitools:openapi-generator-cli:$version" -Dtransitive=false
[ -f "$jar" ] || { echo "install-openapi-generator: Maven did not leave $jar" >&2; exit 1; }
echo "install-openapi-generator: installed: openapi-generator-cli $version"
