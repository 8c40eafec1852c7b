# The document find_key reads, then AI_WAITERS (64) ai.generate calls kept waiting in the
# background (bench/scenarios/lib/ai_waiters.py): its pid in $BENCH_STATE_DIR/ai_waiters.pid
# (bench/run.sh stops it at the end). Waits until the ai lane holds them.
set -e
lib="$(dirname "$0")/lib"
python3 "$lib/bench_api.py" one find_key
waiters="${AI_WAITERS:-64}"
report="$BENCH_STATE_DIR/ai_waiters.json"
nohup python3 "$lib/ai_waiters.py" "$waiters" "${AI_WAITING_SECONDS:-900}" "$report" \
  >"$BENCH_STATE_DIR/ai_waiters.log" 2>&1 &
echo $! >"$BENCH_STATE_DIR/ai_waiters.pid"
for _ in $(seq 60); do
  sleep 1
  waiting="$(curl -s "$BENCH_URL/metrics" | awk '/^opbase_lane_running\{plugin="ai"\}/ {print $2}')"
  echo "the ai lane runs ${waiting:-0} of $waiters calls"
  [[ "${waiting:-0}" -ge "$waiters" ]] && exit 0
done
echo "the ai lane did not reach $waiters calls in 60 s" >&2
exit 1
