#!/usr/bin/env bash
# Installs the Debian packages opbase needs.
#   deps.sh         everything: building, testing and benchmarking (make test, make bench)
#   deps.sh --run   only building and running the daemon (make run, make package)
# Idempotent and non-interactive: packages already present are skipped without touching apt.
set -euo pipefail

mode="${1:-all}"
case "$mode" in
  all | --run) ;;
  *) echo "usage: deps.sh [--run]" >&2; exit 2 ;;
esac

packages=(
  # build
  build-essential cmake pkg-config git file
  # libraries the daemon and plugins link
  libpoco-dev nlohmann-json3-dev libmongoc-dev libbson-dev libssl-dev
  libcurl4-openssl-dev libzstd-dev libsqlite3-dev libargon2-dev libjemalloc-dev
  libcrack2-dev cracklib-runtime libarchive-dev
)
[ "$mode" = "--run" ] || packages+=(
  # formatting, tests, sanitizers, fuzzing, the Debian packages' check
  clang-format libgtest-dev libgmock-dev clang libclang-rt-14-dev curl
  # benchmarks
  wrk libbenchmark-dev
  # test peers
  python3 python3-aiosmtpd python3-mockupdb
  # the browser the CORS test drives (through npm playwright-core)
  chromium
)
# Node.js runs the independent verifiers (npm jose, standardwebhooks) and the JavaScript client's
# tests; some images ship their own Node build, which conflicts with Debian's npm package, so
# only ask for it when absent.
[ "$mode" = "--run" ] || command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The npm packages of tests/package.json (exact versions: jose for id tokens, standardwebhooks
# for webhook signatures, playwright-core to drive chromium, typescript to check the JavaScript
# client's types), into tests/node_modules; again whenever one of them is missing, so a
# checkout that had only the older list gets the new one.
[ "$mode" = "--run" ] && exit 0
tests_dir="$(cd "$(dirname "$0")/../tests" && pwd)"
need_npm=false
for module in jose standardwebhooks playwright-core typescript; do
  [ -d "$tests_dir/node_modules/$module" ] || need_npm=true
done
if $need_npm; then
  echo "deps.sh: installing the test tools (npm)"
  (cd "$tests_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
