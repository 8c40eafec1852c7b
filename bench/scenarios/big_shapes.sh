# The query-shape scenarios over 1,000,000 documents (big_*, each naming this file as its
# setup-hook): bench_docs (10 users x 100,000, once per run, shared with find_idx), then counts on
# n and tags until each field's automatic index answers (category is declared), so every shape
# measures the store's steady state.
set -e
lib="$(dirname "$0")/lib/bench_api.py"
python3 "$lib" big
python3 "$lib" warm u3 '{"op":"collection.count","collection":"bench_docs","match":{"n:$gt":99000}}'
python3 "$lib" warm u3 '{"op":"collection.count","collection":"bench_docs","match":{"tags":"t3"}}'
