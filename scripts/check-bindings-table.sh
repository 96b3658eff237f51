#!/bin/sh
# check-bindings-table.sh HEADER TABLE — the table of docs/bindings.md (TABLE) has one row for
# each function HEADER (include/tca.h) declares, and none for a function it does not: a function
# added to tca.h must be listed, with each binding's way to it (or why there is none).
header=$1 table=$2
declared=$(${CC:-cc} -E -P "$header" | tr '\n' ' ' | grep -oE '\btca_[a-z0-9_]+ *\(' |
  tr -d '( ' | sort -u)
listed=$(sed -n 's/^| `\(tca_[a-z0-9_]*\)` |.*/\1/p' "$table" | sort)
duplicated=$(echo "$listed" | uniq -d)
listed=$(echo "$listed" | uniq)
missing=$(echo "$declared" | grep -vxF "$listed")
extra=$(echo "$listed" | grep -vxF "$declared")
if [ -n "$missing$extra$duplicated" ]; then
  [ -n "$missing" ] && echo "$table lacks a row for:" $missing
  [ -n "$extra" ] && echo "$table has a row for what $header does not declare:" $extra
  [ -n "$duplicated" ] && echo "$table lists twice:" $duplicated
  exit 1
fi
echo "-- $table lists each of the $(echo "$declared" | wc -l) functions of $header"
