#!/usr/bin/env bash
# Fatal errors exit with status 2 and a clear message: missing input, unreadable archive,
# unwritable output, unknown tool, bad usage. Help exits 0.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run_dragnet instrument --tool none "$tmp/no-such.jar" -o "$tmp/out.jar"
expect_status 2
expect_output "$tmp/stderr" "^dragnet: error: cannot read input '.*/no-such\.jar': No such file"
[[ ! -e "$tmp/out.jar" ]] || fail "output created for a missing input"

printf 'PK\003\004 not really a zip' >"$tmp/bad.jar"
run_dragnet instrument --tool none "$tmp/bad.jar" -o "$tmp/out.jar"
expect_status 2
expect_output "$tmp/stderr" "cannot read input '.*/bad\.jar' as a zip archive"
[[ ! -e "$tmp/out.jar" ]] || fail "output left behind for an unreadable input"

touch "$tmp/blocker"
run_dragnet instrument --tool none "$DEMO_JAR" -o "$tmp/blocker/out.jar"
expect_status 2
expect_output "$tmp/stderr" "cannot write output"

run_dragnet instrument --tool nosuch "$DEMO_JAR" -o "$tmp/out.jar"
expect_status 2
expect_output "$tmp/stderr" "unknown tool 'nosuch'; known tools: none"

run_dragnet instrument "$DEMO_JAR"
expect_status 2
run_dragnet
expect_status 2

run_dragnet --help
expect_status 0
expect_output "$tmp/stdout" 'instrument'
run_dragnet instrument --help
expect_status 0
expect_output "$tmp/stdout" '--check-identity'
expect_output "$tmp/stdout" '^  none +identity'
echo "PASS"
