# The collection rules scenarios' documents (once per run; the rules_* scenarios share them).
exec python3 "$(dirname "$0")/lib/bench_api.py" rules
