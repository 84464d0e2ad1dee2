#!/usr/bin/env bash
# Single .class mode: the output is byte-identical, parent directories are created, and an
# existing directory is refused as the output of a class file.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

unzip -qq "$DEMO_JAR" 'dragnet/demo/*' -d "$tmp/in"
in=$tmp/in/dragnet/demo/Main.class

run_dragnet instrument --tool none --check-identity "$in" -o "$tmp/out/sub/Main.class"
expect_status 0
expect_counts "1 1 1 0"
expect_output "$tmp/stdout" '\(class file\)$'
expect_output "$tmp/stdout" '^0 of 1 classes differ from input$'
cmp "$in" "$tmp/out/sub/Main.class" || fail "output class differs from the input"

# Detected by content, whatever the name.
cp "$in" "$tmp/in/Main.bin"
run_dragnet instrument --tool none "$tmp/in/Main.bin" -o "$tmp/Main.bin"
expect_status 0
cmp "$in" "$tmp/Main.bin" || fail "output class differs from the input"

run_dragnet instrument --tool none "$in" -o "$tmp/out"
expect_status 2
expect_output "$tmp/stderr" "is a directory"
echo "PASS"
