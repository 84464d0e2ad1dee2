#!/usr/bin/env bash
# `dragnet run`'s flags come from the agent's option tables: the help lists the new
# spellings (the old ones work, hidden), and an option the mode does not take, a malformed
# one, out= beside -o, or a forbidden combination, is refused before anything starts (exit
# status 2); so is a negative --top of dragnet report. No JVM.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run_dragnet run --help
expect_status 0
for flag in --mode --bytecodes --sample --gc-interval --gc-budget --use-epoch --use-contexts \
            --site-frames; do
  grep -q -- "^  $flag\\b" "$tmp/stdout" || fail "dragnet run --help lacks $flag"
done
! grep -q -- "^  --stacks\\?\\b" "$tmp/stdout" || fail "the old flags are shown"
expect_output "$tmp/stdout" "^mode lifetime:$"
expect_output "$tmp/stdout" "^  site-frames=N "

run_dragnet run --gc-interval 1m -- true
expect_status 2
expect_output "$tmp/stderr" "^dragnet: error: option 'gc-interval' is accepted by mode lifetime only, not by mode alloc$"

run_dragnet run --agent-opts stack=2 -- true
expect_status 2
expect_output "$tmp/stderr" "option 'stack' is accepted by mode lifetime only"

run_dragnet run --mode lifetime --stacks --sample 1k -- true
expect_status 2
expect_output "$tmp/stderr" "option 'use-contexts' is not available with 'sample' in mode lifetime yet"

run_dragnet run --agent-opts colour=red -- true
expect_status 2
expect_output "$tmp/stderr" "^dragnet: error: unknown option 'colour'"

# Malformed values are refused before the command starts: it never runs, no profile.
for opts in "--agent-opts depth=abc" "--agent-opts quiet=maybe" "--sample abc" "--agent-opts flush"; do
  run_dragnet run $opts -o "$tmp/p.dragnet" -- touch "$tmp/started"
  expect_status 2
  expect_output "$tmp/stderr" "^dragnet: error: option '[a-z]+'"
  [[ ! -e $tmp/started && ! -e $tmp/p.dragnet ]] || fail "$opts: the command ran"
done

# out= cannot take the profile's file from -o: an error naming both.
run_dragnet run -o "$tmp/a.dragnet" --agent-opts "quiet=on,out=$tmp/b.dragnet" -- touch "$tmp/started"
expect_status 2
grep -qF -- "-o $tmp/a.dragnet and --agent-opts out=$tmp/b.dragnet both name the profile's file" \
  "$tmp/stderr" || fail "the error does not name -o and out="
run_dragnet run --agent-opts "out=$tmp/b.dragnet" -- touch "$tmp/started"
expect_status 2
expect_output "$tmp/stderr" "given with -o, not --agent-opts out=$tmp/b.dragnet$"
[[ ! -e $tmp/started ]] || fail "the command ran"

# --top takes a count: a negative or non-numeric one is a usage error.
for top in -1 -20 abc 1.5x; do
  run_dragnet report --top "$top" "${BASH_SOURCE[0]}"  # refused before the file is read
  expect_status 2
  expect_output "$tmp/stderr" "^--top"
done

# The old spellings are accepted: the run goes on (no JVM: no profile, 3).
run_dragnet run --mode lifetime --stack 2 --stacks -- true
expect_status 3
echo "PASS"
