# The user ins_one_slow_hook inserts as (as ins_one), a receiver that sleeps 1 s per delivery,
# and the endpoint that sends it every document.created.
set -e
lib="$(dirname "$0")/lib"
python3 "$lib/bench_api.py" user u1
python3 "$lib/webhook_bench.py" receiver slow 1000
python3 "$lib/webhook_bench.py" endpoint slow document.created
