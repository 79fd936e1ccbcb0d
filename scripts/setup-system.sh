#!/usr/bin/env bash
# Installs the Debian packages Doorstep's embedded engines use: PocketSphinx (offline
# speech-to-text), espeak-ng (offline voices), and for tests Chromium, poppler-utils and sox.
# Safe to run again: it installs only what is missing. Needs root (or sudo).
set -euo pipefail
packages=(pocketsphinx pocketsphinx-en-us espeak-ng chromium poppler-utils sox bzip2)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then echo "System packages present."; exit 0; fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "Installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
