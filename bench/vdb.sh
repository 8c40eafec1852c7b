#!/usr/bin/env bash
# bench/vdb.sh: the vector database benchmark (`make bench-vdb`). One command does all of it:
#   1. builds Release in build-bench/ (as bench/run.sh does, plus the bench helpers: vdb_bench),
#   2. starts the daemon (auth, ai, vdb) on a free port of 127.0.0.1 with a throw-away store,
#   3. signs three users up and inserts 100,000 seeded random unit vectors of 1536 dimensions for
#      each (batches of 100 over 4 keep-alive connections): inserted records/s,
#   4. waits until every record is in its collection's HNSW graph (opbase_vdb_records_waiting_
#      for_graph = 0), with the daemon's RSS after the load and after the graph,
#   5. vdb.search with a given vector at 1 and 16 connections (wrk), the answers' own time split
#      (meta.processing_time_ms), and recall@10 of 200 query vectors against the exact top 10
#      that vdb_bench computes over u0's 100,000 vectors,
#   6. vdb.search with a query text at 16 connections (wrk), and the model's time apart
#      (meta.embedding_time_ms, read by vdb_bench probe),
#   7. restarts the daemon on the same store: the time until it listens (it loads every record
#      from the store first), the time until the graphs are built again, RSS, recall again,
#   8. inserts 4,900 records into a new collection twice, vectors as JSON numbers and as base64
#      (under vdb.graph_from, even at 5,000: the insert path without a graph's indexer),
#   9. prints every figure beside the /healthz ceiling (wrk, 16 connections) measured in the same
#      phase of the run, with the ratio, and the machine's load average at each measurement.
# Every wait has a time limit and the daemon is stopped on exit (trap). Traffic goes to
# 127.0.0.1 only. At the defaults a run takes about 5 minutes on 2 cores; with graphs
# (BENCH_SET=vdb.graph_from=5000) about 23 (bench/README.md, "Vector search", says where the
# time goes).
#
# Settings (environment variables):
#   BENCH_VDB_RECORDS=100000      records per user (lower for a quick try, e.g. 2000)
#   BENCH_VDB_DIMENSIONS=1536     dimensions of the vectors (e.g. 64 for a quick try)
#   BENCH_VDB_USERS=3             users, each with BENCH_VDB_RECORDS records; u0 is searched
#   BENCH_VDB_QUERIES=200         query vectors of the recall (and of the wrk scenario)
#   BENCH_VDB_SEED=1              seed of every vector and text
#   BENCH_VDB_LOAD_CONNECTIONS=4  connections of the insert load
#   BENCH_VDB_CONNECTIONS="1 16"  connections of the vector search (16 is the target's)
#   BENCH_VDB_VECTOR_FORMAT=numbers  how the load and the searches send vectors: numbers (JSON
#                                 arrays) or base64 (of the float32 values)
#   BENCH_VDB_GRAPH_TIMEOUT_S=900 longest wait for the graphs (each time), then carry on
#   BENCH_VDB_RESTART_TIMEOUT_S=600  longest wait for the restarted daemon to listen (it loads
#                                 every record first); past it the restart is reported as not
#                                 done, the daemon is stopped and the table printed
#   BENCH_DURATION=15s, BENCH_WARMUP=3s   each wrk point (the warm-up's answers are checked)
#   BENCH_WRK_THREADS             most wrk threads, default min(2, cores)
#   BENCH_SET="k=v ..."           extra daemon settings (e.g. vdb.graph_from=500 for a quick try)
#   BENCH_BUILD_DIR=build-bench   BENCH_SKIP_BUILD=1 reuses it (vdb_bench is built if missing)
#   BENCH_OUT=<dir>               where the logs go (default <build dir>/bench-results/vdb-<time>)
set -euo pipefail

BENCH_NAME=bench-vdb
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

