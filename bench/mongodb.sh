#!/usr/bin/env bash
# bench/mongodb.sh: the datastore scenarios of `make bench` on the MongoDB driver against a real
# MongoDB-compatible server, beside the same scenarios on the embedded store, and then through
# BENCH_MANY_DAEMONS (3) daemons on that server behind nginx; each run with its own no-op
# ceiling (`make bench-mongodb`). The server is BENCH_MONGODB_URI's (MongoDB itself), or else
# FerretDB over a PostgreSQL cluster of its own, as the many-daemon tests run it
# (tests/support/ferretdb_server.py; packaging/deps.sh builds FerretDB). It stops on exit.
#
# Settings: those of bench/run.sh (BENCH_OUT gets sqlite/, mongodb/ and many/ folders);
# BENCH_SCENARIOS defaults to the datastore's single-document scenarios below, and to those
# and the two over 1,000,000 documents (find_idx, count_idx) against BENCH_MONGODB_URI: FerretDB
# reads every query by a scan of the whole project (bench/README.md), so there they would
# measure the scan alone. BENCH_CONNECTIONS defaults to "1 16", BENCH_DURATION to 6s.
# BENCH_MANY_DAEMONS=0 leaves the run through several daemons out; BENCH_SERVER_COMMANDS names
# the server's processes for their CPU per request (default "ferretdb postgres" for the FerretDB
# started here; "mongod" for a MongoDB on this machine).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
uri="${BENCH_MONGODB_URI:-}"
single="noop ins_one find_key upd_key"
if [[ -n "$uri" ]]; then
  export BENCH_SCENARIOS="${BENCH_SCENARIOS:-$single find_idx count_idx}"
else
  export BENCH_SCENARIOS="${BENCH_SCENARIOS:-$single}"
fi
export BENCH_CONNECTIONS="${BENCH_CONNECTIONS:-1 16}"
export BENCH_DURATION="${BENCH_DURATION:-6s}"
server_commands="${BENCH_SERVER_COMMANDS:-}"
# Each run's databases are named after its start, so a run on a server that keeps them (MongoDB)
# starts empty, as the set-up hooks expect; they are dropped on exit.
prefix="bench$(date +%Y%m%d%H%M%S)"

server_pid=""
folder=""
run_pid=""
stop_all() {
  # The run under way first: its own trap stops its daemons and wrk.
  [[ -n "$run_pid" ]] && { kill -TERM "$run_pid" 2>/dev/null || true; wait "$run_pid" 2>/dev/null || true; }
  if [[ -n "$uri" && -z "$folder" ]]; then
    /usr/bin/python3 - "$uri" "$prefix" <<'PY' || echo "mongodb.sh: the databases $prefix* are left on the server" >&2
import sys, pymongo
client = pymongo.MongoClient(sys.argv[1], serverSelectionTimeoutMS=5000)
for name in client.list_database_names():
    if name.startswith(sys.argv[2]):
        client.drop_database(name)
PY
  fi
  # The helper stops FerretDB and PostgreSQL on TERM as on a closed input.
  [[ -n "$server_pid" ]] && { kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
  [[ -n "$folder" ]] && rm -rf "$folder"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# in_background <command...>: runs it and waits, so that a signal's trap runs at once (bash holds
# a trap until a foreground command ends).
in_background() {
  "$@" &
  run_pid=$!
  wait "$run_pid"
  run_pid=""
}

if [[ -z "$uri" ]]; then
  server_commands="${BENCH_SERVER_COMMANDS:-ferretdb postgres}"
  version="$(tr -d '[:space:]' <"$ROOT/tests/support/ferretdb.version")"
  ferretdb="${XDG_CACHE_HOME:-$HOME/.cache}/opbase/ferretdb-$version/ferretdb"
  [[ -x "$ferretdb" ]] || { echo "mongodb.sh: no $ferretdb (packaging/deps.sh builds it)" >&2; exit 1; }
  folder="$(mktemp -d /tmp/opbase-bench-ferretdb.XXXXXX)"
  coproc SERVER { exec /usr/bin/python3 "$ROOT/tests/support/ferretdb_server.py" "$ferretdb" "$folder" --postgresql; }
  server_pid="$SERVER_PID"
  read -r -t 60 word port <&"${SERVER[0]}" || { echo "mongodb.sh: FerretDB did not start" >&2; exit 1; }
  [[ "$word" == PORT ]] || { echo "mongodb.sh: FerretDB said '$word $port'" >&2; exit 1; }
  uri="mongodb://127.0.0.1:$port/"
fi

# Each run its own results folder: the set-up hooks keep accounts and tokens there.
out="${BENCH_OUT:-}"
on_server="storage.driver=mongodb storage.mongodb.uri=$uri"
echo "== the embedded store (sqlite)"
BENCH_OUT="${out:+$out/sqlite}" BENCH_SERVER_COMMANDS="" in_background "$BENCH_DIR/run.sh"
echo "== the MongoDB driver against $uri"
BENCH_OUT="${out:+$out/mongodb}" BENCH_SKIP_BUILD=1 BENCH_SERVER_COMMANDS="$server_commands" \
  BENCH_SET="$on_server storage.mongodb.database_prefix=${prefix}_ ${BENCH_SET:-}" \
  in_background "$BENCH_DIR/run.sh"
many="${BENCH_MANY_DAEMONS:-3}"
if ((many > 1)); then
  # A database of their own: the seeds of the run above stay in theirs.
  echo "== $many daemons on $uri behind nginx"
  BENCH_OUT="${out:+$out/many}" BENCH_SKIP_BUILD=1 BENCH_DAEMONS="$many" \
    BENCH_SERVER_COMMANDS="$server_commands" \
    BENCH_SET="$on_server storage.mongodb.database_prefix=${prefix}many_ ${BENCH_SET:-}" \
    in_background "$BENCH_DIR/run.sh"
fi
