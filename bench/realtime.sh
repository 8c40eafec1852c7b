#!/usr/bin/env bash
# bench/realtime.sh: the realtime benchmark (`make bench-realtime`). One command does all of it:
#   1. builds Release in build-bench/ with the bench helpers (realtime_bench),
#   2. starts the daemon (auth, collection, realtime) on a free port of 127.0.0.1 with a
#      throw-away store, and signs one user up,
#   3. the /healthz ceiling (wrk, 16 connections) with no stream held,
#   4. realtime_bench holds BENCH_RT_CLIENTS event streams, each subscribed to one of
#      BENCH_RT_COLLECTIONS collections: the daemon's memory per idle client,
#   5. the /healthz ceiling again while they are held,
#   6. BENCH_RT_RATE inserts a second for BENCH_RT_SECONDS spread over the collections, every
#      stream read meanwhile: the events received (each write reaches clients / collections
#      subscribers), their delivery latency p50 / p99 / p99.9 / max, and the daemon's CPU per
#      event received,
#   7. prints it all beside the two ceilings.
# Every wait is bounded and the daemon is stopped on exit (trap). Loopback only. At the defaults
# a run takes about 2 minutes on 2 cores.
#
# Settings (environment variables):
#   BENCH_RT_CLIENTS=10000      event streams held
#   BENCH_RT_COLLECTIONS=100    collections the streams are subscribed to, evenly
#   BENCH_RT_RATE=1000          inserts a second
#   BENCH_RT_SECONDS=10         of inserts
#   BENCH_DURATION=10s, BENCH_WARMUP=2s   each wrk point
#   BENCH_SET="key=value ..."   more daemon settings
#   BENCH_SKIP_BUILD=1          reuse the Release build
set -euo pipefail

BENCH_NAME=bench-realtime
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

CLIENTS="${BENCH_RT_CLIENTS:-10000}"
COLLECTIONS="${BENCH_RT_COLLECTIONS:-100}"
RATE="${BENCH_RT_RATE:-1000}"
SECONDS_OF_WRITES="${BENCH_RT_SECONDS:-10}"
CEILING_CONNECTIONS=16
START_TIMEOUT_S=30
STEP_TIMEOUT_S=600

require_positive CLIENTS COLLECTIONS RATE SECONDS_OF_WRITES
bench_durations 10s 2s
require_tools wrk curl cmake

bench_build_tool realtime_bench auth collection realtime
bench_out realtime-

bench_temp_dir opbase-bench-realtime
bench_keys
bench_daemon_args "$BENCH_TEMP" auth,collection,realtime
# Every stream comes from 127.0.0.1: the per-address limits are lifted, the rest left as shipped.
DAEMON_ARGS+=(
  --set "server.max_connections=$((CLIENTS + 1000))"
  --set server.max_connections_per_address=0
  --set "realtime.max_clients=$((CLIENTS + 100))"
  --set "realtime.max_clients_per_address=$((CLIENTS + 100))"
  --set "realtime.max_clients_per_user=$((CLIENTS + 100))"
)
for kv in ${BENCH_SET:-}; do DAEMON_ARGS+=(--set "$kv"); done
ulimit -n "$(ulimit -Hn)"
bench_start_daemon daemon "$START_TIMEOUT_S" || die "the daemon did not start"
say "daemon pid $DAEMON_PID at $URL"
PORT="${URL##*:}"

# One user: the streams' subscriptions and the writes are theirs.
TOKEN="$(python3 "$BENCH_DIR/scenarios/lib/bench_api.py" sessions rt 1 | cut -d' ' -f1)"
[[ -n "$TOKEN" ]] || die "no id token for the bench user"

# ceiling <phase>: /healthz at CEILING_CONNECTIONS; sets CEIL.
ceiling() {
  measure healthz "$CEILING_CONNECTIONS" "ceiling-$1"
  CEIL="$(field rps "$RESULT")"
  [[ -n "$CEIL" ]] || die "the /healthz ceiling failed (see $OUT/ceiling-$1.log)"
}
ceiling empty
CEIL_EMPTY="$CEIL"

# The streams are held for the second ceiling (HOLD_S), then written to.
HOLD_S=$((WARMUP_S + DURATION_S + 5))
timeout "$STEP_TIMEOUT_S" "$TOOL" --port "$PORT" --endpoint-key "$BENCH_ENDPOINT_KEY" \
  --api-key "$BENCH_API_KEY" --token "$TOKEN" --pid "$DAEMON_PID" --clients "$CLIENTS" \
  --collections "$COLLECTIONS" --rate "$RATE" --seconds "$SECONDS_OF_WRITES" --hold-s "$HOLD_S" \
  >"$OUT/realtime_bench.out" 2>"$OUT/realtime_bench.err" &
TOOL_PID=$!
bench_helper "$TOOL_PID"
deadline=$(($(date +%s) + STEP_TIMEOUT_S))
until grep -q '^held ' "$OUT/realtime_bench.out"; do
  kill -0 "$TOOL_PID" 2>/dev/null || { cat "$OUT/realtime_bench.err" >&2; die "realtime_bench ended before holding its streams"; }
  (($(date +%s) < deadline)) || die "the streams were not held within ${STEP_TIMEOUT_S}s"
  sleep 0.5
done
HELD="$(grep '^held ' "$OUT/realtime_bench.out")"
ceiling held
CEIL_HELD="$CEIL"
wait "$TOOL_PID" || { cat "$OUT/realtime_bench.err" >&2; die "realtime_bench failed"; }
RESULT_LINE="$(grep '^result ' "$OUT/realtime_bench.out")"

echo
echo "realtime: $CLIENTS streams over $COLLECTIONS collections, $RATE inserts/s for ${SECONDS_OF_WRITES}s ($(machine_summary))"
echo "  held:   $HELD"
echo "  writes: $RESULT_LINE"
echo "  /healthz ceiling ($CEILING_CONNECTIONS connections): ${CEIL_EMPTY}/s without streams, ${CEIL_HELD:-?}/s with them held ($(awk -v a="${CEIL_HELD:-0}" -v b="$CEIL_EMPTY" 'BEGIN { printf "%.2f", a / b }'))"
say "everything in $OUT"
