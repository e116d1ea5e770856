# Sourced by the scripts that install the tests' Debian packages (install-browsers.sh,
# install-promtool.sh, install-java.sh, install-go.sh): one way to install from Debian, never from anywhere else.
# require_debian_packages <name> <what needs them> <package>...: installs the packages given
# (the caller passes only the missing ones) with apt-get, waiting for a dpkg lock held by
# another apt-get (unattended upgrades, a parallel install) rather than failing. When it cannot
# (not Debian, not root and no sudo, apt-get failing) it stops with a message saying what to
# install: the tests never skip silently.
require_debian_packages() {
  local name=$1 purpose=$2
  shift 2
  local packages=("$@")
  fail() {
    echo "$name: $1" >&2
    echo "$name: $purpose needs the Debian package(s) ${packages[*]}; install them and run the tests again." >&2
    exit 1
  }
  command -v apt-get > /dev/null || fail "apt-get not found: this is not a Debian-based machine, so the packages cannot be installed here."
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo > /dev/null || fail "not root and no sudo: cannot run apt-get."
    sudo=(sudo)
  fi
  local apt=("${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600)
  echo "$name: missing ${packages[*]}; running apt-get update and apt-get install -y --no-install-recommends ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${apt[@]}" update || fail "apt-get update failed."
  "${apt[@]}" install -y --no-install-recommends "${packages[@]}" || fail "apt-get install failed."
}
