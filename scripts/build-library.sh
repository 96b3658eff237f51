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
#   - is optimized with the profile of its hot paths (scripts/tca.proftext.gz, made by
#     scripts/pgo-profile.sh), if this toolchain reads it: their likely paths laid out straight,
#     unlikely code moved away (the round trip, the send and the toggle 10–20% faster).
#     TCA_PGO=generate builds with counters instead (for scripts/pgo-profile.sh), TCA_PGO=off
#     without a profile;
#   - compiles its C++ (the callback guard, Sources/CSystem/CallGuard.cpp) with DWARF 4 debug
#     info: the valgrind of `make test-c` cannot read clang's default DWARF 5, and then refuses
#     the whole library;
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
  -Xcxx -gdwarf-4
  -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xlinker "--symbol-ordering-file=$here/tca.order" -Xlinker --no-warn-symbol-ordering
  -Xlinker -soname -Xlinker "lib$product.so.$major"
  -Xlinker "--version-script=$here/tca.map"
  -Xlinker -z -Xlinker nodelete
  -Xlinker -z -Xlinker defs
)

# Profile-guided optimization (see above).
scratch=${SCRATCH_PATH:-$package/.build}
profile_flags=()
case "${TCA_PGO:-use}" in
  generate)
    toolchain=$(cd "$(dirname "$(command -v "$swift")")/.." && pwd)
    runtime="$toolchain/lib/swift/clang/lib/linux/libclang_rt.profile-x86_64.a"
    profile_flags=(
      -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate
      -Xlinker -u -Xlinker __llvm_profile_runtime -Xlinker "$runtime"
    )
    ;;
  use)
    profdata="$(dirname "$(command -v "$swift")")/llvm-profdata"
    if [ -f "$here/tca.proftext.gz" ] && [ -x "$profdata" ]; then
      mkdir -p "$scratch"
      # NB: file-local functions are named after their object file: this build folder's path
      # goes where the profile says @BUILD@ (see scripts/pgo-profile.sh).
      build=$(cd "$scratch" && pwd)
      gzip -dc "$here/tca.proftext.gz" | sed "s|^@BUILD@/|$build/|" > "$scratch/tca.proftext"
      if "$profdata" merge -o "$scratch/tca.profdata" "$scratch/tca.proftext" > /dev/null 2>&1
      then
        profile_flags=(-Xswiftc -Xfrontend -Xswiftc "-ir-profile-use=$scratch/tca.profdata")
      else
        echo "note: $here/tca.proftext.gz is not readable by this toolchain: built without it" >&2
      fi
    fi
    ;;
esac
flags+=(${profile_flags[@]+"${profile_flags[@]}"})
bin=$("$swift" build "${flags[@]}" --show-bin-path)
# NB: SwiftPM recompiles nothing when only the profile (or whether there is one) changed: the
# build products are thrown away then, and remade.
stamp="$scratch/tca-profile.stamp"
state="${TCA_PGO:-use} none"
if [ ${#profile_flags[@]} -gt 0 ] && [ "${TCA_PGO:-use}" = use ]; then
  state="use $(cksum < "$scratch/tca.profdata")"
fi
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$state" ]; then
  rm -rf "$bin"
  mkdir -p "$scratch"
  echo "$state" > "$stamp"
fi
# NB: SwiftPM does not know the link reads tca.order: without the product it links again, so
# a new order takes effect.
rm -f "$bin/lib$product.so"
"$swift" build "${flags[@]}"

mkdir -p "$output"
cp "$bin/lib$product.so" "$output/lib$product.so.$version"
ln -sf "lib$product.so.$version" "$output/lib$product.so.$major"
ln -sf "lib$product.so.$major" "$output/lib$product.so"
