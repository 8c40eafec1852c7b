#!/usr/bin/env bash
# bench/mongodb.sh: the datastore scenarios of `make bench` on the MongoDB driver against a real
# MongoDB-compatible server, beside the same scenarios on the embedded store, each run with its
# own no-op ceiling (`make bench-mongodb`). The server is BENCH_MONGODB_URI's (MongoDB itself), or
# else FerretDB over a PostgreSQL cluster of its own, as the many-daemon tests run it
# (tests/support/ferretdb_server.py; packaging/deps.sh builds FerretDB). It stops on exit.
#
# Settings: those of bench/run.sh (BENCH_OUT gets a sqlite/ and a mongodb/ folder);
# BENCH_SCENARIOS defaults to the datastore's single-document
# scenarios below, BENCH_CONNECTIONS to "1 16", BENCH_DURATION to 6s.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
export BENCH_SCENARIOS="${BENCH_SCENARIOS:-noop ins_one find_key find_idx count_idx upd_key}"
export BENCH_CONNECTIONS="${BENCH_CONNECTIONS:-1 16}"
export BENCH_DURATION="${BENCH_DURATION:-6s}"

server_pid=""
folder=""
stop_server() {
  [[ -n "$server_pid" ]] && { exec 3>&-; wait "$server_pid" 2>/dev/null || true; }
  [[ -n "$folder" ]] && rm -rf "$folder"
}
trap stop_server EXIT

uri="${BENCH_MONGODB_URI:-}"
if [[ -z "$uri" ]]; then
  version="$(tr -d '[:space:]' <"$ROOT/tests/support/ferretdb.version")"
  ferretdb="${XDG_CACHE_HOME:-$HOME/.cache}/opbase/ferretdb-$version/ferretdb"
  [[ -x "$ferretdb" ]] || { echo "mongodb.sh: no $ferretdb (packaging/deps.sh builds it)" >&2; exit 1; }
  folder="$(mktemp -d /tmp/opbase-bench-ferretdb.XXXXXX)"
  # The helper stops the server when its standard input closes: fd 3 is that input.
  coproc SERVER { /usr/bin/python3 "$ROOT/tests/support/ferretdb_server.py" "$ferretdb" "$folder" --postgresql; }
  server_pid="$SERVER_PID"
  exec 3>&"${SERVER[1]}"
  read -r -t 60 word port <&"${SERVER[0]}" || { echo "mongodb.sh: FerretDB did not start" >&2; exit 1; }
  [[ "$word" == PORT ]] || { echo "mongodb.sh: FerretDB said '$word $port'" >&2; exit 1; }
  uri="mongodb://127.0.0.1:$port/"
fi

# Each run its own results folder: the set-up hooks keep accounts and tokens there.
out="${BENCH_OUT:-}"
echo "== the embedded store (sqlite)"
BENCH_OUT="${out:+$out/sqlite}" "$BENCH_DIR/run.sh"
echo "== the MongoDB driver against $uri"
BENCH_OUT="${out:+$out/mongodb}" BENCH_SKIP_BUILD=1 BENCH_SET="storage.driver=mongodb storage.mongodb.uri=$uri ${BENCH_SET:-}" \
  "$BENCH_DIR/run.sh"
