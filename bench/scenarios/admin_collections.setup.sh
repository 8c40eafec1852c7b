# 100,000 accounts and 100,000 documents of 100 of them (once per run; the admin scenarios share
# them).
exec python3 "$(dirname "$0")/lib/bench_api.py" people
