#!/usr/bin/env bash
# Installs the daemon's part of this build (the daemon, the shipped plugins, their data, the
# configuration) the usual way to try a CMake project without root, into a fresh prefix that
# is not the one the build was configured with.
#   usage: install_to_prefix.sh <opbase build dir> <prefix>
set -euo pipefail
build=$1 prefix=$2
rm -rf "$prefix"
mkdir -p "$prefix"
cmake --install "$build" --prefix "$prefix" --component daemon >"$prefix.log"
echo "installed the daemon to $prefix"
