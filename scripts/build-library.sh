#!/usr/bin/env bash
# Builds a self-contained C library from a SwiftPM dynamic-library product that links libtca's
# C bridge: libtca.so itself, or a user's own library (docs/own-features.md).
#
#   scripts/build-library.sh PACKAGE_DIR PRODUCT VERSION OUTPUT_DIR
#
# SCRATCH_PATH, if set, is SwiftPM's build folder (default: PACKAGE_DIR/.build).
#
# gives OUTPUT_DIR/libPRODUCT.so.VERSION with SONAME libPRODUCT.so.MAJOR and the links
# libPRODUCT.so.MAJOR and libPRODUCT.so. The library:
#   - carries the Swift runtime statically: it needs only libc, libm, libstdc++ and libgcc_s;
#   - exports only the tca_* functions (scripts/tca.map); lld, unlike gold, leaves no local Swift
#     metadata symbols in .dynsym;
#   - is linked -z nodelete: a static Swift runtime must stay mapped after dlclose, or its threads
#     crash;
#   - is linked -z defs: a symbol left undefined (a library that forgot its
#     libtca_register_features) fails here, not when a host loads it;
#   - places the functions its hot paths run side by side (scripts/tca.order, made by
#     scripts/order-symbols.sh; each function in a section of its own so that lld can move it):
#     an effect's round trip runs more code than the L1 instruction cache holds, and spread over
#     the library it missed that cache ~60% more often (~6% of the trip's time);
#   - is compiled with -enforce-exclusivity=unchecked: the dynamic exclusivity checks of class
#     properties (swift_beginAccess, a thread-local access set) cost a tenth of an effect's
#     round trip in the store's bookkeeping. `swift test` keeps them on, so a conflicting access
#     still fails the tests.
set -euo pipefail

if [ $# -ne 4 ]; then
  echo "usage: $0 PACKAGE_DIR PRODUCT VERSION OUTPUT_DIR" >&2
  exit 2
fi
package=$1 product=$2 version=$3 output=$4
major=${version%%.*}
here=$(cd "$(dirname "$0")" && pwd)
swift=${SWIFT:-swift}

flags=(
  -c release --package-path "$package" --product "$product"
  ${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"}
  -Xswiftc -static-stdlib -Xswiftc -use-ld=lld
  -Xswiftc -cross-module-optimization
  -Xswiftc -enforce-exclusivity=unchecked
  -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xlinker "--symbol-ordering-file=$here/tca.order" -Xlinker --no-warn-symbol-ordering
  -Xlinker -soname -Xlinker "lib$product.so.$major"
  -Xlinker "--version-script=$here/tca.map"
  -Xlinker -z -Xlinker nodelete
  -Xlinker -z -Xlinker defs
)
bin=$("$swift" build "${flags[@]}" --show-bin-path)
# NB: SwiftPM does not know the link reads tca.order: without the product it links again, so
# a new order takes effect.
rm -f "$bin/lib$product.so"
"$swift" build "${flags[@]}"

mkdir -p "$output"
cp "$bin/lib$product.so" "$output/lib$product.so.$version"
ln -sf "lib$product.so.$version" "$output/lib$product.so.$major"
ln -sf "lib$product.so.$major" "$output/lib$product.so"
