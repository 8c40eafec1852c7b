#!/usr/bin/env bash
# bench/auth_attacks.sh: the hostile-traffic figures of the auth plugin and the mail queue
# (`make bench-auth`), in one run against one fresh daemon:
#   1. parallel guessing: N sign-ins with wrong passwords at one account, all at once, against
#      the default limit (10 per account and address): how many were checked;
#   2. lock-out: 1,000 wrong guesses from 127.0.0.2, then the owner's right password from
#      127.0.0.3 (every 127.0.0.x reaches the daemon on Linux);
#   3. send_otp for a known and an unknown address, alternating, over a real SMTP server
#      (python3-aiosmtpd): the medians, next to the median of GET /healthz (the no-op
#      ceiling) measured the same way in the same run.
# Settings: AUTH_BENCH_GUESSES=60, AUTH_BENCH_SAMPLES=200 (send_otp per address kind and
# /healthz), BENCH_BUILD_DIR=build-bench (BENCH_SKIP_BUILD=1 reuses it as it is).
set -euo pipefail

BENCH_NAME=auth_attacks
# shellcheck source=lib/bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
BENCH_BUILD_LOG="$BUILD_DIR/bench-build.log"  # the log of bench/run.sh's build of the same tree
bench_build
bench_require_daemon
# aiosmtpd loads only in Debian's own python.
exec /usr/bin/python3 "$ROOT/bench/auth_attacks.py" "$BUILD_DIR"
