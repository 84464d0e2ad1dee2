#!/usr/bin/env bash
# A truncated class inside a jar is copied through unchanged and reported as failed with
# its entry name and error; the run still succeeds (exit status 0).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cp "$DEMO_JAR" "$tmp/in.jar"
mkdir -p "$tmp/x/dragnet/demo"
unzip -p "$DEMO_JAR" dragnet/demo/Main.class >"$tmp/Main.class"
head -c 100 "$tmp/Main.class" >"$tmp/x/dragnet/demo/Broken.class"
(cd "$tmp/x" && zip -q "$tmp/in.jar" dragnet/demo/Broken.class)

run_dragnet instrument --tool none --check-identity "$tmp/in.jar" -o "$tmp/out.jar"
expect_status 0
expect_counts "12 11 11 1"
expect_output "$tmp/stdout" '^    FAILED dragnet/demo/Broken\.class: offset [0-9]+: .+'
expect_output "$tmp/stdout" '^0 of 11 classes differ from input$'
unzip -p "$tmp/out.jar" dragnet/demo/Broken.class | cmp - "$tmp/x/dragnet/demo/Broken.class" \
  || fail "the malformed class was not copied unchanged"
diff <(zip_rows "$tmp/in.jar" raw) <(zip_rows "$tmp/out.jar" raw) || fail "entries differ"

# --quiet: no report, but the failure on stderr.
run_dragnet instrument --tool none -q "$tmp/in.jar" -o "$tmp/out.jar"
expect_status 0
[[ ! -s "$tmp/stdout" ]] || fail "--quiet printed a report"
expect_output "$tmp/stderr" 'FAILED dragnet/demo/Broken\.class'
echo "PASS"
