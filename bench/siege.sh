#!/usr/bin/env bash
# bench/siege.sh: the HTTP front under idle and slow connections (`make bench-siege`). Two
# bench/run.sh runs of find by _key with their /healthz ceilings, at 1, 16 and 64 connections:
#   1. find_key         nothing else connected
#   2. find_key_siege   while 10,000 idle connections and 1,000 that send a head one field every
#                       5 s are held (SIEGE_IDLE, SIEGE_SLOW), from many loopback addresses
# then the two side by side. Settings: SIEGE_ROUNDS=1 (alternating pairs), SIEGE_PIN=1 (the daemon
# on CPU 1, wrk and the siege on CPU 0), and bench/run.sh's (BENCH_CONNECTIONS defaults to
# "1 16 64" here: at 1 the p99 is the latency a request sees beside the siege, at 64 it is
# mostly the queue of 64 requests in flight; BENCH_SKIP_BUILD=1 reuses the Release build).
set -euo pipefail

BENCH_NAME=siege.sh
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
ROUNDS="${SIEGE_ROUNDS:-1}"
export BENCH_CONNECTIONS="${BENCH_CONNECTIONS:-1 16 64}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "SIEGE_ROUNDS must be a positive number"
bench_out_root siege
if [[ "${SIEGE_PIN:-0}" == 1 ]]; then
  export BENCH_DAEMON_CPUS=1 BENCH_WRK_CPUS=0
fi

for r in $(seq "$ROUNDS"); do
  run_bench find_key "plain-$r"
  run_bench find_key_siege "siege-$r"
done

echo
echo "siege summary (ops/s, p99 ms; each run's /healthz beside its find_key)"
printf '%-15s %5s %10s %8s %12s %8s\n' run conns "find ops/s" "p99" "healthz/s" "p99"
for f in "$OUT"/*/results.tsv; do
  run_name="$(basename "$(dirname "$f")")"
  awk -F'\t' -v run="$run_name" '
    $1 == "round" { next }
    $2 == "healthz" { h[$3] = $5; hp[$3] = $7; next }
    { s[$3] = $5; sp[$3] = $7 }
    END { for (c in s) printf "%-15s %5s %10.0f %8s %12.0f %8s\n", run, c, s[c], sp[c], h[c], hp[c] }' "$f"
done
say "everything in $OUT"
