#!/bin/sh
# doc-snippets.sh DOC OUT CRATE — every ```rust block of DOC (docs/rust.md) is a whole program,
# built as a user's crate would be: a package in OUT that depends on CRATE (bindings/rust) by path,
# each block a binary of it (src/bin/snippetNN.rs), except the block that starts with the line
# "// build.rs", which is the package's build script. Built with cargo --offline (CARGO, and
# CARGO_TARGET_DIR as given), then each program is run; any that fails to build or exits non-zero
# fails the test.
set -e
doc=$1 out=$2 crate=$3
cargo=${CARGO:-cargo}
rm -rf "$out/src"
mkdir -p "$out/src/bin"
awk -v dir="$out/src/bin" '
  /^```rust$/ { n++; file = sprintf("%s/snippet%02d.rs", dir, n); inside = 1; next }
  /^```/ { inside = 0; next }
  inside { print > file }
' "$doc"
rm -f "$out/build.rs"
for snippet in "$out"/src/bin/snippet*.rs; do
  [ -e "$snippet" ] || { echo "$doc has no rust snippet"; exit 1; }
  if [ "$(head -1 "$snippet")" = "// build.rs" ]; then
    mv "$snippet" "$out/build.rs"
  elif ! grep -q '^fn main' "$snippet"; then
    echo "$snippet: not a whole program (no fn main)"; exit 1
  fi
done
[ -e "$out/build.rs" ] ||
  { echo "$doc has no build.rs snippet (a block starting // build.rs)"; exit 1; }
cat > "$out/Cargo.toml" <<TOML
[package]
name = "tca-doc-snippets"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
tca = { path = "$crate" }

[workspace]
TOML
(cd "$out" && "$cargo" build --offline -q --bins)
count=0
for snippet in "$out"/src/bin/snippet*.rs; do
  name=$(basename "$snippet" .rs)
  program="${CARGO_TARGET_DIR:-$out/target}/debug/$name"
  # NB: no LD_LIBRARY_PATH: the package's build.rs (from the doc) gives the programs the rpath.
  env -u LD_LIBRARY_PATH "$program" > "$out/$name.out" 2>&1 ||
    { echo "$snippet (from $doc) failed:"; cat "$out/$name.out"; exit 1; }
  count=$((count + 1))
done
echo "-- $count snippets of $doc built (with its build.rs) and ran"
