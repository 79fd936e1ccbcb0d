#!/usr/bin/env bash
# Runs after `npm install`: makes the embedded voice engines ready without a separate step.
#  - builds the live-call helpers (native/*.c -> build/) when a compiler and headers exist;
#  - when Debian packages are missing and they can be installed without a prompt (root, or
#    passwordless sudo), installs them first (one apt-get update, noninteractive);
#  - otherwise prints one line saying what to run.
# It never fails the install and never waits for input: every apt step has a time limit.
# DOORSTEP_POSTINSTALL=off skips it (e.g. an image that installs the packages itself).
set -uo pipefail
exec </dev/null
cd "$(dirname "$0")/.." || exit 0

if [ "${DOORSTEP_POSTINSTALL:-}" = "off" ]; then exit 0; fi
# The helpers' sources ship with the repository; an installed copy without them has nothing to do.
[ -f native/sphinx-live.c ] || exit 0

say() { echo "doorstep: $*"; }
APT_TIMEOUT_UPDATE=${DOORSTEP_APT_UPDATE_TIMEOUT:-180}
APT_TIMEOUT_INSTALL=${DOORSTEP_APT_INSTALL_TIMEOUT:-900}
log=$(mktemp "${TMPDIR:-/tmp}/doorstep-setup.XXXXXX.log" 2>/dev/null || echo /dev/null)
cleanup() { [ "$log" != /dev/null ] && rm -f "$log"; }
trap cleanup EXIT

build_helpers() {
  # build-native.sh prints one line per helper; failures are summarised by the caller.
  bash scripts/build-native.sh >>"$log" 2>&1
}

if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  if ! build_helpers; then
    say "voice engines not set up: install PocketSphinx and espeak-ng with their headers, a C compiler and pkg-config, then run npm run setup (details: docs/providers.md)."
  fi
  exit 0
fi

# shellcheck source=scripts/system-packages.sh
. scripts/system-packages.sh
mapfile -t missing < <(missing_packages "${ENGINE_PACKAGES[@]}")

if [ ${#missing[@]} -gt 0 ]; then
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && timeout 5 sudo -n true >/dev/null 2>&1; then
      SUDO=(sudo -n)
    else
      say "voice engines need Debian packages (${missing[*]}): run npm run setup once (it asks for your sudo password)."
      build_helpers || true
      exit 0
    fi
  fi
  say "installing the voice engine packages once: ${missing[*]}"
  apt_opts=(-o DPkg::Lock::Timeout=60 -o Acquire::Retries=1 -o Acquire::http::Timeout=20 -o Acquire::https::Timeout=20)
  export DEBIAN_FRONTEND=noninteractive
  if ! timeout "$APT_TIMEOUT_UPDATE" "${SUDO[@]}" apt-get "${apt_opts[@]}" update -qq >>"$log" 2>&1 ||
    ! timeout "$APT_TIMEOUT_INSTALL" "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
      install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    say "could not install the voice engine packages (apt-get failed or timed out): run npm run setup to see why."
    exit 0
  fi
fi

if ! build_helpers; then
  say "$(grep -m1 'not built' "$log" 2>/dev/null || echo 'the live-call helpers did not build: run npm run setup to see why.')"
fi
exit 0