RECORDS="${BENCH_VDB_RECORDS:-100000}"
DIMENSIONS="${BENCH_VDB_DIMENSIONS:-1536}"
USERS="${BENCH_VDB_USERS:-3}"
QUERIES="${BENCH_VDB_QUERIES:-200}"
SEED="${BENCH_VDB_SEED:-1}"
LOAD_CONNECTIONS="${BENCH_VDB_LOAD_CONNECTIONS:-4}"
FORMAT="${BENCH_VDB_VECTOR_FORMAT:-numbers}"
FORMAT_RECORDS=4900        # the format comparison: under vdb.graph_from, even at 5,000
SEARCH_CONNECTIONS="${BENCH_VDB_CONNECTIONS:-1 16}"
GRAPH_TIMEOUT_S="${BENCH_VDB_GRAPH_TIMEOUT_S:-900}"
START_TIMEOUT_S=30         # the first start, on an empty store
RESTART_TIMEOUT_S="${BENCH_VDB_RESTART_TIMEOUT_S:-600}"
CEILING_CONNECTIONS=16
TEXT_RECORDS=1000          # the text collection of a quick try with other dimensions than 1536
OFFLINE_DIMENSIONS=1536    # the ai plugin's offline model
STEP_TIMEOUT_S=1800        # a load or a recall as a whole
STOP_TIMEOUT_S=60

require_positive RECORDS DIMENSIONS USERS QUERIES SEED LOAD_CONNECTIONS GRAPH_TIMEOUT_S RESTART_TIMEOUT_S
((RECORDS >= 10)) || die "BENCH_VDB_RECORDS must be at least 10 (recall@10)"
[[ "$FORMAT" == numbers || "$FORMAT" == base64 ]] || die "BENCH_VDB_VECTOR_FORMAT is numbers or base64"
bench_durations 15s 3s
require_tools wrk curl cmake

# ---- build ----------------------------------------------------------------------------------
# The Release tree of bench/run.sh, with bench/tools/vdb_bench.cpp.
bench_build_tool vdb_bench auth ai vdb
bench_out vdb-
SUMMARY="$OUT/summary.tsv"

# ---- daemon ---------------------------------------------------------------------------------
bench_temp_dir opbase-bench-vdb
STORAGE="$BENCH_TEMP"
bench_keys
bench_daemon_args "$STORAGE" auth,ai,vdb
DAEMON_ARGS+=(--set vdb.embed_rate_limit=off)
# A batch of 100 vectors of 1,536 numbers is 1.9 MB of JSON and 153,700 JSON values, within the
# defaults (4 MiB, 200,000 values); more dimensions need more.
if ((100 * (DIMENSIONS + 3) + 16 > 200000)); then
  DAEMON_ARGS+=(--set "server.max_json_values=$((100 * (DIMENSIONS + 3) + 1000))")
fi
if ((100 * DIMENSIONS * 16 > 4194304)); then
  DAEMON_ARGS+=(--set "server.max_body_bytes=$((100 * DIMENSIONS * 16 + 65536))")
fi
for kv in ${BENCH_SET:-}; do DAEMON_ARGS+=(--set "$kv"); done

# start_daemon <tag> <timeout s>: the daemon on STORAGE, its logs OUT/daemon-<tag>.*; LISTEN_S
# is the time until it listens, which it does once every plugin has started, so after vdb has
# loaded every record from the store. Past the timeout: answers 1, the daemon still running.
start_daemon() {
  bench_start_daemon "daemon-$1" "$2" || return 1
  say "daemon pid $DAEMON_PID at $URL listening after ${LISTEN_S}s (logs: $OUT/daemon-$1.*)"
}

note_load() { say "load average before $1: $(load_average)"; }

