# The two commands of the README, and a few more. Each installs what it needs first.
#   make run      build (Release) and start the daemon on the embedded store with conf/opbase.properties
#   make test     check the formatting, build (Release) and run the integration tests, the unit
#                 tests under ASan + UBSan, then the fuzzers
#   make format   apply .clang-format to every C and C++ file
#   make fuzz     the libFuzzer targets, five minutes each
#   make bench    Release build + wrk scenarios beside the /healthz ceiling (bench/run.sh)
#   make bench-siege  find by _key and /healthz with and without 11,000 idle and slow connections
#   make bench-ai-waiting  find by _key with and without 64 AI calls waiting on a slow model server
#   make bench-vdb  vector insert, search by vector and text, recall@10, RSS and restart (300,000 x 1536)
#   make bench-files  a 1 GiB upload and download against a loopback copy, RSS growth, presign and get
#   make bench-admin  the administrators' list ops over 100,000 accounts and documents
#   make bench-mongodb  the datastore scenarios on sqlite, on the MongoDB driver against FerretDB,
#                       and through three daemons on it behind nginx
#   make bench-realtime  10,000 event streams held, 1,000 inserts a second: delivery latency,
#                        memory per idle client, the /healthz ceiling with and without them
#   make package  the Debian packages (CPack) in build/: opbase and opbase-dev (the plugin SDK)
BUILD_DIR ?= build
CHECK_DIR ?= build-check
JOBS ?= $(shell nproc)
CTEST_JOBS ?= 2

.PHONY: format format-check deps deps-run configure configure-run configure-check build run test test-main test-asan test-fuzz fuzz package bench bench-webhooks bench-siege bench-ai-waiting bench-vdb bench-files bench-admin bench-mongodb bench-realtime clean

deps:
	@packaging/deps.sh

# What running needs only: no test, fuzzing or benchmark packages, no test targets. The build
# folder is the one make test uses, so what one built the other reuses.
deps-run:
	@packaging/deps.sh --run

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DOPBASE_BUILD_TESTS=ON

configure-run: deps-run
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DOPBASE_BUILD_TESTS=OFF

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

run: configure-run
	cmake --build $(BUILD_DIR) -j$(JOBS) --target opbase plugins
	$(BUILD_DIR)/host/opbase --config conf/opbase.properties \
	  --set plugins.dir=$(BUILD_DIR)/plugins-out --set projects.print_generated_keys=true

test: format-check test-main test-asan test-fuzz

# Every C and C++ file the repository holds, formatted by .clang-format (Debian 12's
# clang-format 14); make test fails on any drift, so the style never needs a review comment.
FORMATTED = $(shell git ls-files '*.c' '*.h' '*.cpp' '*.hpp')

format: deps
	clang-format -i $(FORMATTED)

format-check: deps
	@clang-format --dry-run --Werror $(FORMATTED) && echo "format-check: every C and C++ file is formatted"

# The Release tree: the daemon, the plugins and the integration tests (the unit tests are built
# and run in the sanitizer tree: tests/unit/CMakeLists.txt).
test-main: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j$(CTEST_JOBS) -L integration

# The unit tests under ASan + UBSan and the fuzzers share one clang build: the libraries are
# compiled once for both, at -O1 with line tables only (all a sanitizer report needs), which
# keeps each test binary a sixth of a full-debug one to link (the tree: 2 GB, not 11). Only the
# unit tests and the fuzzers are built there, not the daemon, the plugins or the integration
# tests. Each fuzzer runs for a bounded time over its seed corpus: FUZZ_SECONDS each (12 in
# make test; make fuzz runs them longer).
FUZZ_SECONDS ?= 12
configure-check: deps
	CC=clang CXX=clang++ cmake -S . -B $(CHECK_DIR) -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_C_FLAGS_DEBUG="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
	  -DOPBASE_SANITIZE=ON -DOPBASE_BUILD_FUZZERS=ON -DOPBASE_FUZZ_SECONDS=$(FUZZ_SECONDS)

test-asan: configure-check
	cmake --build $(CHECK_DIR) -j$(JOBS) --target unit_tests
	cd $(CHECK_DIR) && ctest --output-on-failure -j$(CTEST_JOBS) -L unit

test-fuzz: configure-check
	cmake --build $(CHECK_DIR) -j$(JOBS) --target fuzzers
	cd $(CHECK_DIR) && ctest --output-on-failure -j$(CTEST_JOBS) -L fuzz

fuzz:
	$(MAKE) test-fuzz FUZZ_SECONDS=300

package: configure-run
	cmake --build $(BUILD_DIR) -j$(JOBS)
	cd $(BUILD_DIR) && cpack

bench: deps
	bench/run.sh

bench-webhooks: deps
	bench/webhooks.sh

bench-siege: deps
	bench/siege.sh

bench-ai-waiting: deps
	bench/ai_waiting.sh

bench-vdb: deps
	bench/vdb.sh

bench-files: deps
	bench/files.sh

bench-auth: deps
	bench/auth_attacks.sh

bench-mongodb: deps
	bench/mongodb.sh

bench-realtime: deps
	bench/realtime.sh

# The administrators' list ops over 100,000 accounts and documents. Apart from `make bench`: the
# seeding needs cheap password hashing, which would flatter the signin scenario.
bench-admin: deps
	BENCH_SCENARIOS="admin_users admin_users_search admin_find admin_collections" \
	  BENCH_CONNECTIONS="$${BENCH_CONNECTIONS:-1 16}" bench/run.sh

clean:
	rm -rf $(BUILD_DIR) $(CHECK_DIR) build-bench
