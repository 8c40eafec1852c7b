# 20,000 documents in scan_docs (once per run; shared with find_scan and count_scan).
exec python3 "$(dirname "$0")/lib/bench_api.py" scan
