# 1,000,000 documents in bench_docs (once per run, shared with find_idx).
exec python3 "$(dirname "$0")/lib/bench_api.py" big
