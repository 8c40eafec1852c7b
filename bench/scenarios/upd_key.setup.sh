# Inserts the document upd_key updates and writes its _key to $BENCH_STATE_DIR/upd_key.
exec python3 "$(dirname "$0")/lib/bench_api.py" one upd_key