# wait_for_graph <expected records>: until the daemon holds them all and none waits for its
# graph, at most GRAPH_TIMEOUT_S; sets GRAPH_S (or "timeout"), WAITING (records still waiting)
# and GRAPH_RATE (records moved into graphs per second, from the first look that saw them all).
wait_for_graph() {
  local expected="$1" started records waiting last_say=0 deadline first_waiting="" first_at=""
  started="$(now)"
  deadline=$(( $(date +%s) + GRAPH_TIMEOUT_S ))
  GRAPH_S="timeout"
  GRAPH_RATE=""
  while (( $(date +%s) < deadline )); do
    records="$(metric opbase_vdb_records)"
    waiting="$(metric opbase_vdb_records_waiting_for_graph)"
    WAITING="${waiting:-?}"
    if [[ -z "$first_at" && -n "$records" && -n "$waiting" ]] && ((records >= expected)); then
      first_waiting="$waiting"
      first_at="$(now)"
    fi
    if [[ -n "$first_at" ]] && (( $(awk -v a="$first_at" -v b="$(now)" 'BEGIN { print (b - a >= 1) }') )); then
      GRAPH_RATE="$(awk -v w0="$first_waiting" -v w="$waiting" -v a="$first_at" -v b="$(now)" 'BEGIN { printf "%.0f", (w0 - w) / (b - a) }')"
    fi
    if [[ -n "$records" && -n "$waiting" ]] && ((records >= expected && waiting == 0)); then
      GRAPH_S="$(elapsed "$started")"
      return 0
    fi
    if (( $(date +%s) - last_say >= 30 )); then
      say "  graph: ${records:-?} records held, ${waiting:-?} waiting for the graph ($(elapsed "$started")s)"
      last_say="$(date +%s)"
    fi
    sleep 0.5
  done
  say "the graphs were not built within ${GRAPH_TIMEOUT_S}s ($WAITING records waiting, ${GRAPH_RATE:-?} moved a second)"
}

# ---- measurement helpers --------------------------------------------------------------------
# ceiling <phase>: /healthz at CEILING_CONNECTIONS; sets CEIL[<phase>].
declare -A CEIL=() CEIL_LOAD=()
ceiling() {
  note_load "the ceiling ($1)"
  CEIL_LOAD[$1]="$(load1)"
  measure healthz "$CEILING_CONNECTIONS" "ceiling-$1"
  CEIL[$1]="$(field rps "$RESULT")"
  [[ -n "${CEIL[$1]}" ]] || die "the /healthz ceiling failed (see $OUT/ceiling-$1.log)"
}

# One row of the summary: measure, value, target, phase (whose ceiling is beside it), rate to
# divide by that ceiling ("" for figures that are not rates), load average at the measurement.
printf 'measure\tvalue\ttarget\tceiling_rps\tratio\tload1\n' >"$SUMMARY"
row() {
  local name="$1" value="$2" target="$3" phase="$4" rate="$5" load="$6" ceil ratio="-"
  ceil="${CEIL[$phase]:-}"
  if [[ -n "$rate" && -n "$ceil" ]]; then
    ratio="$(awk -v a="$rate" -v b="$ceil" 'BEGIN { if (b > 0) printf "%.3g", a / b; else print "-" }')"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$value" "$target" "${ceil:-"-"}" "$ratio" "$load" >>"$SUMMARY"
}
fmt() { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "") print "-"; else printf f, v }'; }

RAW_MB="$(awk -v u="$USERS" -v n="$RECORDS" -v d="$DIMENSIONS" 'BEGIN { printf "%.0f", u * n * d * 4 / 1048576 }')"
TOTAL=$((USERS * RECORDS))
say "$USERS users x $RECORDS records x $DIMENSIONS dimensions ($RAW_MB MiB of float32); $CORES cores; results in $OUT"
say "machine: $(machine_summary); load average $(load_average)"

# ---- 1. a fresh daemon, the users, the query bodies -----------------------------------------
BENCH_STARTED="$(now)"
start_daemon first "$START_TIMEOUT_S" || die "the daemon did not start"
EMPTY_LISTEN_S="$LISTEN_S"
sleep 1
RSS_EMPTY="$(rss_mb)"
for u in $(seq 0 $((USERS - 1))); do
  timeout 120 python3 "$BENCH_DIR/scenarios/lib/bench_api.py" user "u$u" ||
    die "signing user u$u up failed"
done
TOKENS="$(for u in $(seq 0 $((USERS - 1))); do printf '%s,' "$BENCH_STATE_DIR/token-u$u"; done)"
"$TOOL" vector-queries --out "$BENCH_STATE_DIR/vdb-vector-queries.jsonl" --count "$QUERIES" \
  --dimensions "$DIMENSIONS" --seed "$SEED" --format "$FORMAT"
TEXT_COLLECTION=bench_vectors
((DIMENSIONS == OFFLINE_DIMENSIONS)) || TEXT_COLLECTION=bench_text
"$TOOL" text-queries --out "$BENCH_STATE_DIR/vdb-text-queries.jsonl" --count 256 --seed "$SEED" \
  --collection "$TEXT_COLLECTION"

