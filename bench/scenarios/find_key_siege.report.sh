# What the siege held at the end, and what the daemon counted of it.
cat "$BENCH_STATE_DIR/siege.json"; echo
curl -s "$BENCH_URL/metrics" | grep -E '^opbase_http_(connections_open|refused_total|timeouts_total)'
