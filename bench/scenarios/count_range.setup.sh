# 1,000,000 documents in bench_docs (once per run, shared with find_idx), then the count until
# its field has an automatic index.
set -e
lib="$(dirname "$0")/lib/bench_api.py"
python3 "$lib" big
python3 "$lib" warm u3 '{"op":"collection.count","collection":"bench_docs","match":{"n:$gte":50000,"n:$lt":51000}}'