# ---- 2. inserts -----------------------------------------------------------------------------
ceiling insert
note_load "the inserts"
INSERT_LOAD="$(load1)"
timeout "$STEP_TIMEOUT_S" "$TOOL" load --tokens "$TOKENS" --records "$RECORDS" \
  --dimensions "$DIMENSIONS" --seed "$SEED" --connections "$LOAD_CONNECTIONS" --format "$FORMAT" \
  --daemon-pid "$DAEMON_PID" | tee "$OUT/load.log" >&2 || die "the load failed (see $OUT/load.log)"
LOAD="$(sed -n 's/^LOAD //p' "$OUT/load.log")"
RSS_LOADED="$(rss_mb)"
WAITING_AFTER_LOAD="$(metric opbase_vdb_records_waiting_for_graph)"
say "RSS after the load: $RSS_LOADED MB ($WAITING_AFTER_LOAD records waiting for the graph)"

note_load "the graph after the load"
wait_for_graph "$TOTAL"
GRAPH1_S="$GRAPH_S"
GRAPH1_RATE="$GRAPH_RATE"
GRAPH1_LOAD="$(load1)"
RSS_GRAPH="$(rss_mb)"
say "graph built ${GRAPH1_S}s after the load; RSS $RSS_GRAPH MB"

if [[ "$TEXT_COLLECTION" == bench_text ]]; then
  say "inserting $TEXT_RECORDS embedded records into bench_text for the text search ($DIMENSIONS is not the model's $OFFLINE_DIMENSIONS)"
  timeout "$STEP_TIMEOUT_S" "$TOOL" load-text --tokens "$BENCH_STATE_DIR/token-u0" \
    --records "$TEXT_RECORDS" --seed "$SEED" --connections 2 >"$OUT/load-text.log" 2>&1 ||
    { cat "$OUT/load-text.log" >&2; die "the text records' load failed"; }
fi

# ---- 3. searches ----------------------------------------------------------------------------
ceiling search
declare -A SEARCH=() SEARCH_LOAD=()
for c in $SEARCH_CONNECTIONS; do
  note_load "vector search at $c connections"
  SEARCH_LOAD[$c]="$(load1)"
  measure vdb_search_vector "$c" "search-vector-c$c"
  SEARCH[$c]="$RESULT"
done
note_load "the vector search's time split"
PROBE_VECTOR_LOAD="$(load1)"
timeout 120 "$TOOL" probe --token "$BENCH_STATE_DIR/token-u0" \
  --bodies "$BENCH_STATE_DIR/vdb-vector-queries.jsonl" --connections 16 --count 3000 --seconds 10 \
  --expect '"count":10' | tee "$OUT/probe-vector.log" >&2 || say "the vector probe failed"
PROBE_VECTOR="$(sed -n 's/^PROBE //p' "$OUT/probe-vector.log")"

note_load "the recall"
RECALL_LOAD="$(load1)"
timeout "$STEP_TIMEOUT_S" "$TOOL" recall --token "$BENCH_STATE_DIR/token-u0" --user 0 \
  --records "$RECORDS" --dimensions "$DIMENSIONS" --seed "$SEED" --queries "$QUERIES" \
  --cache "$BENCH_STATE_DIR/exact-top10.txt" --format "$FORMAT" | tee "$OUT/recall.log" >&2 || say "the recall failed"
RECALL="$(sed -n 's/^RECALL //p' "$OUT/recall.log")"

note_load "text search at 16 connections"
TEXT_LOAD="$(load1)"
measure vdb_search_text 16 "search-text-c16"
TEXT="$RESULT"
note_load "the text search's time split"
timeout 120 "$TOOL" probe --token "$BENCH_STATE_DIR/token-u0" \
  --bodies "$BENCH_STATE_DIR/vdb-text-queries.jsonl" --connections 16 --count 3000 --seconds 10 \
  --expect '"embedding_time_ms":' | tee "$OUT/probe-text.log" >&2 || say "the text probe failed"
PROBE_TEXT="$(sed -n 's/^PROBE //p' "$OUT/probe-text.log")"
PEAK_BEFORE_RESTART="$(hwm_mb)"

