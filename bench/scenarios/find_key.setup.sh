# Inserts the document find_key reads and writes its _key to $BENCH_STATE_DIR/find_key.
exec python3 "$(dirname "$0")/lib/bench_api.py" one find_key
