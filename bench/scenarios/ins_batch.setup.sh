# The user ins_batch inserts as.
exec python3 "$(dirname "$0")/lib/bench_api.py" user u2
