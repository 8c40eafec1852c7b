# The document find_key reads, then the siege (bench/scenarios/lib/siege.py) in the background:
# its pid in $BENCH_STATE_DIR/siege.pid (bench/run.sh stops it at the end), what it holds in
# $BENCH_STATE_DIR/siege.json. Waits until it holds at least 95 % of its connections.
set -e
lib="$(dirname "$0")/lib"
python3 "$lib/bench_api.py" one find_key
idle="${SIEGE_IDLE:-10000}"
slow="${SIEGE_SLOW:-1000}"
report="$BENCH_STATE_DIR/siege.json"
# Beside wrk when the run pins it (BENCH_WRK_CPUS), so the daemon keeps its own CPU.
pin=()
[[ -n "${BENCH_WRK_CPUS:-}" ]] && pin=(taskset -c "$BENCH_WRK_CPUS")
nohup "${pin[@]}" python3 "$lib/siege.py" "$BENCH_URL" "$idle" "$slow" "${SIEGE_SECONDS:-600}" "$report" \
  >"$BENCH_STATE_DIR/siege.log" 2>&1 &
echo $! >"$BENCH_STATE_DIR/siege.pid"
want=$(((idle + slow) * 95 / 100))
for _ in $(seq 120); do
  sleep 1
  held="$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["held"]["idle"]+r["held"]["slow"])' "$report" 2>/dev/null || echo 0)"
  echo "siege holds $held of $((idle + slow))"
  ((held >= want)) && exit 0
done
echo "the siege did not reach $want connections in 120 s" >&2
exit 1
