# shellcheck shell=bash disable=SC2034  # (the variables set here are the scripts')
# bench/lib/bench.sh: what the benchmark scripts share, sourced by each of them (bench/*.sh).
# It holds, once: the settings' parsing, the Release build of the bench tree, the daemon's start
# on a free port of 127.0.0.1 (with more daemons behind nginx on a shared store when a script
# asks) and its stop, the stop of everything a run started when the script exits (a trap set
# here, whatever the exit), wrk runs and their RESULT line, and the daemon's CPU time, resident
# set and metrics.
#
# A script sets BENCH_NAME (the prefix of its messages) and then sources this file:
#   BENCH_NAME=bench-files
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
# Sourcing defines ROOT and BENCH_DIR, BUILD_DIR (BENCH_BUILD_DIR, default build-bench/), CORES,
# MAX_WRK_THREADS (BENCH_WRK_THREADS, default min(2, cores)) and the time limits below, which a
# script may change after sourcing, and sets the EXIT, INT and TERM traps.
#
# What the cleanup stops, each with a bounded wait (TERM, STOP_TIMEOUT_S, then KILL): WRK_PID,
# every pid given to bench_helper, every pid a set-up hook wrote to $BENCH_STATE_DIR/<name>.pid,
# then OTHER_DAEMON_PIDS and DAEMON_PID; then it removes the folders of bench_temp_dir.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=nginx.sh
source "$ROOT/bench/lib/nginx.sh"
BENCH_DIR="$ROOT/bench"
BENCH_NAME="${BENCH_NAME:-bench}"

BUILD_DIR="${BENCH_BUILD_DIR:-$ROOT/build-bench}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
CORES="$(nproc)"
MAX_WRK_THREADS="${BENCH_WRK_THREADS:-$((CORES < 2 ? CORES : 2))}"
CLK_TCK="$(getconf CLK_TCK)"

BUILD_TIMEOUT_S=1800   # a cold Release build on two busy cores takes minutes, never half an hour
START_TIMEOUT_S=30     # the daemon prints its URL well under a second after exec
# A scenario's optional set-up hook (seeding data, say): the big_* one seeds 1,000,000 documents
# and waits for two automatic indexes over them, about 8 minutes on two cores.
SETUP_TIMEOUT_S="${BENCH_SETUP_TIMEOUT_S:-1200}"
STOP_TIMEOUT_S=30      # TERM to KILL, for the daemon and every helper

DAEMON_PID=""
OTHER_DAEMON_PIDS=()   # daemons beside DAEMON_PID on its store (bench_start_other_daemons)
WRK_PID=""
HELPER_PIDS=()
TEMP_DIRS=()
DAEMON_PIN=()          # taskset -c <cpus> before the daemon / wrk, when a script pins them
WRK_PIN=()
BENCH_CMAKE_FLAGS=()   # extra configure flags of the bench tree (vdb.sh: OPBASE_BUILD_BENCH=ON)

say() { echo "$BENCH_NAME: $*" >&2; }
die() { say "$*"; exit 1; }

# ---- settings -------------------------------------------------------------------------------
# wrk durations are "<n>[s|m|h]"; the time limits need seconds.
to_seconds() {
  local v="$1"
  case "$v" in
    *h) echo $((${v%h} * 3600)) ;;
    *m) echo $((${v%m} * 60)) ;;
    *s) echo "${v%s}" ;;
    *) echo "$v" ;;
  esac
}

# bench_durations <default duration> <default warm-up>: DURATION and WARMUP from BENCH_DURATION
# and BENCH_WARMUP, and DURATION_S and WARMUP_S in seconds; a run of 0 s is refused.
bench_durations() {
  DURATION="${BENCH_DURATION:-$1}"
  WARMUP="${BENCH_WARMUP:-$2}"
  DURATION_S="$(to_seconds "$DURATION")"
  WARMUP_S="$(to_seconds "$WARMUP")"
  [[ "$DURATION_S" =~ ^[0-9]+$ && "$DURATION_S" -gt 0 ]] || die "BENCH_DURATION '$DURATION' is not <n>[s|m|h]"
  [[ "$WARMUP_S" =~ ^[0-9]+$ ]] || die "BENCH_WARMUP '$WARMUP' is not <n>[s|m|h]"
}

