#!/usr/bin/env bash
# Builds the two small native helpers live role-plays use (native/*.c -> build/):
#   sphinx-live   a warm PocketSphinx decoder per call, for captions and final words
#   espeak-live   long-lived espeak-ng synthesisers shared by all calls
#   sphinx-batch  recordings: PocketSphinx with the sales-conversation model mixed in
# Needs a C compiler and the headers (Debian: gcc libpocketsphinx-dev libsphinxbase-dev
# libespeak-ng-dev pkg-config; `npm run setup` installs them). Without them calls still work,
# with a fresh recogniser or voice process per utterance or sentence.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
build() {
  local name=$1 pkg=$2 src=native/$1.c out=build/$1
  if [ -x "$out" ] && [ "$out" -nt "$src" ]; then echo "$name is up to date."; return; fi
  if ! command -v cc >/dev/null || ! pkg-config --exists "$pkg" 2>/dev/null; then
    echo "$name not built: needs cc and the $pkg headers (npm run setup)." >&2
    status=1
    return
  fi
  mkdir -p build
  # shellcheck disable=SC2046
  cc -O2 -Wall -Wextra -o "$out.tmp" "$src" $(pkg-config --cflags --libs "$pkg")
  mv "$out.tmp" "$out"
  echo "Built $out."
}
build sphinx-live pocketsphinx
build espeak-live espeak-ng
build sphinx-batch pocketsphinx
exit $status