# ---- 4. restart -----------------------------------------------------------------------------
EXPECTED_AFTER=$TOTAL
[[ "$TEXT_COLLECTION" == bench_text ]] && EXPECTED_AFTER=$((TOTAL + TEXT_RECORDS))
say "stopping the daemon"
stop_daemon
note_load "the restart"
RESTART_LOAD="$(load1)"
RESTARTED=1
declare -A FMT=() FMT_LOAD=()
RSS_RESTART_LOADED="" RSS_RESTART_GRAPH="" PEAK_AFTER_RESTART="" RECALL2="" SEARCH2=""
GRAPH2_S="-" GRAPH2_WAITING="-" GRAPH2_RATE="" RECALL2_LOAD="-" SEARCH2_LOAD="-"
if start_daemon restart "$RESTART_TIMEOUT_S"; then
  RESTART_LISTEN_S="$LISTEN_S"
  RSS_RESTART_LOADED="$(rss_mb)"
  wait_for_graph "$EXPECTED_AFTER"
  GRAPH2_S="$GRAPH_S"
  GRAPH2_WAITING="$WAITING"
  GRAPH2_RATE="$GRAPH_RATE"
  RSS_RESTART_GRAPH="$(rss_mb)"
  PEAK_AFTER_RESTART="$(hwm_mb)"
  say "after the restart: listening in ${RESTART_LISTEN_S}s (RSS $RSS_RESTART_LOADED MB), graphs in ${GRAPH2_S}s more (RSS $RSS_RESTART_GRAPH MB)"
  note_load "the recall after the restart"
  RECALL2_LOAD="$(load1)"
  timeout "$STEP_TIMEOUT_S" "$TOOL" recall --token "$BENCH_STATE_DIR/token-u0" --user 0 \
    --records "$RECORDS" --dimensions "$DIMENSIONS" --seed "$SEED" --queries "$QUERIES" \
    --cache "$BENCH_STATE_DIR/exact-top10.txt" --format "$FORMAT" | tee "$OUT/recall-restart.log" >&2 ||
    say "the recall after the restart failed"
  RECALL2="$(sed -n 's/^RECALL //p' "$OUT/recall-restart.log")"
  ceiling restart
  note_load "vector search at 16 connections after the restart"
  SEARCH2_LOAD="$(load1)"
  measure vdb_search_vector 16 "search-vector-restart-c16"
  SEARCH2="$RESULT"

  # ---- the insert path by vector format: two new collections of u1, no graph ---------------
  for f in numbers base64; do
    note_load "inserting $FORMAT_RECORDS records as $f"
    FMT_LOAD[$f]="$(load1)"
    timeout "$STEP_TIMEOUT_S" "$TOOL" load --tokens "$BENCH_STATE_DIR/token-u$((USERS > 1 ? 1 : 0))" \
      --records "$FORMAT_RECORDS" --dimensions "$DIMENSIONS" --seed "$SEED" --format "$f" \
      --connections "$LOAD_CONNECTIONS" --collection "bench_format_$f" --daemon-pid "$DAEMON_PID" \
      | tee "$OUT/load-format-$f.log" >&2 || say "the $f insert failed"
    FMT[$f]="$(sed -n 's/^LOAD //p' "$OUT/load-format-$f.log")"
  done
else
  RESTARTED=0
  RESTART_LISTEN_S="> $LISTEN_S (not listening yet: stopped)"
  PEAK_AFTER_RESTART="$(hwm_mb)"
  stop_daemon
fi

