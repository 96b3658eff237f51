#!/bin/sh
# doc-snippets.sh DOC OUT "COMPILE" "LINK" — every ```cpp block of DOC (docs/cpp.md) is a whole
# program: each is written to OUT/snippetNN.cpp, built with `COMPILE snippet -o program LINK`
# (make test-cpp gives its compiler, flags and link line) and run; any that fails to build or
# exits non-zero fails the test.
set -e
doc=$1 out=$2 compile=$3 link=$4
rm -rf "$out"
mkdir -p "$out"
awk -v dir="$out" '
  /^```cpp( |$)/ { n++; file = sprintf("%s/snippet%02d.cpp", dir, n); inside = 1; next }
  /^```/ { inside = 0; next }
  inside { print > file }
' "$doc"
count=0
for snippet in "$out"/snippet*.cpp; do
  [ -e "$snippet" ] || { echo "$doc has no cpp snippet"; exit 1; }
  grep -q '^int main' "$snippet" || { echo "$snippet: not a whole program (no int main)"; exit 1; }
  program=${snippet%.cpp}
  # shellcheck disable=SC2086 # the compile and link lines are lists of words
  $compile "$snippet" -o "$program" $link 2>"$program.err" >/dev/null ||
    { echo "$snippet (from $doc) does not build:"; cat "$program.err"; exit 1; }
  "$program" > "$program.out" 2>&1 ||
    { echo "$snippet (from $doc) failed:"; cat "$program.out"; exit 1; }
  count=$((count + 1))
done
echo "-- $count snippets of $doc built and ran"
