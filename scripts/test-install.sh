#!/usr/bin/env bash
# The install test of `make test` (make test-install): installs libtca into a temporary prefix,
# then builds the README's C quickstart with pkg-config alone and runs it with no environment
# variables pointing at the library. It must print what its comment says, and the installed
# library must be stripped.
#
#   MAKE=make CC=cc VERSION=0.1.0 scripts/test-install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make} cc=${CC:-cc} version=${VERSION:?VERSION is the library version}

fail() { echo "test-install: FAILED: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
"$make" --no-print-directory install PREFIX="$prefix" >/dev/null

installed=$prefix/lib/libtca.so.$version
[ -f "$installed" ] || fail "make install left no $installed"
sections=$(readelf -S --wide "$installed")
case "$sections" in *'.symtab'*) fail "$installed is not stripped" ;; esac
built_size=$(stat -c %s "build/lib/libtca.so.$version")
installed_size=$(stat -c %s "$installed")
echo "installed $installed: $installed_size bytes (the build's copy: $built_size)"

# The quickstart as the README shows it, and what its comment says it prints.
awk '/^## C quickstart/ { section = 1 } section && /^```c( |$)/ { code = 1; next }
     code && /^```$/ { exit } code' README.md >"$tmp/hello.c"
grep -q tca_store_new "$tmp/hello.c" || fail "no C quickstart found in README.md"
expected=$(sed -n 's|.*printf.*/\* \(.*\) \*/.*|\1|p' "$tmp/hello.c")
[ -n "$expected" ] || fail "the quickstart's printf line has no comment saying what it prints"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
flags=$(pkg-config --cflags --libs tca)
echo "pkg-config --cflags --libs tca: $flags"
(cd "$tmp" && "$cc" hello.c $flags -o hello)
actual=$(cd / && env -u LD_LIBRARY_PATH -u TCA_LIBRARY "$tmp/hello") || fail "hello did not run"
[ "$actual" = "$expected" ] || fail "hello printed $actual, the README says $expected"
# NB: ldd's output is read whole first: `ldd | grep -q` under pipefail fails when grep stops
# reading early and ldd dies of SIGPIPE.
loaded=$(ldd "$tmp/hello")
case "$loaded" in
  *"libtca.so.0 => $prefix/lib/libtca.so.0"*) ;;
  *) fail "hello does not load the installed library: $(printf '%s\n' "$loaded" | grep libtca)" ;;
esac
echo "hello (built with pkg-config alone) printed $actual"

# Into a system prefix (staged with DESTDIR, so ldconfig does not run) tca.pc has no rpath: there
# the loader finds the library through ldconfig's cache.
"$make" --no-print-directory install DESTDIR="$tmp/staged" PREFIX=/usr/local >/dev/null
grep -qx 'Libs: -L${libdir} -ltca' "$tmp/staged/usr/local/lib/pkgconfig/tca.pc" \
  || fail "tca.pc for /usr/local: $(grep Libs: "$tmp/staged/usr/local/lib/pkgconfig/tca.pc")"
grep -qx 'Libs: -L${libdir} -Wl,-rpath,${libdir} -ltca' "$prefix/lib/pkgconfig/tca.pc" \
  || fail "tca.pc for $prefix: $(grep Libs: "$prefix/lib/pkgconfig/tca.pc")"
echo "tca.pc: the rpath for $prefix, none for /usr/local"
