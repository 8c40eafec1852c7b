# The user ins_one inserts as.
exec python3 "$(dirname "$0")/lib/bench_api.py" user u1
