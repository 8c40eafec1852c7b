# The query-shape scenarios (shape_*, each naming this file as its setup-hook): the 20,000
# documents of scan_docs (once per run, shared with find_scan), then counts on g, n and tags until
# each field's automatic index answers, so every shape measures the store's steady state.
set -e
lib="$(dirname "$0")/lib/bench_api.py"
python3 "$lib" scan
python3 "$lib" warm s0 '{"op":"collection.count","collection":"scan_docs","match":{"g":7}}'
python3 "$lib" warm s0 '{"op":"collection.count","collection":"scan_docs","match":{"n:$gt":9000}}'
python3 "$lib" warm s0 '{"op":"collection.count","collection":"scan_docs","match":{"tags":"t3"}}'
