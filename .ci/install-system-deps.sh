#!/usr/bin/env bash
# System packages some tests need: redis-server (two API replicas sharing rate-limit counters,
# test/access/redis.int.test.ts) and Debian's chromium (the account page in a browser,
# test/access/account.browser.test.ts). Idempotent: installs only what is missing; apt-get update runs once, and
# only when something is missing. Those tests print a visible "skipped: …" line when a package is absent.
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)

if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages present: redis-server, chromium"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); else
    echo "need root to install: ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=()
fi

echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
