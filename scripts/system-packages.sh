# shellcheck shell=bash
# The Debian packages Doorstep uses, shared by setup-system.sh and postinstall.sh.
# Engines: PocketSphinx (offline speech-to-text), espeak-ng (offline voices), and the
# compiler and headers for the two live-call helpers (native/*.c), and ffmpeg: Debian's
# security-maintained build decodes uploads (the bundled 2018 static build is only a fallback).
# bzip2 unpacks the speech and voice models the server fetches at start (AUTO_MODELS).
# flite gives the homeowners clearer voices than espeak-ng (docs/benchmarks.md); espeak-ng stays
# the fallback and the live-call helper's engine.
ENGINE_PACKAGES=(pocketsphinx pocketsphinx-en-us libpocketsphinx-dev libsphinxbase-dev gcc libc6-dev pkg-config
  espeak-ng libespeak-ng-dev flite ffmpeg bzip2)
# Only the test suite needs these: a browser for page tests, PDF text extraction, audio tools.
TEST_PACKAGES=(chromium poppler-utils sox)

# Prints the packages from the arguments that dpkg does not report installed.
missing_packages() {
  local p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || printf '%s\n' "$p"; done
}
