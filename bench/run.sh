#!/usr/bin/env bash
# bench/run.sh: the load benchmark (`make bench`). One command does all of it:
#   1. builds Release in its own build dir (the debug/test builds are not what users run),
#   2. starts the daemon on a free port with a throw-away storage dir and one explicit project,
#   3. runs every scenario of bench/scenarios.txt with wrk at 1, 16 and 64 connections,
#      interleaving the /healthz ceiling with the other scenarios at each connection count,
#   4. prints ops/s, p50 and p99 per scenario and connection count beside the ceiling of the
#      same run, and the ratio to it,
#   5. stops the daemon (trap on exit, whatever happens).
# Every step has a time limit, so a run always ends. Traffic goes to 127.0.0.1 only.
#
# Settings (environment variables):
#   BENCH_DURATION=10s        measured time per scenario and connection count (wrk -d syntax)
#   BENCH_WARMUP=2s           warm-up before each measurement; its answers are checked (see below)
#   BENCH_CONNECTIONS="1 16 64"
#   BENCH_ROUNDS=1            repeat the whole matrix; each round prints its own table
#   BENCH_SCENARIOS=""        scenarios to run instead of bench/scenarios.txt (space-separated)
#   BENCH_CEILING=healthz     the scenario the others are divided by
#   BENCH_TARGET_RATIO=0.8    rows under this ratio (at more than 1 connection) are marked '<'
#   BENCH_WRK_THREADS=N       most wrk threads; default min(2, cores). wrk -t is also capped by -c
#   BENCH_SET="k=v k=v"       extra daemon settings, e.g. "server.threads=16 server.keep_alive=false"
#   BENCH_SERVER_COMMANDS=""  command names of the store's server processes ("ferretdb
#                             postgres"): a column of their CPU per request beside the daemon's
#   BENCH_DAEMONS=1           daemons on one store; more than 1 needs BENCH_SET to name a store
#                             they share (storage.driver=mongodb): nginx spreads the requests over
#                             them round robin, the ceiling goes through it too, and the CPU per op
#                             is that of all of them
#   BENCH_DAEMON_CPUS=, BENCH_WRK_CPUS=   pin the daemon / wrk to these CPUs (taskset -c lists,
#                             e.g. 1 and 0): less noise when comparing two runs, lower figures
#   BENCH_BUILD_DIR=build-bench   BENCH_SKIP_BUILD=1 reuses it as it is
#   BENCH_OUT=<dir>           where results.tsv and the raw wrk and daemon logs go
#                             (default <build dir>/bench-results/<time>)
set -euo pipefail

BENCH_NAME=bench
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
STOP_TIMEOUT_S=10      # server.drain_timeout_s=2: the daemon is gone well within it

bench_durations 10s 2s
CONNECTIONS="${BENCH_CONNECTIONS:-1 16 64}"
ROUNDS="${BENCH_ROUNDS:-1}"
CEILING="${BENCH_CEILING:-healthz}"
TARGET_RATIO="${BENCH_TARGET_RATIO:-0.8}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive number"
DAEMONS="${BENCH_DAEMONS:-1}"
[[ "$DAEMONS" =~ ^[1-9][0-9]*$ ]] || die "BENCH_DAEMONS must be a positive number"
if ((DAEMONS > 1)) && [[ " ${BENCH_SET:-} " != *" storage.driver=mongodb "* ]]; then
  die "BENCH_DAEMONS=$DAEMONS needs storage.driver=mongodb in BENCH_SET: each daemon has a sqlite store of its own"
fi

command -v wrk >/dev/null || die "wrk is not installed (Debian: apt-get install wrk)"
[[ -n "${BENCH_DAEMON_CPUS:-}" ]] && DAEMON_PIN=(taskset -c "$BENCH_DAEMON_CPUS")
[[ -n "${BENCH_WRK_CPUS:-}" ]] && WRK_PIN=(taskset -c "$BENCH_WRK_CPUS")
require_tools cmake

# ---- scenarios ------------------------------------------------------------------------------
# bench/scenarios.txt gives the scenarios and their order. BENCH_SCENARIOS replaces it for one
# run, and may name a scenario file not listed yet, to try it before adding it. The ceiling
# always runs, first at each connection count, because every ratio needs it.
if [[ -n "${BENCH_SCENARIOS:-}" ]]; then
  read -r -a LISTED <<<"$BENCH_SCENARIOS"
else
  mapfile -t LISTED < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$BENCH_DIR/scenarios.txt" | grep -v '^$' || true)
fi
SCENARIOS=("$CEILING")
for s in "${LISTED[@]}"; do
  [[ "$s" == "$CEILING" || " ${SCENARIOS[*]} " == *" $s "* ]] && continue
  SCENARIOS+=("$s")
done
for s in "${SCENARIOS[@]}"; do
  [[ -f "$BENCH_DIR/scenarios/$s.lua" ]] || die "scenario '$s' has no bench/scenarios/$s.lua"
done

