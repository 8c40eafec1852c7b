# bench_ins5 with automatic indexes on a..e (once per run).
exec python3 "$(dirname "$0")/lib/bench_api.py" indexed5