# ---- 5. the table ---------------------------------------------------------------------------
rec_s="$(field records_per_s "$LOAD")"
row "insert, records/s (batches of 100, $LOAD_CONNECTIONS connections)" "$(fmt "$rec_s" %.0f)" ">= 5000" insert "$(field batches_per_s "$LOAD")" "$INSERT_LOAD"
row "  insert batches/s; batch p50 / p99 ms" "$(fmt "$(field batches_per_s "$LOAD")" %.1f); $(fmt "$(field batch_p50_ms "$LOAD")" %.1f) / $(fmt "$(field batch_p99_ms "$LOAD")" %.1f)" "" insert "$(field batches_per_s "$LOAD")" "$INSERT_LOAD"
row "  insert: daemon CPU per record, us" "$(fmt "$(field daemon_cpu_us_per_record "$LOAD")" %.0f)" "" insert "" "$INSERT_LOAD"
for c in $SEARCH_CONNECTIONS; do
  r="${SEARCH[$c]}"
  if [[ -z "$r" ]]; then row "vector search c=$c" "FAILED" "" search "" "${SEARCH_LOAD[$c]}"; continue; fi
  tgt=""; [[ "$c" == 16 ]] && tgt=">= 1000/s, p99 < 20 ms"
  row "vector search c=$c, ops/s; p50 / p99 ms; errors" "$(fmt "$(field rps "$r")" %.0f); $(fmt "$(field p50_ms "$r")" %.2f) / $(fmt "$(field p99_ms "$r")" %.2f); $(field errors "$r")" "$tgt" search "$(field rps "$r")" "${SEARCH_LOAD[$c]}"
  row "  vector search c=$c: daemon CPU per search, us" "$(field cpu_us "$r")" "" search "" "${SEARCH_LOAD[$c]}"
done
if [[ -n "$PROBE_VECTOR" ]]; then
  row "  vector search c=16 (probe): meta.processing_time_ms p50 / p99; client p50 / p99" "$(fmt "$(field processing_p50_ms "$PROBE_VECTOR")" %.2f) / $(fmt "$(field processing_p99_ms "$PROBE_VECTOR")" %.2f); $(fmt "$(field p50_ms "$PROBE_VECTOR")" %.2f) / $(fmt "$(field p99_ms "$PROBE_VECTOR")" %.2f)" "" search "$(field rps "$PROBE_VECTOR")" "$PROBE_VECTOR_LOAD"
fi
row "recall@10 ($QUERIES queries, exact over u0's $RECORDS); min; all 10 found" "$(fmt "$(field recall "$RECALL")" %.4f); $(field min "$RECALL"); $(field perfect "$RECALL")/$QUERIES" ">= 0.95" search "" "$RECALL_LOAD"
if [[ -n "$TEXT" ]]; then
  row "text search c=16, ops/s; p50 / p99 ms; errors" "$(fmt "$(field rps "$TEXT")" %.0f); $(fmt "$(field p50_ms "$TEXT")" %.2f) / $(fmt "$(field p99_ms "$TEXT")" %.2f); $(field errors "$TEXT")" "" search "$(field rps "$TEXT")" "$TEXT_LOAD"
  row "  text search c=16: daemon CPU per search, us" "$(field cpu_us "$TEXT")" "" search "" "$TEXT_LOAD"
else
  row "text search c=16" "FAILED" "" search "" "$TEXT_LOAD"
fi
if [[ -n "$PROBE_TEXT" ]]; then
  row "  text search (probe, c=16): meta.embedding_time_ms p50 / p99 / mean" "$(fmt "$(field embedding_p50_ms "$PROBE_TEXT")" %.2f) / $(fmt "$(field embedding_p99_ms "$PROBE_TEXT")" %.2f) / $(fmt "$(field embedding_mean_ms "$PROBE_TEXT")" %.2f)" "" search "" "$TEXT_LOAD"
  row "  text search (probe, c=16): meta.processing_time_ms p50 / p99 / mean" "$(fmt "$(field processing_p50_ms "$PROBE_TEXT")" %.2f) / $(fmt "$(field processing_p99_ms "$PROBE_TEXT")" %.2f) / $(fmt "$(field processing_mean_ms "$PROBE_TEXT")" %.2f)" "" search "$(field rps "$PROBE_TEXT")" "$TEXT_LOAD"