require_positive() {  # require_positive <variable name...>: each holds a number above 0
  local v
  for v in "$@"; do
    [[ "${!v}" =~ ^[0-9]+$ && "${!v}" -gt 0 ]] || die "$v must be a positive number, not '${!v}'"
  done
}

require_tools() {  # require_tools <command...>
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || die "$tool is not installed (run packaging/deps.sh)"
  done
}

# ---- the Release tree -----------------------------------------------------------------------
# Its own build dir: Release flags, no tests (faster), the examples on (echo is the no-op op).
bench_configure() {
  local generator=()
  if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  timeout "$BUILD_TIMEOUT_S" cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DOPBASE_BUILD_TESTS=OFF -DOPBASE_BUILD_EXAMPLES=ON \
    -DOPBASE_BUILD_TEST_PLUGINS=OFF "${BENCH_CMAKE_FLAGS[@]}"
}

# bench_compile <what> [target...]: configures the tree and builds the targets (all without
# any), logging to BENCH_BUILD_LOG (default <build dir>/<BENCH_NAME>-build.log); a failure ends
# the script with the log's tail.
bench_compile() {
  local what="$1"; shift
  local log="${BENCH_BUILD_LOG:-$BUILD_DIR/$BENCH_NAME-build.log}" targets=()
  (($# == 0)) || targets=(--target "$@")
  mkdir -p "$BUILD_DIR"
  say "building $what in $BUILD_DIR (log: $log)"
  { bench_configure && timeout "$BUILD_TIMEOUT_S" cmake --build "$BUILD_DIR" --parallel "$CORES" "${targets[@]}"; } \
    >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "the $what build failed (see $log)"; }
}

# bench_build [target...]: the Release build of those targets, unless BENCH_SKIP_BUILD=1 (the
# tree is then used as it is).
bench_build() {
  [[ "${BENCH_SKIP_BUILD:-0}" == 1 ]] || bench_compile Release "$@"
}

# bench_build_tool <tool> [plugin...]: the Release tree with the bench helpers
# (OPBASE_BUILD_BENCH, bench/tools/), or with BENCH_SKIP_BUILD=1 the tree as it is, <tool> built
# in it when it has none; then the daemon and the plugins (bench_require_daemon). Sets TOOL.
bench_build_tool() {
  local tool="$1"; shift
  BENCH_CMAKE_FLAGS=(-DOPBASE_BUILD_BENCH=ON)
  if [[ "${BENCH_SKIP_BUILD:-0}" != "1" ]]; then
    bench_build
  elif [[ ! -x "$BUILD_DIR/bench/$tool" ]]; then
    bench_compile "$tool" "$tool"
  fi
  bench_require_daemon "$@"
  TOOL="$BUILD_DIR/bench/$tool"
  [[ -x "$TOOL" ]] || die "no $tool at $TOOL"
}

# bench_require_daemon [plugin...]: DAEMON, the built daemon, and each plugin's .so. Only shipped
# plugins: every figure is one users would see (no test-only plugin stands in).
bench_require_daemon() {
  local p
  DAEMON="$BUILD_DIR/host/opbase"
  [[ -x "$DAEMON" ]] || die "no daemon at $DAEMON (build failed, or BENCH_SKIP_BUILD=1 on an empty dir)"
  for p in "$@"; do
    [[ -f "$BUILD_DIR/plugins-out/$p.so" ]] || die "plugin $p was not built ($BUILD_DIR/plugins-out/$p.so)"
  done
}

# ---- where things go ------------------------------------------------------------------------
# bench_out <prefix>: OUT, BENCH_OUT or <build dir>/bench-results/<prefix><time>, and in it the
# set-up hooks' BENCH_STATE_DIR (what a hook writes there a scenario reads with bench.state()).
bench_out() {
  OUT="${BENCH_OUT:-$BUILD_DIR/bench-results/$1$(date +%Y%m%d-%H%M%S)}"
  mkdir -p "$OUT"
  export BENCH_STATE_DIR="$OUT/state"
  mkdir -p "$BENCH_STATE_DIR"
}

# bench_out_root <name>: OUT of a script that runs bench/run.sh several times (BENCH_OUT_ROOT,
# default build-bench/bench-results/<name>-<time>); each run goes to a folder in it.
bench_out_root() {
  OUT="${BENCH_OUT_ROOT:-$ROOT/build-bench/bench-results/$1-$(date +%Y%m%d-%H%M%S)}"
  mkdir -p "$OUT"
}

# bench_temp_dir <prefix>: BENCH_TEMP, a new folder under TMPDIR, removed on exit.
bench_temp_dir() {
  BENCH_TEMP="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
  TEMP_DIRS+=("$BENCH_TEMP")
}

# ---- stopping -------------------------------------------------------------------------------
stop_pid() {  # stop_pid <pid>: TERM, a bounded wait, then KILL
  local pid="$1"
  [[ -n "$pid" ]] || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq $((STOP_TIMEOUT_S * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

stop_daemon() {  # the daemon's drain is 2 s (server.drain_timeout_s): it is gone well in time
  local pid
  for pid in "${OTHER_DAEMON_PIDS[@]}"; do stop_pid "$pid"; done
  OTHER_DAEMON_PIDS=()
  stop_pid "$DAEMON_PID"
  DAEMON_PID=""
}

bench_helper() { HELPER_PIDS+=("$1"); }  # bench_helper <pid>: stopped on exit

bench_cleanup() {
  local rc=$? pid pidfile dir
  # A wrk still running (we were interrupted): stop it first, it is talking to the daemon.
  stop_pid "$WRK_PID"
  for pid in "${HELPER_PIDS[@]}"; do stop_pid "$pid"; done
  # Helpers a set-up hook started (a webhook receiver): each wrote its pid to state/<name>.pid.
  for pidfile in "${BENCH_STATE_DIR:-/nonexistent}"/*.pid; do
    [[ -f "$pidfile" ]] && stop_pid "$(cat "$pidfile")"
  done
  stop_daemon
  for dir in "${TEMP_DIRS[@]}"; do rm -rf "$dir"; done
  exit "$rc"
}
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the daemon -----------------------------------------------------------------------------
random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }  # random_hex <bytes>

# Fresh keys each run: nothing to leak, nothing to collide with another run.
bench_keys() {
  BENCH_ENDPOINT_KEY="bench_$(random_hex 8)"
  BENCH_API_KEY="ak_$(random_hex 16)"
  export BENCH_ENDPOINT_KEY BENCH_API_KEY
  export BENCH_LIB="$BENCH_DIR/lib/bench.lua"
}

# bench_daemon_args <storage dir> <plugins, comma-separated>: DAEMON_ARGS, the settings every
# bench daemon has; a script adds its own after them.
bench_daemon_args() {
  DAEMON_ARGS=(
    --set server.host=127.0.0.1
    --set server.port=0                        # a free port; bench_start_daemon reads it
    --set "storage.path=$1"
    --set projects.generate_default=false      # only the project below: no key file written
    --set "projects.bench.endpoint_key=$BENCH_ENDPOINT_KEY"
    --set "projects.bench.api_key=$BENCH_API_KEY"
    --set "plugins.dir=$BUILD_DIR/plugins-out"
    --set "plugins.enabled=$2"
    --set log.level=warning                    # no per-request logging in the measurement
    --set server.drain_timeout_s=2             # so the stop at the end is quick
  )
  # The set-up hooks sign accounts up from 127.0.0.1 and keep their id tokens for the whole run
  # (longer than the default hour with the biggest seeds).
  if [[ ",$2," == *",auth,"* ]]; then
    DAEMON_ARGS+=(--set auth.rate.signup_per_address=off --set auth.id_token_ttl_s=86400)
  fi
}

# banner_url <daemon stdout>: the URL of its "listening on http://HOST:PORT" line, "" before it.
# Only whole lines count (read skips a last line without its newline, half written), and only
# that line: the daemon prints others after it ("plugins loaded: ...").
banner_url() {
  local line
  while IFS= read -r line; do
    if [[ "$line" =~ ^listening\ on\ (http://[^\ ]+)$ ]]; then
      echo "${BASH_REMATCH[1]}"
      return 0
    fi
  done <"$1"
}

# bench_start_daemon <log name> <timeout s>: starts DAEMON with DAEMON_ARGS, its output in
# OUT/<log name>.out and .err; sets DAEMON_PID, URL (exported as BENCH_URL) and LISTEN_S, the
# seconds from exec to its "listening on" line (printed once every plugin has started). Past
# the timeout: answers 1, the daemon still running. No config file: --config /dev/null keeps a
# developer's /etc/opbase/opbase.properties out, and the caller's OPBASE_* variables are dropped.
bench_start_daemon() {
  local out="$OUT/$1.out" err="$OUT/$1.err" timeout_s="$2" started deadline name unset_opbase=()
  while IFS= read -r name; do unset_opbase+=(-u "$name"); done < <(compgen -e | grep '^OPBASE_' || true)
  # Created here, not by the redirections below: those happen in the child, which may run after
  # the first look for the banner.
  : >"$out"
  : >"$err"
  started="$(now)"
  env "${unset_opbase[@]}" "${DAEMON_PIN[@]}" "$DAEMON" --config /dev/null "${DAEMON_ARGS[@]}" \
    >"$out" 2>"$err" &
  DAEMON_PID=$!
  URL=""
  deadline=$(($(date +%s) + timeout_s))
  while (($(date +%s) < deadline)); do
    URL="$(banner_url "$out")"
    [[ -n "$URL" ]] && break
    kill -0 "$DAEMON_PID" 2>/dev/null || { cat "$err" >&2; die "the daemon exited at start"; }
    sleep 0.05
  done
  LISTEN_S="$(elapsed "$started")"
  if [[ -z "$URL" ]]; then
    cat "$err" >&2
    say "no 'listening on' line within ${timeout_s}s"
    return 1
  fi
  [[ "$URL" == http://127.0.0.1:* ]] || die "the daemon listens on $URL, not 127.0.0.1"
  export BENCH_URL="$URL"
}

# bench_start_other_daemons <count> <storage dir> <timeout s>: starts <count> more daemons
# beside DAEMON_PID with its DAEMON_ARGS, each with a storage.path of its own under <storage
# dir> (OTHER_DAEMON_PIDS, logs OUT/daemon<n>.*), and nginx in front of them all
# (bench/lib/nginx.sh): URL and BENCH_URL become the balancer's. The daemons share what the
# first one stores only when the settings put it in a store they can share (MongoDB).
bench_start_other_daemons() {
  local count="$1" storage="$2" timeout_s="$3" first_pid="$DAEMON_PID" urls=("$URL") n
  local args=("${DAEMON_ARGS[@]}")
  for n in $(seq 2 $((count + 1))); do
    DAEMON_ARGS=("${args[@]}" --set "storage.path=$storage/daemon$n")
    bench_start_daemon "daemon$n" "$timeout_s" || return 1
    OTHER_DAEMON_PIDS+=("$DAEMON_PID")
    urls+=("$URL")
  done
  DAEMON_ARGS=("${args[@]}")
  DAEMON_PID="$first_pid"
  nginx_start "$OUT/balancer" "$(nginx_balancer_lines "${urls[@]}")" || return 1
  bench_helper "$NGINX_PID"
  URL="$NGINX_URL"
  export BENCH_URL="$URL"
}

# ---- scenarios ------------------------------------------------------------------------------
# scenario_header <scenario> <field>: the values of every "-- <field>:" line of its .lua
# ("-- plugins: a, b", "-- set: key=value": what the daemon needs for it).
scenario_header() {
  sed -n "s/^--[[:space:]]*$2:[[:space:]]*//p" "$BENCH_DIR/scenarios/$1.lua"
}

# run_setup_hook <file>: bench/scenarios/<file> (<scenario>.setup.sh, or a hook several
# scenarios share), its output in OUT/setup-<file>.log, within SETUP_TIMEOUT_S.
run_setup_hook() {
  local rc=0
  timeout "$SETUP_TIMEOUT_S" bash "$BENCH_DIR/scenarios/$1" >"$OUT/setup-$1.log" 2>&1 || rc=$?
  ((rc == 0)) && return 0
  cat "$OUT/setup-$1.log" >&2
  ((rc == 124)) && die "the set-up $1 did not end within $SETUP_TIMEOUT_S s (BENCH_SETUP_TIMEOUT_S)"
  die "the set-up $1 failed (exit $rc)"
}

# ---- time, load, CPU, memory, metrics -------------------------------------------------------
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }  # since a now
load1() { cut -d' ' -f1 /proc/loadavg; }
load_average() { cut -d' ' -f1-3 /proc/loadavg; }
machine_summary() { echo "$CORES cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"; }

# proc_cpu_ticks <names> <stat files...>: the CPU time (user + system, in clock ticks) of the
# processes of those /proc/<pid>/stat files, fields 14 and 15 (counted after the ")" that ends
# the command name), summed; with <names> (" a b "), of the processes so named only.
proc_cpu_ticks() {
  local names="$1"; shift
  cat "$@" 2>/dev/null | awk -v names="$names" '
    { open = index($0, "("); shut = index($0, ") ")
      if (names != "" && index(names, " " substr($0, open + 1, shut - open - 1) " ") == 0) next
      split(substr($0, shut + 2), f, " "); ticks += f[12] + f[13] }
    END { print ticks + 0 }'
}

# The daemon's CPU time so far; with other daemons on the store, the sum over all of them.
daemon_cpu_ticks() {
  local pid files=()
  for pid in "$DAEMON_PID" "${OTHER_DAEMON_PIDS[@]}"; do files+=("/proc/$pid/stat"); done
  proc_cpu_ticks "" "${files[@]}"
}
cpu_seconds_since() {  # cpu_seconds_since <ticks>: the daemon's CPU seconds since then
  awk -v t=$(($(daemon_cpu_ticks) - $1)) -v hz="$CLK_TCK" 'BEGIN { printf "%.2f", t / hz }'
}

# The CPU time so far of the store's server processes: every process whose command name is one
# of BENCH_SERVER_COMMANDS ("ferretdb postgres"). A process that ends between two readings
# takes its time with it; a server's pooled connections last the run.
server_cpu_ticks() { proc_cpu_ticks " ${BENCH_SERVER_COMMANDS:-} " /proc/[0-9]*/stat; }

daemon_status_kb() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$DAEMON_PID/status"; }  # VmRSS, VmHWM...
rss_mb() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$DAEMON_PID/status"; }
hwm_mb() { awk '/^VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$DAEMON_PID/status"; }

# metric <name>: its value in /metrics (first line of that name), or "" when absent.
metric() {
  local text
  text="$(curl -s --max-time 5 "$URL/metrics" || true)"
  awk -v m="$1" '$1 == m || index($1, m "{") == 1 { printf "%.0f\n", $2; exit }' <<<"$text"
}

# An awk function for the scripts' tables: median(a, n) of a[1..n] (sorts a). A median ignores
# one run that a neighbour's build disturbed, which an average would not.
BENCH_AWK_MEDIAN='
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }'

# ---- wrk ------------------------------------------------------------------------------------
field() {  # field <key> <"k=v k=v ..."> : one value, or "" when missing
  local k="$1" w
  for w in $2; do [[ "$w" == "$k="* ]] && { echo "${w#*=}"; return; }; done
  echo ""
}

# wrk -t: never more threads than connections (wrk refuses), never more than the cores we have:
# on two cores wrk shares the CPU with the daemon, and a third thread only adds switching.
wrk_threads() { local c="$1" t="$MAX_WRK_THREADS"; ((c < t)) && t="$c"; echo "$t"; }

# run_wrk <scenario> <connections> <duration> <log> [VAR=value...]: sets RESULT to the RESULT
# line's fields as "key=value" words, plus cpu_us: the daemon's CPU microseconds per answered
# request (and server_us, the server processes', with BENCH_SERVER_COMMANDS). Throughput on two
# cores shared with other work swings by tens of percent from run to run; CPU per request swings
# much less, so it is the figure to compare when ops/s disagree.
# wrk's own --timeout is 2 s per request; the outer timeout bounds wrk itself. wrk runs in the
# background and we `wait` for it: a signal's trap runs at once during `wait`, while during a
# foreground command bash would hold it until the command ended (up to BENCH_DURATION).
run_wrk() {
  local s="$1" c="$2" d="$3" log="$4"; shift 4
  local limit=$(($(to_seconds "$d") + 20)) before after server_before server_after rc=0 url="$URL" url_state
  RESULT=""
  # A scenario aimed at another server (nginx) names the state file its set-up wrote the URL to.
  url_state="$(scenario_header "$s" url-state)"
  [[ -n "$url_state" ]] && url="$(cat "$BENCH_STATE_DIR/$url_state")"
  before="$(daemon_cpu_ticks)"
  [[ -n "${BENCH_SERVER_COMMANDS:-}" ]] && server_before="$(server_cpu_ticks)"
  # A scenario that prepares per-connection state in init() (refresh) reads these two.
  env "$@" BENCH_WRK_CONNECTIONS="$c" BENCH_WRK_THREADS="$(wrk_threads "$c")" \
    timeout -k 5 "$limit" "${WRK_PIN[@]}" wrk -t"$(wrk_threads "$c")" -c"$c" -d"$d" --latency \
    -s "$BENCH_DIR/scenarios/$s.lua" "$url" >"$log" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || rc=$?
  WRK_PID=""
  after="$(daemon_cpu_ticks)"
  [[ -n "${BENCH_SERVER_COMMANDS:-}" ]] && server_after="$(server_cpu_ticks)"
  RESULT="$(sed -n 's/^RESULT //p' "$log" | head -n1)"
  if ((rc != 0)) || [[ -z "$RESULT" ]]; then
    say "wrk failed for $s at $c connections (exit $rc, see $log)"
    RESULT=""
    return 1
  fi
  RESULT+=" cpu_us=$(per_request $((after - before)))"
  [[ -n "${BENCH_SERVER_COMMANDS:-}" ]] && RESULT+=" server_us=$(per_request $((server_after - server_before)))"
  return 0
}

# per_request <clock ticks>: those ticks in microseconds per request of RESULT.
per_request() {
  awk -v t="$1" -v hz="$CLK_TCK" -v n="$(field requests "$RESULT")" \
    'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "-" }'
}

# measure <scenario> <connections> <tag> [label]: the warm-up of WARMUP with every answer checked
# (BENCH_VALIDATE=1 turns on the Lua response() check, which costs wrk CPU, so it is kept out of
# the measured run), then the measured run of DURATION; logs OUT/<tag>-warmup.log and
# OUT/<tag>.log. Sets RESULT, and MEASURE_FAILED: "" when measured, else "wrk" or "answers"
# (a wrong answer in the warm-up), RESULT being "" then. Says "<label> c=<connections>: RESULT"
# (the label defaults to the scenario).
measure() {
  local s="$1" c="$2" tag="$3" label="${4:-$1}"
  MEASURE_FAILED=""
  if ((WARMUP_S > 0)); then
    run_wrk "$s" "$c" "$WARMUP" "$OUT/$tag-warmup.log" BENCH_VALIDATE=1 || { MEASURE_FAILED=wrk; return 0; }
    if [[ "$(field wrong "$RESULT")" != 0 || "$(field checked "$RESULT")" == 0 ]]; then
      say "$s at $c connections answered wrongly in the warm-up: $(sed -n 's/^FIRST_WRONG //p' "$OUT/$tag-warmup.log")"
      RESULT=""
      MEASURE_FAILED=answers
      return 0
    fi
  fi
  run_wrk "$s" "$c" "$DURATION" "$OUT/$tag.log" || { MEASURE_FAILED=wrk; return 0; }
  say "$label c=$c: $RESULT"
}

# ---- scripts made of bench/run.sh runs ------------------------------------------------------
# run_bench <scenario> [tag]: one bench/run.sh of that scenario, its results in OUT/<tag> (the
# tag defaults to the scenario); its table and report go to the terminal and OUT/<tag>.txt.
run_bench() {
  local tag="${2:-$1}"
  echo "== $1${2:+ ($2)}"
  BENCH_SCENARIOS="$1" BENCH_OUT="$OUT/$tag" bash "$BENCH_DIR/run.sh" | tee "$OUT/$tag.txt"
  export BENCH_SKIP_BUILD=1  # built once
}
