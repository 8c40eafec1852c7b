# The id token verify checks.
exec python3 "$(dirname "$0")/lib/bench_api.py" user u0
