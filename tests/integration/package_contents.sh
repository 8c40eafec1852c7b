#!/usr/bin/env bash
# The Debian packages of this build, as `make package` makes them: the daemon's package holds the
# daemon, the shipped plugins, the installed configuration (a conffile) and the copyright file,
# and describes only what is built; the SDK is its own -dev package, depending on what its
# CMake package needs.
#   package_contents.sh BUILD_DIR PLUGINS   (PLUGINS: the build's plugin names, comma-separated)
set -euo pipefail
build_dir="$1"
IFS=, read -r -a plugins <<<"$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

fail() { echo "package_contents: $*" >&2; exit 1; }

(cd "$build_dir" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; fail "cpack failed"; }
daemon_deb="$(ls "$out"/opbase_*.deb 2>/dev/null | head -1)"
dev_deb="$(ls "$out"/opbase-dev_*.deb 2>/dev/null | head -1)"
[ -n "$daemon_deb" ] || fail "no opbase_*.deb in: $(ls "$out")"
[ -n "$dev_deb" ] || fail "no opbase-dev_*.deb in: $(ls "$out")"

has() {  # has DEB PATTERN: the package holds a path matching PATTERN
  dpkg-deb --contents "$1" | awk '{print $6}' | grep -Eq "$2" || fail "$(basename "$1") has no $2"
}
lacks() {
  if dpkg-deb --contents "$1" | awk '{print $6}' | grep -Eq "$2"; then fail "$(basename "$1") holds $2"; fi
}

has "$daemon_deb" '^\./usr/bin/opbase$'
[ ${#plugins[@]} -ge 10 ] || fail "expected the build's ten plugins, got: $2"
for plugin in "${plugins[@]}"; do
  has "$daemon_deb" "/opbase/plugins/${plugin}\.so$"
done
has "$daemon_deb" '^\./usr/share/opbase/ai/glove-6b-100d\.bin$'
has "$daemon_deb" '^\./usr/share/opbase/ai/prompts/'
has "$daemon_deb" '^\./usr/share/opbase/console/index\.html$'
has "$daemon_deb" '^\./usr/share/opbase/console/js/main\.js$'
has "$daemon_deb" '^\./etc/opbase/opbase\.properties$'
has "$daemon_deb" '^\./usr/share/doc/opbase/copyright$'
has "$daemon_deb" '^\./usr/lib/systemd/system/opbase\.service$'
lacks "$daemon_deb" '^\./usr/include/'
dpkg-deb --info "$daemon_deb" conffiles | grep -q '^/etc/opbase/opbase.properties$' || fail "the configuration is no conffile"
dpkg-deb --field "$daemon_deb" Depends | grep -q 'cracklib-runtime' || fail "opbase lacks its dependencies"
dpkg-deb --field "$daemon_deb" Depends | grep -q 'libphonenumber' || fail "opbase lacks the ai plugin's libraries"
dpkg-deb --field "$daemon_deb" Recommends | grep -q 'apertium-eng-cat' || fail "opbase does not recommend Apertium"
description="$(dpkg-deb --field "$daemon_deb" Description)"
grep -q 'not built yet' <<<"$description" || fail "the description does not say what is not built: $description"

has "$dev_deb" '^\./usr/include/opbase/abi\.h$'
has "$dev_deb" '^\./usr/include/opbase/http_client\.hpp$'
has "$dev_deb" '/cmake/opbase/opbaseConfig\.cmake$'
has "$dev_deb" '^\./usr/share/doc/opbase-dev/copyright$'
lacks "$dev_deb" '^\./usr/bin/'
for deb in "$daemon_deb" "$dev_deb"; do
  [ "$(dpkg-deb --field "$deb" Architecture)" = "$(dpkg --print-architecture)" ] ||
    fail "$(basename "$deb") is not for this machine's architecture"
done
depends="$(dpkg-deb --field "$dev_deb" Depends)"
for need in 'opbase (=' nlohmann-json3-dev libssl-dev libcurl4-openssl-dev cmake; do
  grep -qF "$need" <<<"$depends" || fail "opbase-dev does not depend on $need: $depends"
done
echo "package_contents: $(basename "$daemon_deb") and $(basename "$dev_deb") hold what they should"
