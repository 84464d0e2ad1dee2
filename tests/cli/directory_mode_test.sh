#!/usr/bin/env bash
# Directory mode: the demo classes extracted into a tree (plus an empty directory and a
# non-class file) are mirrored byte for byte.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$tmp/in"
unzip -qq "$DEMO_JAR" -d "$tmp/in"
mkdir -p "$tmp/in/empty/dir"
echo "not a class" >"$tmp/in/dragnet/notes.txt"

run_dragnet instrument --tool none --check-identity "$tmp/in" -o "$tmp/out"
expect_status 0
expect_counts "11 11 11 0"
expect_output "$tmp/stdout" '^0 of 11 classes differ from input$'
expect_output "$tmp/stdout" '^  other entries: +2 files copied, 5 directories$'
diff -r "$tmp/in" "$tmp/out" || fail "output tree differs from the input tree"
[[ -d "$tmp/out/empty/dir" ]] || fail "empty directory not mirrored"

# The output may already exist; it must not lie inside the input.
run_dragnet instrument --tool none -q "$tmp/in" -o "$tmp/out"
expect_status 0
[[ ! -s "$tmp/stdout" ]] || fail "--quiet printed a report"
run_dragnet instrument --tool none "$tmp/in" -o "$tmp/in/nested"
expect_status 2
expect_output "$tmp/stderr" "inside the input"
echo "PASS"
