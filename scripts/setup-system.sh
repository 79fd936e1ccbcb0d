#!/usr/bin/env bash
# Installs the Debian packages Doorstep's embedded engines use: PocketSphinx (offline
# speech-to-text), espeak-ng (offline voices), their headers and a C compiler for the two
# live-call helpers, ffmpeg (Debian's security-maintained build decodes uploads), and for tests
# Chromium, poppler-utils and sox; then builds the helpers
# (scripts/build-native.sh).
# Safe to run again: it installs only what is missing. Needs root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(pocketsphinx pocketsphinx-en-us libpocketsphinx-dev libsphinxbase-dev gcc libc6-dev pkg-config
  espeak-ng libespeak-ng-dev chromium poppler-utils sox bzip2 ffmpeg)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then
  echo "System packages present."
else
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
bash scripts/build-native.sh
