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
#   BENCH_DAEMON_CPUS=, BENCH_WRK_CPUS=   pin the daemon / wrk to these CPUs (taskset -c lists,
#                             e.g. 1 and 0): less noise when comparing two runs, lower figures
#   BENCH_BUILD_DIR=build-bench   BENCH_SKIP_BUILD=1 reuses it as it is
#   BENCH_OUT=<dir>           where results.tsv and the raw wrk and daemon logs go
#                             (default <build dir>/bench-results/<time>)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="$ROOT/bench"

DURATION="${BENCH_DURATION:-10s}"
WARMUP="${BENCH_WARMUP:-2s}"
CONNECTIONS="${BENCH_CONNECTIONS:-1 16 64}"
ROUNDS="${BENCH_ROUNDS:-1}"
CEILING="${BENCH_CEILING:-healthz}"
TARGET_RATIO="${BENCH_TARGET_RATIO:-0.8}"
BUILD_DIR="${BENCH_BUILD_DIR:-$ROOT/build-bench}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
CORES="$(nproc)"
MAX_WRK_THREADS="${BENCH_WRK_THREADS:-$((CORES < 2 ? CORES : 2))}"
BUILD_TIMEOUT_S=1800   # a cold Release build on two busy cores takes minutes, never half an hour
START_TIMEOUT_S=30     # the daemon prints its URL well under a second after exec
SETUP_TIMEOUT_S=300    # a scenario's optional setup hook (seeding data, say)

die() { echo "bench: $*" >&2; exit 1; }

# wrk durations are "<n>[s|m|h]"; the time limits below need seconds.
to_seconds() {
  local v="$1"
  case "$v" in
    *h) echo $((${v%h} * 3600)) ;;
    *m) echo $((${v%m} * 60)) ;;
    *s) echo "${v%s}" ;;
    *) echo "$v" ;;
  esac
}
DURATION_S="$(to_seconds "$DURATION")"
WARMUP_S="$(to_seconds "$WARMUP")"
[[ "$DURATION_S" =~ ^[0-9]+$ && "$DURATION_S" -gt 0 ]] || die "BENCH_DURATION '$DURATION' is not <n>[s|m|h]"
[[ "$WARMUP_S" =~ ^[0-9]+$ ]] || die "BENCH_WARMUP '$WARMUP' is not <n>[s|m|h]"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive number"

command -v wrk >/dev/null || die "wrk is not installed (Debian: apt-get install wrk)"
DAEMON_PIN=()
WRK_PIN=()
[[ -n "${BENCH_DAEMON_CPUS:-}" ]] && DAEMON_PIN=(taskset -c "$BENCH_DAEMON_CPUS")
[[ -n "${BENCH_WRK_CPUS:-}" ]] && WRK_PIN=(taskset -c "$BENCH_WRK_CPUS")
command -v cmake >/dev/null || die "cmake is not installed (run packaging/deps.sh)"

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
header_values() {  # header_values <file> <field>: the values of every "-- <field>:" line
  sed -n "s/^--[[:space:]]*$2:[[:space:]]*//p" "$1"
}
PLUGINS=()
declare -A SETS=()
for s in "${SCENARIOS[@]}"; do
  f="$BENCH_DIR/scenarios/$s.lua"
  for p in $(header_values "$f" plugins | tr ',' ' '); do
    [[ " ${PLUGINS[*]-} " == *" $p "* ]] || PLUGINS+=("$p")
  done
  while IFS= read -r kv; do
    [[ -z "$kv" ]] && continue
    k="${kv%%=*}"
    if [[ -n "${SETS[$k]+x}" && "${SETS[$k]}" != "$kv" ]]; then
      die "scenarios disagree on daemon setting $k ('${SETS[$k]}' vs '$kv')"
    fi
    SETS[$k]="$kv"
  done < <(header_values "$f" set)
done
PLUGINS_CSV="$(IFS=,; echo "${PLUGINS[*]-}")"

# ---- build ----------------------------------------------------------------------------------
# Its own build dir: Release flags, no tests (faster), the examples on (echo is the no-op op).
if [[ "${BENCH_SKIP_BUILD:-0}" != "1" ]]; then
  generator=()
  if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  mkdir -p "$BUILD_DIR"
  build_log="$BUILD_DIR/bench-build.log"
  echo "bench: building Release in $BUILD_DIR (log: $build_log)" >&2
  if ! { timeout "$BUILD_TIMEOUT_S" cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" \
           -DCMAKE_BUILD_TYPE=Release -DOPBASE_BUILD_TESTS=OFF -DOPBASE_BUILD_EXAMPLES=ON \
           -DOPBASE_BUILD_TEST_PLUGINS=OFF &&
         timeout "$BUILD_TIMEOUT_S" cmake --build "$BUILD_DIR" --parallel "$CORES"; } >"$build_log" 2>&1; then
    tail -n 30 "$build_log" >&2
    die "the Release build failed (see $build_log)"
  fi
