#!/usr/bin/env bash
# Checks that `python3` can run the Python client OpenAPI Generator makes (generator `python`,
# test/e2e/generated-cli-clients.test.ts): Python 3.9+ with pydantic 2.11+, urllib3 2.7+ (below 3),
# python-dateutil and typing-extensions, the generated package's own requirements. Debian
# bookworm's python3-pydantic is 1.10, too old, so when they are missing it asks pip (which needs
# the Python package index) and otherwise stops the tests saying what to install.
# Run by `npm test` before the suites. Idempotent: does nothing when they are there.
set -euo pipefail
check() {
  python3 - <<'PY'
import sys
from importlib.metadata import version
assert sys.version_info >= (3, 9), "Python 3.9 or newer"
def parts(name):
    return tuple(int(p) for p in version(name).split(".")[:2])
assert parts("pydantic") >= (2, 11), "pydantic 2.11 or newer"
assert (2, 7) <= parts("urllib3") < (3, 0), "urllib3 2.7 or newer, below 3"
version("python-dateutil"); version("typing_extensions")
print(f"python {sys.version.split()[0]}, pydantic {version('pydantic')}, urllib3 {version('urllib3')}")
PY
}
if found=$(check 2>/dev/null); then
  echo "install-python: present: $found"
  exit 0
fi
command -v python3 > /dev/null || { echo "install-python: python3 not found: the Python client check needs Python 3.9+ (Debian: apt-get install python3 python3-pip)." >&2; exit 1; }
if ! python3 -m pip install --quiet 'pydantic>=2.11,<3' 'urllib3>=2.7,<3' 'python-dateutil>=2.8.2' 'typing-extensions>=4.7.1'; then
  echo "install-python: could not install the Python client's packages with pip. Install pydantic 2.11+, urllib3 2.7+, python-dateutil and typing-extensions for \`python3\` ($(command -v python3))." >&2
  exit 1
fi
echo "install-python: installed: $(check)"
