#!/usr/bin/env bash
# dragnet run raises the heap limit of a mode that adds fields to the program's objects
# (src/cli/heap_limit.h): HeapHolder keeps 800,000 records of four ints alive, 36 bytes each
# with its reference (28.8 MB) and 52 under mode cost (the tag and four shadows: 41.6 MB).
# At -Xmx40m it runs without the agent; under mode cost it needs the raised limit: with
# --heap-factor 1 it runs out of heap, with the mode's factor it prints what it printed
# without the agent, dragnet says what it raised, and the profile's command line has it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"

jdk_tool javac -d "$tmp/classes" "$(dirname "${BASH_SOURCE[0]}")/java/HeapHolder.java"
holder=(-Xmx40m -cp "$tmp/classes" HeapHolder 800000)
want="records 800000 sum 1920004800000"

out=$("$java" "${holder[@]}") || fail "HeapHolder fails at -Xmx40m without the agent"
[[ $out == "$want" ]] || fail "HeapHolder printed '$out', expected '$want'"

# The limit left as it is: the records do not fit.
if "$DRAGNET" run --mode cost --heap-factor 1 -o "$tmp/one.dragnet" -- "$java" "${holder[@]}" \
     >"$tmp/one.out" 2>"$tmp/one.err"; then
  fail "mode cost ran at -Xmx40m with --heap-factor 1: the records should not fit"
fi
grep -q OutOfMemoryError "$tmp/one.err" || fail "no OutOfMemoryError: $(tail -5 "$tmp/one.err")"
grep -q "raised" "$tmp/one.err" && fail "--heap-factor 1 raised the limit: $(cat "$tmp/one.err")"

# The mode's factor.
"$DRAGNET" run --mode cost -o "$tmp/cost.dragnet" -- "$java" "${holder[@]}" \
  >"$tmp/cost.out" 2>"$tmp/cost.err" || fail "mode cost failed: $(tail -5 "$tmp/cost.err")"
[[ $(cat "$tmp/cost.out") == "$want" ]] || fail "mode cost printed $(cat "$tmp/cost.out")"
grep -q "^dragnet: mode cost adds fields to the program's objects: heap limit -Xmx40m raised to -Xmx80m (--heap-factor 2)$" \
  "$tmp/cost.err" || fail "no message of the raise: $(cat "$tmp/cost.err")"
line=$("$DRAGNET" report "$tmp/cost.dragnet" -f json | jq -r .run.commandLine)
# After the JVM's last option, so that it wins over the command's own -Xmx.
[[ $line == *" -Xmx40m -cp $tmp/classes -Xmx80m HeapHolder 800000" ]] ||
  fail "the profile's command line: $line"

# Mode alloc adds no field: nothing raised.
"$DRAGNET" run -o "$tmp/alloc.dragnet" -- "$java" "${holder[@]}" >"$tmp/alloc.out" \
  2>"$tmp/alloc.err" || fail "mode alloc failed: $(tail -5 "$tmp/alloc.err")"
grep -q "raised" "$tmp/alloc.err" && fail "mode alloc raised the limit: $(cat "$tmp/alloc.err")"
echo "ok"
