#!/usr/bin/env bash
# Builds sdk/examples/echo and sdk/examples/hello_c the way a third party would: install the SDK
# from the build tree into a fresh prefix, then configure each example on its own with
# find_package(opbase) against that prefix. Leaves <out>/echo.so and <out>/hello_c.so.
#   usage: build_examples_out_of_tree.sh <opbase build dir> <opbase source dir> <out dir>
set -euo pipefail
build=$1 src=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
prefix="$out/prefix"
cmake --install "$build" --prefix "$prefix" --component sdk >"$out/install.log"
for example in echo hello_c; do
  # A separate configure, with no knowledge of the opbase tree beyond the installed prefix.
  cmake -S "$src/sdk/examples/$example" -B "$out/build-$example" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$out/configure-$example.log"
  cmake --build "$out/build-$example" >"$out/build-$example.log"
  cp "$out/build-$example/$example.so" "$out/"
done
echo "built echo.so and hello_c.so against the SDK installed in $prefix"
