#!/usr/bin/env bash
# bench/ai_waiting.sh: do waiting AI calls slow the other ops down? (`make bench-ai-waiting`)
# Starts a model server on 127.0.0.1 that answers each chat call in 2 s (AI_MODEL_DELAY_S), points
# the daemon's ai.generate at it, then two bench/run.sh runs of find by _key with their /healthz
# ceilings:
#   1. find_key             nothing else under way
#   2. find_key_ai_waiting  while 64 ai.generate calls (AI_WAITERS) wait on the model server
# and prints the two side by side. BENCH_CONNECTIONS defaults to "16" here; bench/run.sh's other
# settings apply (BENCH_SKIP_BUILD=1 reuses its Release build).
set -euo pipefail

BENCH_NAME=ai_waiting.sh
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
export BENCH_CONNECTIONS="${BENCH_CONNECTIONS:-16}"
bench_out_root ai-waiting

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 "$BENCH_DIR/scenarios/lib/slow_model.py" "$port" 1800 >"$OUT/model.log" 2>&1 &
bench_helper $!  # stopped on exit
# The lane and the model server's turns hold all 64 calls at once; one user makes them all, so
# its rate limit and quota are off.
export BENCH_SET="${BENCH_SET:-} ai.provider.generate=openai ai.openai.base_url=http://127.0.0.1:$port/v1 ai.openai.chat_model=bench-model ai.openai.max_concurrency=64 ai.lane_threads=64 ai.rate_limit=off ai.quota.calls_per_day=0"

run_bench find_key
run_bench find_key_ai_waiting

echo
echo "find by _key without and with 64 AI calls waiting (ops/s, p99 ms, and /healthz of each run)"
for f in "$OUT"/find_key/results.tsv "$OUT"/find_key_ai_waiting/results.tsv; do
  awk -F'\t' '$1 != "round" { print }' "$f"
done
