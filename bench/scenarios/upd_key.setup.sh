# Inserts the document upd_key updates and writes its _key to $BENCH_STATE_DIR/upd_key.
exec python3 "$(dirname "$0")/lib/seed_datastore.py" one upd_key
