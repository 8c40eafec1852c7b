# The two commands of the README, and a few more. Each installs what it needs first.
#   make run      build (Release) and start the daemon on the embedded store with conf/opbase.properties
#   make test     build, run every test, then the unit tests again under ASan + UBSan
#   make bench    Release build + wrk scenarios beside the /healthz ceiling (bench/run.sh)
#   make package  the Debian package (CPack) in build/
BUILD_DIR ?= build
ASAN_DIR ?= build-asan
JOBS ?= $(shell nproc)
CTEST_JOBS ?= 2

.PHONY: deps configure build run test test-main test-asan package bench clean

deps:
	@packaging/deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

run: configure
	cmake --build $(BUILD_DIR) -j$(JOBS) --target opbase echo hello_c
	$(BUILD_DIR)/host/opbase --config conf/opbase.properties \
	  --set plugins.dir=$(BUILD_DIR)/plugins-out --set projects.print_generated_keys=true

test: test-main test-asan

test-main: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j$(CTEST_JOBS)

test-asan: deps
	cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DOPBASE_SANITIZE=ON
	cmake --build $(ASAN_DIR) -j$(JOBS)
	cd $(ASAN_DIR) && ctest --output-on-failure -j$(CTEST_JOBS) -L unit

package: build
	cd $(BUILD_DIR) && cpack

bench: deps
	bench/run.sh

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) build-bench