# A scenario's header says what the daemon needs: "-- plugins: a, b" and "-- set: key=value"
# lines. One daemon serves every scenario, so these are merged; two scenarios setting one key
# differently is an error rather than a silent winner.
PLUGINS=()
declare -A SETS=()
for s in "${SCENARIOS[@]}"; do
  for p in $(scenario_header "$s" plugins | tr ',' ' '); do
    [[ " ${PLUGINS[*]-} " == *" $p "* ]] || PLUGINS+=("$p")
  done
  while IFS= read -r kv; do
    [[ -z "$kv" ]] && continue
    k="${kv%%=*}"
    if [[ -n "${SETS[$k]+x}" && "${SETS[$k]}" != "$kv" ]]; then
      die "scenarios disagree on daemon setting $k ('${SETS[$k]}' vs '$kv')"
    fi
    SETS[$k]="$kv"
  done < <(scenario_header "$s" set)
done
PLUGINS_CSV="$(IFS=,; echo "${PLUGINS[*]-}")"

# ---- build ----------------------------------------------------------------------------------
bench_build
bench_require_daemon "${PLUGINS[@]}"
bench_out ""

# ---- daemon ---------------------------------------------------------------------------------
bench_temp_dir opbase-bench
STORAGE="$BENCH_TEMP"
bench_keys
# The server admin key, for set-up hooks that call admin ops (webhooks.endpoint.create).
BENCH_ADMIN_KEY="adm_$(random_hex 24)"
export BENCH_ADMIN_KEY

# The auth settings of bench_daemon_args matter here: with BENCH_ROUNDS=3 and the 1,000,000-
# document seed, a run lasts longer than an id token's default hour.
bench_daemon_args "$STORAGE" "$PLUGINS_CSV"
DAEMON_ARGS+=(--set "server.admin_key=$BENCH_ADMIN_KEY")
for kv in "${SETS[@]}"; do DAEMON_ARGS+=(--set "$kv"); done
for kv in ${BENCH_SET:-}; do DAEMON_ARGS+=(--set "$kv"); done
bench_start_daemon daemon "$START_TIMEOUT_S" || die "the daemon did not start"
say "daemon pid $DAEMON_PID at $URL, plugins '$PLUGINS_CSV', results in $OUT"
if ((DAEMONS > 1)); then
  bench_start_other_daemons $((DAEMONS - 1)) "$STORAGE" "$START_TIMEOUT_S" ||
    die "the other daemons or their load balancer did not start"
  say "daemons ${DAEMON_PID} ${OTHER_DAEMON_PIDS[*]} behind nginx at $URL"
fi

# A scenario may need data or state before it is measured: bench/scenarios/<name>.setup.sh, run
# once now with BENCH_URL, BENCH_ENDPOINT_KEY, BENCH_API_KEY and BENCH_STATE_DIR in its
# environment. What it writes to BENCH_STATE_DIR/<file> the scenario reads with bench.state().
# The hooks may size their data by the points to come (refresh.setup.sh: sessions per wrk run).
# Scenarios that share one set-up name it in their header instead ("-- setup-hook: shapes.sh",
# a file of bench/scenarios/), and it runs once for all of them.
export BENCH_CONNECTIONS="$CONNECTIONS" BENCH_ROUNDS="$ROUNDS" BENCH_WARMUP_S="$WARMUP_S" \
  BENCH_DURATION_S="$DURATION_S"
declare -A HOOKS_RUN=()
for s in "${SCENARIOS[@]}"; do
  hook="$s.setup.sh"
  [[ -f "$BENCH_DIR/scenarios/$hook" ]] || hook="$(scenario_header "$s" setup-hook)"
  if [[ -n "$hook" && -z "${HOOKS_RUN[$hook]:-}" ]]; then
    HOOKS_RUN[$hook]=1
    say "setup for $s ($hook)"
    run_setup_hook "$hook"
  fi
done

# ---- measurement ----------------------------------------------------------------------------
TSV="$OUT/results.tsv"
printf 'round\tscenario\tconnections\twrk_threads\trps\tp50_ms\tp99_ms\terrors\tceiling_rps\tratio\tdaemon_cpu_us_per_op\tserver_cpu_us_per_op\n' >"$TSV"
SERVER_HEAD=""
[[ -n "${BENCH_SERVER_COMMANDS:-}" ]] && SERVER_HEAD="server us/op"
say "$DURATION per point after $( ((WARMUP_S > 0)) && echo "a $WARMUP checked warm-up" || echo "no warm-up");" \
  "$ROUNDS round(s); connections $CONNECTIONS; daemon settings: ${BENCH_SET:-defaults}"

