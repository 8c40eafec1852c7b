# 1,000,000 documents in bench_docs (once per run; count_idx shares them).
exec python3 "$(dirname "$0")/lib/bench_api.py" big
