#!/usr/bin/env bash
# Installs missing dependencies, builds dragnet (release), instruments the demo jar with the
# identity tool, and checks that the result behaves and looks exactly like the original.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

scripts/install-deps.sh
scripts/build.sh release

in=build/demo/demo.jar
out=build/demo/demo-identity.jar
rm -f "$out"
build/bin/dragnet instrument --tool none "$in" -o "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

java -jar "$in" >"$tmp/expected.txt"
java -jar "$out" >"$tmp/actual.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/actual.txt"; then
  echo "demo: FAILED, program output differs" >&2
  exit 1
fi

unzip -Z1 "$in" >"$tmp/in.lst"
unzip -Z1 "$out" >"$tmp/out.lst"
if ! diff -u "$tmp/in.lst" "$tmp/out.lst"; then
  echo "demo: FAILED, entry list differs" >&2
  exit 1
fi

mkdir "$tmp/a" "$tmp/b"
unzip -qq "$in" -d "$tmp/a"
unzip -qq "$out" -d "$tmp/b"
classes=0
while IFS= read -r entry; do
  [[ "$entry" == *.class ]] || continue
  cmp "$tmp/a/$entry" "$tmp/b/$entry" || { echo "demo: FAILED, $entry differs" >&2; exit 1; }
  classes=$((classes + 1))
done <"$tmp/in.lst"

echo "demo: identity: $out runs identically ($(wc -l <"$tmp/expected.txt") output lines)" \
  "and its $classes class files are byte-identical to $in"

# BIT's instruction counter: instrument the demo, run it, show the report it writes at exit.
icount=build/demo/demo-icount.jar
rm -f "$icount"
build/bin/dragnet instrument --tool icount "$in" -o "$icount" -q
java -Ddragnet.report="$tmp/icount.txt" -jar "$icount" >"$tmp/icount-out.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/icount-out.txt"; then
  echo "demo: FAILED, the icount-instrumented program's output differs" >&2
  exit 1
fi
echo
echo "---- dragnet-icount report of the demo (top 15 methods) ----"
head -n 21 "$tmp/icount.txt"
echo "-------------------------------------------------------------"
echo "demo: OK: $icount runs with the same output; full report: java -jar $icount" \
  "writes dragnet-icount.txt"
