# The user hook_deliveries inserts as, a receiver that answers at once, and the endpoint that
# sends it every document.created.
set -e
lib="$(dirname "$0")/lib"
python3 "$lib/bench_api.py" user hooks
python3 "$lib/webhook_bench.py" receiver fast 0
python3 "$lib/webhook_bench.py" endpoint fast document.created
