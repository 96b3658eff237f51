#!/usr/bin/env bash
# Writes scripts/tca.proftext.gz: how often each branch of the library runs on its hot paths,
# which scripts/build-library.sh gives the compiler (profile-guided optimization, IR level).
#
# NB: in LLVM's text form, with the build folder written @BUILD@: a file-local function (most
# specializations) is named after the object file it is compiled into, whose path is the build
# folder's. build-library.sh puts its own folder back, then indexes the profile.
#
#   scripts/pgo-profile.sh          (`make pgo-profile`; after `make lib` and the bench programs)
#   scripts/pgo-profile.sh --check  (`make test`): the profile is readable by this toolchain, and
#                                   at least 75% of its 100 busiest functions are in the library
#                                   (~89% when fresh: the optimizer inlines some of them away)
#
# The training runs, against a library built with counters (in .build-pgo): the hot paths
# (Benchmarks/c/hot_paths.c: an effect's round trip, a counter send, a todos toggle, and what
# users' features run: a round trip in pull mode (JSON and structs), a send with the journal on,
# matchscores' tab switch, a dice roll in pull mode with a manual clock),
# then every row of the C bench and of the scale table, so that each path the bench measures is
# counted.
#
# NB: With the counts, the compiler lays each function's likely path out straight and
# moves unlikely blocks and never-run functions away from the hot code: a round trip runs ~9k
# instructions through more code than the L1 instruction cache holds, and missed it ~180 times
# a trip (cachegrind); with the profile ~40, and the trip, the send and the toggle are 10–20%
# faster. A stale profile costs only that: functions whose code changed are compiled as without
# one. Regenerate it after changing the store's runtime, as scripts/tca.order.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
toolchain=$(cd "$(dirname "$(command -v "$swift")")" && pwd)
profdata="$toolchain/llvm-profdata"
profile="$root/scripts/tca.proftext.gz"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${1:-}" = "--check" ]; then
  gzip -dc "$profile" > "$work/tca.proftext"
  "$profdata" merge -o "$work/tca.profdata" "$work/tca.proftext"
  # NB: the busiest functions, by name (a file-local one is written `file;name`).
  "$profdata" show --topn=100 "$work/tca.profdata" \
    | sed -n 's/^ *\([^ ]*\), max count.*$/\1/p' \
    | sed 's/^.*;//' | sort -u > "$work/busy"
  nm "$root/build/lib/libtca.so.0" | awk '{print $3}' | sort -u > "$work/names"
  total=$(grep -c . "$work/busy" || true)
  found=$(comm -12 "$work/busy" "$work/names" | grep -c . || true)
  echo "scripts/tca.proftext.gz: $found of the $total busiest functions are in the library"
  if [ "$total" -eq 0 ] || [ $((found * 4)) -lt $((total * 3)) ]; then
    echo "scripts/tca.proftext.gz is stale: run \`make pgo-profile\` and commit it" >&2
    exit 1
  fi
  exit 0
fi

# NB: set before the build: whatever runs the library with counters writes its counts under
# $work, never beside the sources.
export LLVM_PROFILE_FILE="$work/run-%p.profraw"

# The library with counters, in a build folder of its own.
build="$root/.build-pgo"
SWIFT="$swift" SCRATCH_PATH="$build" TCA_PGO=generate \
  "$root/scripts/build-library.sh" "$root" tca 0.1.0 "$work/lib"
${CC:-cc} -std=c99 -O2 -I"$root/include" "$root/Benchmarks/c/hot_paths.c" -o "$work/hot_paths" \
  -L"$work/lib" -l:libtca.so.0 -Wl,-rpath,"$work/lib"

for path in roundtrip pull pullv2 send recsend toggle tab dice; do
  "$work/hot_paths" "$path" 20000
done
# NB: the bench programs find the library through their run path; this one comes first.
LD_LIBRARY_PATH="$work/lib" BENCH_SAMPLES=5 BENCH_SAMPLE_MS=20 "$root/build/bench/cbench" \
  > /dev/null
LD_LIBRARY_PATH="$work/lib" BENCH_SAMPLES=3 SCALE_MAX=10000 "$root/build/bench/scalebench" \
  > /dev/null 2>&1

"$profdata" merge --text -o "$work/tca.proftext" "$work"/run-*.profraw
# NB: LLVM 21 reads a line that starts with `$` after a function's counters as its count of
# bitmap bytes, and every Swift name starts with `$`: the text it writes does not read back.
# Each function gets an explicit `$0` (no bitmap bytes; Swift makes none).
if grep -q '^# Num Bitmap Bytes' "$work/tca.proftext"; then
  echo "pgo-profile.sh: the profile has bitmap bytes, which this script does not expect" >&2
  exit 1
fi
awk '
  /^# Num Counters:/ { print; getline; counters = $1; print; next }
  /^# Counter Values:/ {
    print
    for (i = 0; i < counters; i++) { getline; print }
    print "$0"
    next
  }
  { print }' "$work/tca.proftext" | sed "s|^$build/|@BUILD@/|" | gzip -9 -n > "$profile"
echo "$profile: $(wc -c < "$profile") bytes"