fi
DAEMON="$BUILD_DIR/host/opbase"
[[ -x "$DAEMON" ]] || die "no daemon at $DAEMON (build failed, or BENCH_SKIP_BUILD=1 on an empty dir)"
# Only shipped plugins: every figure is one users would see (no test-only plugin stands in).
for p in "${PLUGINS[@]}"; do
  [[ -f "$BUILD_DIR/plugins-out/$p.so" ]] || die "plugin $p was not built ($BUILD_DIR/plugins-out/$p.so)"
done

OUT="${BENCH_OUT:-$BUILD_DIR/bench-results/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"

# ---- daemon ---------------------------------------------------------------------------------
STORAGE="$(mktemp -d "${TMPDIR:-/tmp}/opbase-bench.XXXXXX")"
DAEMON_PID=""
WRK_PID=""
cleanup() {
  local rc=$?
  # A wrk still running (we were interrupted): stop it first, it is talking to the daemon.
  if [[ -n "$WRK_PID" ]] && kill -0 "$WRK_PID" 2>/dev/null; then
    kill -TERM "$WRK_PID" 2>/dev/null || true
    wait "$WRK_PID" 2>/dev/null || true
  fi
  # Helpers a set-up hook started (a webhook receiver): each wrote its pid to state/<name>.pid.
  local pidfile
  for pidfile in "${BENCH_STATE_DIR:-/nonexistent}"/*.pid; do
    [[ -f "$pidfile" ]] && kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
  done
  if [[ -n "$DAEMON_PID" ]] && kill -0 "$DAEMON_PID" 2>/dev/null; then
    kill -TERM "$DAEMON_PID" 2>/dev/null || true
    # server.drain_timeout_s=2 below: it is gone well within 10 s, or it is killed.
    for _ in $(seq 100); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$DAEMON_PID" 2>/dev/null || true
    wait "$DAEMON_PID" 2>/dev/null || true
  fi
  rm -rf "$STORAGE"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Fresh keys each run: nothing to leak, nothing to collide with another run.
BENCH_ENDPOINT_KEY="bench_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
BENCH_API_KEY="ak_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
# The server admin key, for set-up hooks that call admin ops (webhooks.endpoint.create).
BENCH_ADMIN_KEY="adm_$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export BENCH_ENDPOINT_KEY BENCH_API_KEY BENCH_ADMIN_KEY
export BENCH_LIB="$BENCH_DIR/lib/bench.lua"

DAEMON_ARGS=(
  --set server.host=127.0.0.1
  --set server.port=0                        # a free port; we read it from the banner
  --set "storage.path=$STORAGE"
  --set projects.generate_default=false      # only the project below: no key file written
  --set "projects.bench.endpoint_key=$BENCH_ENDPOINT_KEY"
  --set "projects.bench.api_key=$BENCH_API_KEY"
  --set "server.admin_key=$BENCH_ADMIN_KEY"
  --set "plugins.dir=$BUILD_DIR/plugins-out"
  --set "plugins.enabled=$PLUGINS_CSV"
  --set log.level=warning                    # no per-request logging in the measurement
  --set server.drain_timeout_s=2             # so the stop at the end is quick
)
# The set-up hooks sign up a dozen accounts from 127.0.0.1 and keep their id tokens for the whole
# run (with BENCH_ROUNDS=3 and the 1,000,000-document seed, longer than the default hour).
if [[ " ${PLUGINS[*]-} " == *" auth "* ]]; then
  DAEMON_ARGS+=(--set auth.rate.signup_per_address=off --set auth.id_token_ttl_s=86400)
fi
for kv in "${SETS[@]}"; do DAEMON_ARGS+=(--set "$kv"); done
for kv in ${BENCH_SET:-}; do DAEMON_ARGS+=(--set "$kv"); done

# Created here, not by the redirections below: those happen in the child, which may run after
# the first look for the banner.
: >"$OUT/daemon.out"
: >"$OUT/daemon.err"
# No config file: --config /dev/null keeps a developer's /etc/opbase/opbase.properties out, and
# OPBASE_* variables of the caller's shell are dropped for the same reason.
UNSET_OPBASE=()
while IFS= read -r name; do UNSET_OPBASE+=(-u "$name"); done < <(compgen -e | grep '^OPBASE_' || true)
env "${UNSET_OPBASE[@]}" "${DAEMON_PIN[@]}" "$DAEMON" --config /dev/null "${DAEMON_ARGS[@]}" \
  >"$OUT/daemon.out" 2>"$OUT/daemon.err" &
DAEMON_PID=$!

URL=""
for _ in $(seq $((START_TIMEOUT_S * 10))); do
  URL="$(sed -n 's/^listening on \(http:\/\/[^ ]*\)$/\1/p' "$OUT/daemon.out" | head -n1)"
  [[ -n "$URL" ]] && break
  kill -0 "$DAEMON_PID" 2>/dev/null || { cat "$OUT/daemon.err" >&2; die "the daemon exited at start"; }
  sleep 0.1
done
[[ -n "$URL" ]] || { cat "$OUT/daemon.err" >&2; die "no 'listening on' line within ${START_TIMEOUT_S}s"; }
[[ "$URL" == http://127.0.0.1:* ]] || die "the daemon listens on $URL, not 127.0.0.1"
export BENCH_URL="$URL"
echo "bench: daemon pid $DAEMON_PID at $URL, plugins '$PLUGINS_CSV', results in $OUT" >&2

# A scenario may need data or state before it is measured: bench/scenarios/<name>.setup.sh, run
# once now with BENCH_URL, BENCH_ENDPOINT_KEY, BENCH_API_KEY and BENCH_STATE_DIR in its
# environment. What it writes to BENCH_STATE_DIR/<file> the scenario reads with bench.state().
export BENCH_STATE_DIR="$OUT/state"
# The hooks may size their data by the points to come (refresh.setup.sh: sessions per wrk run).
export BENCH_CONNECTIONS="$CONNECTIONS" BENCH_ROUNDS="$ROUNDS" BENCH_WARMUP_S="$WARMUP_S" \
  BENCH_DURATION_S="$DURATION_S"
mkdir -p "$BENCH_STATE_DIR"
for s in "${SCENARIOS[@]}"; do
  hook="$BENCH_DIR/scenarios/$s.setup.sh"
  if [[ -f "$hook" ]]; then
    echo "bench: setup for $s" >&2
    timeout "$SETUP_TIMEOUT_S" bash "$hook" >"$OUT/setup-$s.log" 2>&1 ||
      { cat "$OUT/setup-$s.log" >&2; die "setup of scenario $s failed"; }
  fi
done

# ---- measurement ----------------------------------------------------------------------------
# wrk -t: never more threads than connections (wrk refuses), never more than the cores we have:
# on two cores wrk shares the CPU with the daemon, and a third thread only adds switching.
wrk_threads() { local c="$1" t="$MAX_WRK_THREADS"; ((c < t)) && t="$c"; echo "$t"; }

# The daemon's CPU time so far (user + system, in clock ticks), from /proc/<pid>/stat fields 14
# and 15 (counted after the ")" that ends the command name).
CLK_TCK="$(getconf CLK_TCK)"
daemon_cpu_ticks() { sed 's/^.*) //' "/proc/$DAEMON_PID/stat" | awk '{ print $12 + $13 }'; }

# run_wrk <scenario> <connections> <duration> <log> [VAR=value...]: sets RESULT to the RESULT
# line's fields as "key=value" words, plus cpu_us: the daemon's CPU microseconds per answered
# request. Throughput on two cores shared with other work swings by tens of percent from run to
# run; CPU per request swings much less, so it is the figure to compare when ops/s disagree.
# wrk's own --timeout is 2 s per request; the outer timeout bounds wrk itself. wrk runs in the
# background and we `wait` for it: a signal's trap runs at once during `wait`, while during a
# foreground command bash would hold it until the command ended (up to BENCH_DURATION).
run_wrk() {
  local s="$1" c="$2" d="$3" log="$4"; shift 4
  local limit=$(( $(to_seconds "$d") + 20 )) before after rc=0
  RESULT=""
  before="$(daemon_cpu_ticks)"
  # A scenario that prepares per-connection state in init() (refresh) reads these two.
  env "$@" BENCH_WRK_CONNECTIONS="$c" BENCH_WRK_THREADS="$(wrk_threads "$c")" \
    timeout -k 5 "$limit" "${WRK_PIN[@]}" wrk -t"$(wrk_threads "$c")" -c"$c" -d"$d" --latency \
    -s "$BENCH_DIR/scenarios/$s.lua" "$URL" >"$log" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || rc=$?
  WRK_PID=""
  after="$(daemon_cpu_ticks)"
  RESULT="$(sed -n 's/^RESULT //p' "$log" | head -n1)"
  if ((rc != 0)) || [[ -z "$RESULT" ]]; then
    echo "bench: wrk failed for $s at $c connections (exit $rc, see $log)" >&2
    RESULT=""
    return 1
  fi
  RESULT+=" cpu_us=$(awk -v t=$((after - before)) -v hz="$CLK_TCK" -v n="$(field requests "$RESULT")" \
    'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "-" }')"
}

field() {  # field <key> <"k=v k=v ..."> : one value, or "" when missing
  local k="$1" w
  for w in $2; do [[ "$w" == "$k="* ]] && { echo "${w#*=}"; return; }; done
  echo ""
}

TSV="$OUT/results.tsv"
printf 'round\tscenario\tconnections\twrk_threads\trps\tp50_ms\tp99_ms\terrors\tceiling_rps\tratio\tdaemon_cpu_us_per_op\n' >"$TSV"
printf 'bench: %s per point after %s; %s round(s); connections %s; daemon settings: %s\n' \
  "$DURATION" "$( ((WARMUP_S > 0)) && echo "a $WARMUP checked warm-up" || echo "no warm-up")" \
  "$ROUNDS" "$CONNECTIONS" "${BENCH_SET:-defaults}" >&2

for round in $(seq "$ROUNDS"); do
  declare -A ROW=()
  declare -A CEIL=()
  for c in $CONNECTIONS; do
    for s in "${SCENARIOS[@]}"; do
      tag="r$round-$s-c$c"
      # Warm-up: the same load, with every answer checked (BENCH_VALIDATE=1 turns on the Lua
      # response() check, which costs wrk CPU, so it is kept out of the measured run).
      if ((WARMUP_S > 0)); then
        if ! run_wrk "$s" "$c" "$WARMUP" "$OUT/$tag-warmup.log" BENCH_VALIDATE=1; then
          ROW[$s,$c]="FAILED(wrk)"; continue
        fi
        warm="$RESULT"
        wrong="$(field wrong "$warm")"
        if [[ -z "$wrong" || "$wrong" != 0 || "$(field checked "$warm")" == 0 ]]; then
          echo "bench: $s at $c connections answered wrongly in the warm-up: $(sed -n 's/^FIRST_WRONG //p' "$OUT/$tag-warmup.log")" >&2
          ROW[$s,$c]="FAILED(answers)"; continue
        fi
      fi
      if ! run_wrk "$s" "$c" "$DURATION" "$OUT/$tag.log"; then
        ROW[$s,$c]="FAILED(wrk)"; continue
      fi
      res="$RESULT"
      ROW[$s,$c]="$res"
      [[ "$s" == "$CEILING" ]] && CEIL[$c]="$(field rps "$res")"
      echo "bench: round $round $s c=$c: $res" >&2
    done
  done

  # The table: one line per scenario and connection count, the ceiling of the same round beside.
  echo
  echo "round $round of $ROUNDS: $DURATION per point, wrk threads min(connections, $MAX_WRK_THREADS), daemon ${BENCH_SET:-defaults}"
  printf '%-12s %5s %11s %9s %9s %7s %12s %7s %10s\n' scenario conns "ops/s" "p50 ms" "p99 ms" errors "ceiling/s" ratio "cpu us/op"
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
      cpu="$(field cpu_us "$res")"
      printf '%-12s %5s %11.0f %9.3f %9.3f %7s %12.0f %7s %10s%s\n' \
        "$s" "$c" "$rps" "$p50" "$p99" "$errors" "${ceil:-0}" "$ratio" "$cpu" "$mark"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$s" "$c" "$(wrk_threads "$c")" \
        "$rps" "$p50" "$p99" "$errors" "${ceil:-}" "$ratio" "$cpu" >>"$TSV"
    done
  done
  echo "(ratio = ops/s / ceiling ops/s at the same connections; '<' marks a ratio under ${TARGET_RATIO} at more than"
  echo " one connection; errors = non-2xx + socket errors + timeouts; cpu us/op = daemon CPU per request)"
  unset ROW CEIL
done

# Several rounds: the median of each figure over the rounds (the ratio is taken in each round,
# against that round's ceiling, then its median). A median ignores one round that a neighbour's
# build disturbed, which an average would not.
if ((ROUNDS > 1)); then
  echo
  echo "median of $ROUNDS rounds"
  printf '%-12s %5s %11s %9s %9s %7s %7s %10s\n' scenario conns "ops/s" "p50 ms" "p99 ms" errors ratio "cpu us/op"
  for s in "${SCENARIOS[@]}"; do
    for c in $CONNECTIONS; do
      awk -F'\t' -v s="$s" -v c="$c" '
        function median(a, n,   i, j, t) {
          for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
          return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
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
  awk '/^VmHWM|^VmRSS/ { printf "%s %.0f MB%s", ($1 == "VmHWM:" ? "daemon peak RSS" : "daemon RSS now"), $2 / 1024, ($1 == "VmHWM:" ? ", " : "\n") }' \
    "/proc/$DAEMON_PID/status"
fi

if [[ -s "$OUT/daemon.err" ]]; then
  echo "bench: the daemon wrote to stderr (see $OUT/daemon.err):" >&2
  tail -n 5 "$OUT/daemon.err" >&2
fi
echo "bench: results in $TSV" >&2
