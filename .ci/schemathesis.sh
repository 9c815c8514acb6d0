#!/usr/bin/env bash
# A bounded schemathesis run (the OpenAPI-driven fuzzer, from PyPI) against the service on its embedded defaults:
# `npm start` with a fresh DATA_DIR (devnet + embedded store + embedded runner), rate limits off. Waits until the
# devnet's history is synced and the recomputes have written tokens, pools, stake pools and governance, takes real
# identifiers from the running service as examples (.ci/schemathesis-examples.mjs) so 200 answers are validated
# against the response schemas, then runs every check with a fixed seed. Fails on any failure not listed, with its
# reason, in .ci/schemathesis-accepted.json. Bounded: ~3,000 cases, a few minutes on 2 cores.
#
# Env: SCHEMATHESIS_VENV (default: a temporary directory), SCHEMATHESIS_MAX_EXAMPLES (50 per operation),
# SCHEMATHESIS_SEED (20261125), SCHEMATHESIS_READY_TIMEOUT (seconds to wait for data, 900).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-50}
SEED=${SCHEMATHESIS_SEED:-20261125}
READY_TIMEOUT=${SCHEMATHESIS_READY_TIMEOUT:-900}

work=$(mktemp -d)
venv=${SCHEMATHESIS_VENV:-$work/venv}
service_pid=
cleanup() {
  if [ -n "$service_pid" ] && kill -0 "$service_pid" 2>/dev/null; then
    # The service runs in its own process group (setsid): stop exactly that group, then wait for it.
    kill -TERM -- "-$service_pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$service_pid" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$service_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
mkdir -p "$work/data"
# The devnet backfills its default 48 h of history, then holds still (one live block an hour): a chain that does
# not move while the fuzzer runs makes the run reproducible, and no token is newer than its last recompute (503).
DATA_DIR="$work/data" PORT="$port" HOST=127.0.0.1 RATE_LIMITS=false LOG_LEVEL=warn DEVNET_BLOCK_MS=3600000 \
  setsid npm start >"$work/service.log" 2>&1 &
service_pid=$!

# While waiting for data: stop with the service's last log lines if it exited or `what` took longer than `seconds`
# since `since` (unix s).
give_up_if() { # what seconds since
  if ! kill -0 "$service_pid" 2>/dev/null; then
    echo "the service exited:" >&2
  elif [ $(($(date +%s) - $3)) -gt "$2" ]; then
    echo "no $1 within ${2}s" >&2
  else
    return 0
  fi
  tail -50 "$work/service.log" >&2
  exit 1
}

# Wait for the backfill to reach the devnet's tip and for every derived list the examples need.
started=$(date +%s)
until curl -fsS "$base/readyz" 2>/dev/null |
  python3 -c 'import json, sys; r = json.load(sys.stdin); sys.exit(0 if r["tipHeight"] - r["height"] <= 3 else 1)' &&
  for list in tokens pools staking/pools governance/proposals governance/dreps nft/collections; do
    curl -fsS "$base/api/v1/$list?pageSize=1" 2>/dev/null | grep -q '"items":\[{' || exit 1
  done; do
  give_up_if data "$READY_TIMEOUT" "$started"
  sleep 5
done
# Reaching the tip fires every recompute once more: wait for a market recompute (every 20 s) that started after the
# catch-up, so its figures cover the last blocks (the overview's updatedAt is when its run started).
caught_up=$(date +%s)
until curl -fsS "$base/api/v1/market/overview" 2>/dev/null |
  python3 -c 'import datetime, json, sys
u = json.load(sys.stdin)["updatedAt"]
sys.exit(0 if u and datetime.datetime.fromisoformat(u.replace("Z", "+00:00")).timestamp() > float(sys.argv[1]) else 1)' "$caught_up"; do
  give_up_if "market recompute after the catch-up" 120 "$caught_up"
  sleep 2
done
echo "service ready with data after $(($(date +%s) - started))s at $base"

node .ci/schemathesis-examples.mjs "$base" "$work/openapi.json"

accepted="$PWD/.ci/schemathesis-accepted.json"
# Run from the temporary directory: schemathesis keeps a cache (.schemathesis/) in its working directory.
cd "$work"
"$venv/bin/schemathesis" run "$work/openapi.json" \
  --url "$base/api/v1" \
  --checks all \
  --phases examples,coverage,fuzzing \
  --seed "$SEED" \
  --max-examples "$MAX_EXAMPLES" \
  --workers 1 \
  --request-timeout 30 \
  --baseline "$accepted" \
  --no-color \
  --output-truncate true
