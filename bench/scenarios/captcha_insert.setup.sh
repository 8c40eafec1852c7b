# The pool of solved captchas captcha_insert sends, one insert body per line: enough for every
# wrk run to come (warm-up and measurement, at each connection count, in each round) at up to
# BENCH_CAPTCHA_RATE (default 12000) inserts a second.
exec /usr/bin/python3 "$(dirname "$0")/lib/captcha_pool.py"
