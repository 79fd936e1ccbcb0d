#!/usr/bin/env bash
# Installs the Debian packages Doorstep's embedded engines use: PocketSphinx (offline
# speech-to-text), espeak-ng (offline voices), their headers and a C compiler for the two
# live-call helpers, and for tests Chromium, poppler-utils and sox; then builds the helpers
# (scripts/build-native.sh). `npm install` does the engine part by itself when it can
# (scripts/postinstall.sh); this is the same by hand, plus the test tools.
# `--test-tools` installs only the test tools (CI: `npm install` then does the engines).
# Safe to run again: it installs only what is missing. Needs root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/system-packages.sh
. scripts/system-packages.sh
only_test_tools=false
[ "${1:-}" = "--test-tools" ] && only_test_tools=true
if $only_test_tools; then
  mapfile -t missing < <(missing_packages "${TEST_PACKAGES[@]}")
else
  mapfile -t missing < <(missing_packages "${ENGINE_PACKAGES[@]}" "${TEST_PACKAGES[@]}")
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "System packages present."
else
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
$only_test_tools || bash scripts/build-native.sh
