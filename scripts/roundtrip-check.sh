#!/usr/bin/env bash
# Usage: scripts/roundtrip-check.sh JAR
# Runs `dragnet instrument --tool none JAR -o OUT.jar` and checks that OUT.jar has the same
# entries, in the same order, with byte-identical contents. Exits 1 on any difference.
# The dragnet binary is taken from $DRAGNET, defaulting to build/bin/dragnet.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dragnet=${DRAGNET:-$root/build/bin/dragnet}
(($# == 1)) || { echo "usage: $0 JAR" >&2; exit 2; }
in=$1
[[ -f "$in" ]] || { echo "roundtrip-check: no such file: $in" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.jar

if ! "$dragnet" instrument --tool none "$in" -o "$out"; then
  echo "roundtrip-check: dragnet instrument failed on $in" >&2
  exit 1
fi

# Per-entry "length crc name" in archive order (covers order, duplicates and directory entries).
listing() {
  unzip -v "$1" | awk '/^--------/ { n++; next } n == 1 {
    name = $0; sub(/^ +/, "", name)
    for (i = 0; i < 7; i++) { sub(/^[^ ]+/, "", name); sub(/^ +/, "", name) }
    print $1, $7, name }'
}
listing "$in" >"$tmp/in.lst"
listing "$out" >"$tmp/out.lst"
if ! diff -u "$tmp/in.lst" "$tmp/out.lst" >"$tmp/lst.diff"; then
  echo "roundtrip-check: entry list/order/CRC differs for $in:" >&2
  head -n 40 "$tmp/lst.diff" >&2
  exit 1
fi

# Byte-for-byte comparison of every extracted file entry.
mkdir "$tmp/a" "$tmp/b"
unzip -qq -o "$in" -d "$tmp/a"
unzip -qq -o "$out" -d "$tmp/b"
if ! diff -r -q "$tmp/a" "$tmp/b" >&2; then
  echo "roundtrip-check: contents differ for $in" >&2
  exit 1
fi

echo "roundtrip-check: OK, $(wc -l <"$tmp/in.lst") entries identical in $in"
