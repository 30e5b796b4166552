#!/usr/bin/env bash
# Run before `npm test`: the suite drives Debian's Chromium (the GraphiQL page) and starts redis-server
# (rate limits shared between gateways). Installs whichever is missing, so `npm test` needs nothing by hand.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "npm test needs the Debian packages: ${missing[*]}. Install them (apt-get install -y ${missing[*]}) and run it again." >&2
  exit 1
fi
echo "Installing ${missing[*]} for the test suite (once)…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "${missing[@]}" >/dev/null