fi
ratio_raw() { awk -v a="$1" -v b="$RAW_MB" 'BEGIN { if (a != "" && b > 0) printf "%s MB = %.2f x raw", a, a / b; else print "-" }'; }
row "RSS of the daemon before any record" "$RSS_EMPTY MB" "" insert "" "$INSERT_LOAD"
row "RSS after the load (raw float32: $RAW_MB MB)" "$(ratio_raw "$RSS_LOADED")" "<= 1.5 x raw" insert "" "$GRAPH1_LOAD"
row "RSS once the graphs are built" "$(ratio_raw "$RSS_GRAPH")" "<= 1.5 x raw" insert "" "$GRAPH1_LOAD"
row "peak RSS (VmHWM) before the restart" "$(ratio_raw "$PEAK_BEFORE_RESTART")" "" insert "" "$GRAPH1_LOAD"
row "graph built, seconds after the load ($WAITING_AFTER_LOAD records waiting then; moved/s)" "$GRAPH1_S (${GRAPH1_RATE:-?}/s)" "" insert "" "$GRAPH1_LOAD"
row "restart: seconds until listening (records loaded; empty store: ${EMPTY_LISTEN_S}s)" "$RESTART_LISTEN_S" "" restart "" "$RESTART_LOAD"
row "restart: seconds more until waiting_for_graph = 0 (moved/s)" "$GRAPH2_S (waiting: $GRAPH2_WAITING; ${GRAPH2_RATE:-?}/s)" "" restart "" "$RESTART_LOAD"
row "RSS after the restart, listening" "$(ratio_raw "$RSS_RESTART_LOADED")" "<= 1.5 x raw" restart "" "$RESTART_LOAD"
row "RSS after the restart, graphs built" "$(ratio_raw "$RSS_RESTART_GRAPH")" "<= 1.5 x raw" restart "" "$RESTART_LOAD"
row "peak RSS (VmHWM) of the restarted daemon" "$(ratio_raw "$PEAK_AFTER_RESTART")" "" restart "" "$RESTART_LOAD"
if ((RESTARTED)); then
  row "recall@10 after the restart; min" "$(fmt "$(field recall "$RECALL2")" %.4f); $(field min "$RECALL2")" ">= 0.95" restart "" "$RECALL2_LOAD"
fi
for f in numbers base64; do
  r="${FMT[$f]:-}"
  [[ -n "$r" ]] || continue
  row "insert as $f, $FORMAT_RECORDS records into a new collection (no graph): records/s; batch p50 / p99 ms; daemon CPU us a record; MB a batch" "$(fmt "$(field records_per_s "$r")" %.0f); $(fmt "$(field batch_p50_ms "$r")" %.0f) / $(fmt "$(field batch_p99_ms "$r")" %.0f); $(fmt "$(field daemon_cpu_us_per_record "$r")" %.0f); $(field mb_per_batch "$r")" ">= 5000" restart "$(field batches_per_s "$r")" "${FMT_LOAD[$f]}"
done
if [[ -n "$SEARCH2" ]]; then
  row "vector search c=16 after the restart, ops/s; p50 / p99 ms" "$(fmt "$(field rps "$SEARCH2")" %.0f); $(fmt "$(field p50_ms "$SEARCH2")" %.2f) / $(fmt "$(field p99_ms "$SEARCH2")" %.2f)" ">= 1000/s, p99 < 20 ms" restart "$(field rps "$SEARCH2")" "$SEARCH2_LOAD"
fi

echo
echo "vector database: $USERS users x $RECORDS records x $DIMENSIONS dimensions, vectors sent as $FORMAT, seed $SEED; $(date '+%Y-%m-%d %H:%M'); $CORES cores"
echo "ceilings (GET /healthz, wrk, $CEILING_CONNECTIONS connections, $DURATION): insert phase ${CEIL[insert]}/s (load ${CEIL_LOAD[insert]}), search phase ${CEIL[search]}/s (load ${CEIL_LOAD[search]}), after the restart ${CEIL[restart]:-not measured}/s (load ${CEIL_LOAD[restart]:--})"
awk -F'\t' '
  NR == 1 { printf "%-86s %-34s %-22s %10s %7s %6s\n", "measure", "value", "target", "ceiling/s", "ratio", "load"; next }
  { printf "%-86s %-34s %-22s %10s %7s %6s\n", $1, $2, $3, ($4 == "-" ? "-" : sprintf("%.0f", $4)), $5, $6 }' "$SUMMARY"
echo "(ratio: the row's requests/s over the /healthz requests/s of the same phase; for inserts, batches"
echo " of 100 per second. load: the 1-minute load average when the measurement began.)"
if [[ -s "$OUT/daemon-first.err" || -s "$OUT/daemon-restart.err" ]]; then
  say "the daemon wrote to stderr (see $OUT/daemon-*.err):"
  tail -n 5 "$OUT/daemon-first.err" "$OUT/daemon-restart.err" >&2
fi
say "the whole run took $(elapsed "$BENCH_STARTED") s; results in $OUT"
