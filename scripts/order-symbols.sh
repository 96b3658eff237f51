#!/usr/bin/env bash
# Writes scripts/tca.order: the library's functions that its hot paths run (an effect's round
# trip, a counter send, a todos toggle; Benchmarks/c/hot_paths.c), busiest first, which
# scripts/build-library.sh hands to the linker so that they sit side by side.
#
#   scripts/order-symbols.sh          (after `make lib`; needs valgrind; `make order-symbols`)
#   scripts/order-symbols.sh --check  (`make test`): the hot paths run, and at least 90% of the
#                                     names in tca.order are in the library (else: stale)
#
# NB: a round trip runs ~11k instructions through ~145 functions spread over the library: more
# code than the L1 instruction cache holds. Placed together they miss it ~40% less (cachegrind:
# 375 → 233 misses a trip) and the trip is ~6% faster. A stale list costs nothing but that:
# names that are gone are skipped. Regenerate it after changing the store's runtime.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib="$root/build/lib/libtca.so.0"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-cc} -std=c99 -O2 -I"$root/include" "$root/Benchmarks/c/hot_paths.c" -o "$work/hot_paths" \
  -L"$root/build/lib" -l:libtca.so.0 -Wl,-rpath,"$root/build/lib"

if [ "${1:-}" = "--check" ]; then
  for path in roundtrip send toggle; do "$work/hot_paths" "$path" 10; done
  nm "$lib" | awk '{print $3}' | sort -u > "$work/names"
  total=$(grep -c . "$root/scripts/tca.order")
  found=$(sort -u "$root/scripts/tca.order" | comm -12 - "$work/names" | grep -c . || true)
  echo "scripts/tca.order: $found of $total functions are in the library"
  if [ $((found * 10)) -lt $((total * 9)) ]; then
    echo "scripts/tca.order is stale: run \`make order-symbols\` and commit it" >&2
    exit 1
  fi
  exit 0
fi

# Per path, the self cost of each function in N and 2N runs: their difference is N runs'
# worth, without the start-up.
for path in roundtrip send toggle; do
  for n in 1000 2000; do
    valgrind --tool=callgrind --callgrind-out-file="$work/$path.$n" "$work/hot_paths" "$path" "$n" \
      > /dev/null 2>&1
    callgrind_annotate --auto=no --threshold=100 --inclusive=no "$work/$path.$n" \
      > "$work/$path.$n.txt"
  done
done
nm "$lib" | awk '{print $3}' > "$work/mangled"
nm -C "$lib" | cut -c20- > "$work/demangled"
# NB: most of the standard library's functions share one input section (Swift.o's `.text`, 1.6
# MB): naming one of them moved that whole section to its place in the list, and split the hot
# functions listed after it from those before (docs/benchmarks.md: ~110 of the ~330 cache lines a
# round trip runs went 1.6 MB away). They are left out: the linker cannot move them one by one.
swift=${SWIFT:-swift}
core="$(cd "$(dirname "$(command -v "$swift")")/.." && pwd)/lib/swift_static/linux/libswiftCore.a"
: > "$work/unmovable"
if [ -f "$core" ]; then
  (cd "$work" && ar x "$core" Swift.o)
  text=$(readelf -SW "$work/Swift.o" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text  *PROGBITS.*/\1/p')
  readelf -sW "$work/Swift.o" | awk -v text="$text" '$7 == text && $4 == "FUNC" {print $8}' \
    > "$work/unmovable"
fi

python3 - "$work" "$root/scripts/tca.order" <<'PY'
import re, sys
work, target = sys.argv[1], sys.argv[2]
line = re.compile(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*?) \[([^\]]*)\]$')
def costs(path):
    found = {}
    for text in open(path):
        m = line.match(text)
        if m and 'libtca' in m.group(3):
            name = m.group(2).split(':', 1)[1].split("'")[0]
            found[name] = found.get(name, 0) + int(m.group(1).replace(',', ''))
    return found
mangled = open(work + '/mangled').read().split('\n')
demangled = open(work + '/demangled').read().split('\n')
known = set(mangled)
unmovable = set(open(work + '/unmovable').read().split())
by_demangled = {}
for m, d in zip(mangled, demangled):
    by_demangled.setdefault(d, m)
order, seen = [], set()
for path in ('roundtrip', 'send', 'toggle'):
    small, large = costs(f'{work}/{path}.1000.txt'), costs(f'{work}/{path}.2000.txt')
    busy = sorted(((large.get(k, 0) - small.get(k, 0), k) for k in large), reverse=True)
    for cost, name in busy:
        if cost < 1000:
            continue
        symbol = name if name in known else by_demangled.get(name)
        if symbol and symbol not in seen and symbol not in unmovable:
            seen.add(symbol)
            order.append(symbol)
open(target, 'w').write('\n'.join(order) + '\n')
print(f'{target}: {len(order)} functions')
PY
