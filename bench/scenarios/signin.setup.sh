# The account signin signs in to.
exec python3 "$(dirname "$0")/lib/bench_api.py" user s0
