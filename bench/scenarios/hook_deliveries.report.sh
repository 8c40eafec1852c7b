# Deliveries per second and latency to the receiver hook_deliveries.setup.sh started.
exec python3 "$(dirname "$0")/lib/webhook_bench.py" report fast
