#!/usr/bin/env bash
# bench/webhooks.sh: the webhooks benchmark (`make bench-webhooks`), issue 5's figures in one run:
#   1. ins_one            inserts, webhooks not loaded
#   2. ins_one_journaled  inserts, webhooks loaded, no endpoint (each insert journals its event)
#   3. ins_one_slow_hook  inserts, an endpoint whose receiver sleeps 1 s per delivery
#   4. hook_deliveries    inserts with a receiver that answers at once, then deliveries/s and the
#                         latency from an op's answer to the receipt (its report hook)
# Each is its own bench/run.sh (a fresh daemon: an endpoint stays for a whole run) with its own
# /healthz ceiling. 2 and 3 alternate for WEBHOOKS_ROUNDS rounds; the summary gives medians.
# Settings: WEBHOOKS_ROUNDS=2, WEBHOOKS_PIN=1 (the daemon on CPU 1, wrk on CPU 0: on a shared
# 2-core machine the runs then disturb each other less, and the figures are lower), and
# bench/run.sh's (BENCH_CONNECTIONS defaults to 16 here, BENCH_DURATION to 10s;
# BENCH_SKIP_BUILD=1 reuses the Release build).
set -euo pipefail

BENCH_NAME=webhooks.sh
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
ROUNDS="${WEBHOOKS_ROUNDS:-2}"
export BENCH_CONNECTIONS="${BENCH_CONNECTIONS:-16}"
export BENCH_DURATION="${BENCH_DURATION:-10s}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "WEBHOOKS_ROUNDS must be a positive number"
bench_out_root webhooks
if [[ "${WEBHOOKS_PIN:-0}" == 1 ]]; then
  ((CORES >= 2)) || die "WEBHOOKS_PIN needs 2 CPUs"
  export BENCH_DAEMON_CPUS=1 BENCH_WRK_CPUS=0
fi

run_bench ins_one plain
for r in $(seq "$ROUNDS"); do
  run_bench ins_one_journaled "journaled-$r"
  run_bench ins_one_slow_hook "slow-$r"
done
run_bench hook_deliveries deliveries

# The summary: per scenario and connection count, the medians over its runs of ops/s, of the
# ratio to the same run's ceiling, and of the daemon's CPU per insert.
echo
echo "webhooks summary (medians over runs; ratio = ops/s / that run's /healthz ceiling)"
printf '%-18s %5s %9s %7s %10s\n' scenario conns "ops/s" ratio "cpu us/op"
cat "$OUT"/*/results.tsv | awk -F'\t' "$BENCH_AWK_MEDIAN"'
  $1 == "round" || $2 == "healthz" { next }
  { k = $2 SUBSEP $3; n[k]++; rps[k, n[k]] = $5; ratio[k, n[k]] = $10; cpu[k, n[k]] = $11; order[k] = NR }
  END {
    split("ins_one ins_one_journaled ins_one_slow_hook hook_deliveries", names, " ")
    for (i = 1; i <= 4; i++) for (k in n) {
      split(k, part, SUBSEP); if (part[1] != names[i]) continue
      m = n[k]
      for (j = 1; j <= m; j++) { a[j] = rps[k, j]; b[j] = ratio[k, j]; c[j] = cpu[k, j] }
      printf "%-18s %5s %9.0f %7.2f %10.1f\n", part[1], part[2], median(a, m), median(b, m), median(c, m)
    }
  }'
echo
grep -h -A6 '^report of' "$OUT"/deliveries.txt || true
say "everything in $OUT"
