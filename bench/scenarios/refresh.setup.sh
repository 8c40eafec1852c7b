# Sessions for refresh: each wrk run (warm-up and measurement, at each connection count, in each
# round) starts one token chain per connection from a session nobody has refreshed yet, and each
# of its (at most two) threads takes one more (see refresh.lua).
n=0
for c in $BENCH_CONNECTIONS; do n=$((n + 2 * (c + 3))); done
exec python3 "$(dirname "$0")/lib/bench_api.py" sessions r0 $((n * BENCH_ROUNDS)) \
  >"$BENCH_STATE_DIR/refresh_sessions"
