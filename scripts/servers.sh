#!/usr/bin/env bash
# Real servers for the integration tests: builds the Temporal CLI (its dev server is the real Temporal server,
# SQLite-backed) and the project's FerretDB program (servers/ferretdb, a MongoDB wire-protocol server on SQLite)
# into the Go caches, starts both on free loopback ports with temporary data folders, exports TEMPORAL_ADDRESS,
# MONGODB_URI and TEMPORAL_CLI (the CLI binary), runs the given command, and stops exactly the processes it started
# (by pid).
#
#   scripts/servers.sh -- npx mocha 'test/**/*.int.test.ts'
#   scripts/servers.sh --build-only
#
# Builds go to $(go env GOPATH)/bin and the Go build cache: a machine that ran this before starts in seconds
# (a cold build takes minutes; see ../shared/reference/servers.md). Server logs: $SERVERS_LOG_DIR (default: the
# temporary folder, printed on failure).
set -euo pipefail
cd "$(dirname "$0")/.."

TEMPORAL_CLI_VERSION=v1.5.1 # newer tags carry a `replace` directive that `go install pkg@version` refuses
BUILD_ONLY=false
if [ "${1:-}" = "--build-only" ]; then
  BUILD_ONLY=true
  shift
fi
[ "${1:-}" = "--" ] && shift

command -v go >/dev/null || {
  echo "servers.sh: go is not installed (needed to build Temporal and FerretDB)" >&2
  exit 1
}
BIN="$(go env GOPATH)/bin"
TEMPORAL="$BIN/temporal"
FERRETDB="$BIN/cds-ferretdb"

build() {
  local t0=$SECONDS
  # Both builds at once: each is mostly compile time, and a cold Temporal build dominates.
  go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION" &
  local tpid=$!
  (cd servers/ferretdb && go build -trimpath -o "$FERRETDB" .) &
  local fpid=$!
  local rc=0
  wait "$tpid" || rc=$?
  wait "$fpid" || rc=$?
  [ "$rc" = 0 ] || {
    echo "servers.sh: building the servers failed" >&2
    exit "$rc"
  }
  echo "servers.sh: built temporal and ferretdb in $((SECONDS - t0)) s ($("$TEMPORAL" --version))"
}
build
$BUILD_ONLY && exit 0

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

wait_port() { # port seconds name
  local deadline=$((SECONDS + $2))
  until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
      echo "servers.sh: $3 did not listen on 127.0.0.1:$1 within $2 s" >&2
      return 1
    fi
    sleep 0.2
  done
}

TMP="$(mktemp -d -t cds-servers.XXXXXX)"
LOGS="${SERVERS_LOG_DIR:-$TMP}"
mkdir -p "$LOGS"
PIDS=()
cleanup() {
  local rc=$?
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    # Each gets 10 s to stop cleanly, then is killed (only the processes this script started).
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$rc" != 0 ] && [ "$LOGS" = "$TMP" ]; then
    echo "servers.sh: exit $rc; last server log lines:" >&2
    tail -n 20 "$LOGS"/*.log >&2 || true
  fi
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

TPORT="$(free_port)"
"$TEMPORAL" server start-dev --headless --ip 127.0.0.1 --port "$TPORT" \
  --db-filename "$TMP/temporal.db" --log-level warn >"$LOGS/temporal.log" 2>&1 &
PIDS+=($!)

MPORT="$(free_port)"
"$FERRETDB" -listen "127.0.0.1:$MPORT" -data "$TMP/ferretdb" >"$LOGS/ferretdb.log" 2>&1 &
PIDS+=($!)

wait_port "$MPORT" 30 ferretdb
wait_port "$TPORT" 60 temporal
# The frontend port opens before the default namespace is usable.
for _ in $(seq 100); do
  "$TEMPORAL" operator namespace describe --address "127.0.0.1:$TPORT" default >/dev/null 2>&1 && break
  sleep 0.3
done

export TEMPORAL_ADDRESS="127.0.0.1:$TPORT"
# The CLI that serves the dev server is also the operator's `temporal workflow list/show` (the composition test uses it).
export TEMPORAL_CLI="$TEMPORAL"
export MONGODB_URI="mongodb://127.0.0.1:$MPORT/"
# FerretDB 1.x never answers an `update` command of 100 replacing upserts that change indexed fields (seen with
# the store contract suite; 50 pass): keep every write command small.
export MONGODB_WRITE_BATCH="${MONGODB_WRITE_BATCH:-50}"
echo "servers.sh: TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS MONGODB_URI=$MONGODB_URI (FerretDB 1.24.2, SQLite)"

if [ $# -eq 0 ]; then
  echo "servers.sh: no command given; servers stop now" >&2
  exit 0
fi
"$@"