for round in $(seq "$ROUNDS"); do
  declare -A ROW=()
  declare -A CEIL=()
  for c in $CONNECTIONS; do
    for s in "${SCENARIOS[@]}"; do
      # The same load first with every answer checked, then measured (see measure).
      measure "$s" "$c" "r$round-$s-c$c" "round $round $s"
      if [[ -n "$MEASURE_FAILED" ]]; then
        ROW[$s,$c]="FAILED($MEASURE_FAILED)"; continue
      fi
      ROW[$s,$c]="$RESULT"
      [[ "$s" == "$CEILING" ]] && CEIL[$c]="$(field rps "$RESULT")"
    done
  done

  # The table: one line per scenario and connection count, the ceiling of the same round beside.
  echo
  echo "round $round of $ROUNDS: $DURATION per point, wrk threads min(connections, $MAX_WRK_THREADS), daemon ${BENCH_SET:-defaults}"
  printf '%-12s %5s %11s %9s %9s %7s %12s %7s %10s %s\n' scenario conns "ops/s" "p50 ms" "p99 ms" errors "ceiling/s" ratio "cpu us/op" "$SERVER_HEAD"
  for s in "${SCENARIOS[@]}"; do
    for c in $CONNECTIONS; do
      res="${ROW[$s,$c]:-}"
      if [[ "$res" != requests=* ]]; then
        printf '%-12s %5s %s\n' "$s" "$c" "${res:-not run}"
        continue
      fi
      rps="$(field rps "$res")"; p50="$(field p50_ms "$res")"; p99="$(field p99_ms "$res")"
      errors="$(field errors "$res")"; ceil="${CEIL[$c]:-}"
      ratio="$(awk -v a="$rps" -v b="$ceil" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
      mark=""
      if [[ "$s" != "$CEILING" && "$ratio" != "-" && "$c" -gt 1 ]] &&
         awk -v r="$ratio" -v t="$TARGET_RATIO" 'BEGIN { exit !(r < t) }'; then
        mark=" <"
      fi
      cpu="$(field cpu_us "$res")"; server="$(field server_us "$res")"
      printf '%-12s %5s %11.0f %9.3f %9.3f %7s %12.0f %7s %10s%s%s\n' \
        "$s" "$c" "$rps" "$p50" "$p99" "$errors" "${ceil:-0}" "$ratio" "$cpu" "${server:+ $(printf '%12s' "$server")}" "$mark"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$s" "$c" "$(wrk_threads "$c")" \
        "$rps" "$p50" "$p99" "$errors" "${ceil:-}" "$ratio" "$cpu" "$server" >>"$TSV"
    done
  done
  echo "(ratio = ops/s / ceiling ops/s at the same connections; '<' marks a ratio under ${TARGET_RATIO} at more than"
  legend=" one connection; errors = non-2xx + socket errors + timeouts; cpu us/op = daemon CPU per request"
  [[ -n "$SERVER_HEAD" ]] && legend+=";"$'\n'" server us/op = the CPU per request of the processes named $BENCH_SERVER_COMMANDS"
  echo "$legend)"

  unset ROW CEIL
done

# Several rounds: the median of each figure over the rounds (the ratio is taken in each round,
# against that round's ceiling, then its median).
if ((ROUNDS > 1)); then
  echo
  echo "median of $ROUNDS rounds"
  printf '%-12s %5s %11s %9s %9s %7s %7s %10s\n' scenario conns "ops/s" "p50 ms" "p99 ms" errors ratio "cpu us/op"
  for s in "${SCENARIOS[@]}"; do
    for c in $CONNECTIONS; do
      awk -F'\t' -v s="$s" -v c="$c" "$BENCH_AWK_MEDIAN"'
        NR > 1 && $2 == s && $3 == c { n++; rps[n] = $5; p50[n] = $6; p99[n] = $7; err[n] = $8; ratio[n] = $10; cpu[n] = $11 }
        END {
          if (n == 0) { printf "%-12s %5s no result\n", s, c; exit }
          printf "%-12s %5s %11.0f %9.3f %9.3f %7d %7.2f %10.1f\n", s, c, median(rps, n), median(p50, n),
                 median(p99, n), median(err, n), median(ratio, n), median(cpu, n)
        }' "$TSV"
    done
  done
fi

# A scenario may measure more than wrk does (webhook deliveries): bench/scenarios/<name>.report.sh
# runs after the tables, with the daemon still up and the set-up hooks' environment, and prints
# its own figures.
for s in "${SCENARIOS[@]}"; do
  hook="$BENCH_DIR/scenarios/$s.report.sh"
  if [[ -f "$hook" ]]; then
    echo
    echo "report of $s"
    timeout "$SETUP_TIMEOUT_S" bash "$hook" 2>"$OUT/report-$s.err" ||
      { cat "$OUT/report-$s.err" >&2; echo "bench: the report of $s failed" >&2; }
  fi
done

# Memory: the daemon's peak resident set over the whole run (set-up seeding included) and now.
if [[ -r "/proc/$DAEMON_PID/status" ]]; then
  echo "daemon peak RSS $(hwm_mb) MB, daemon RSS now $(rss_mb) MB"
fi

if [[ -s "$OUT/daemon.err" ]]; then
  say "the daemon wrote to stderr (see $OUT/daemon.err):"
  tail -n 5 "$OUT/daemon.err" >&2
fi
say "results in $TSV"
