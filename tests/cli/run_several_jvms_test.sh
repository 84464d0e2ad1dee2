#!/usr/bin/env bash
# Several JVMs under one `dragnet run -o FILE` (a launcher starting two at once through
# JAVA_TOOL_OPTIONS) each write a complete profile of their own, FILE's name with the pid;
# `dragnet report A B` reports their sum. One JVM writes FILE itself. The agent's out=
# takes %p (the pid), and a JVM never writes into a file another one is writing.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"

cat >"$tmp/launch.sh" <<LAUNCHER
"$java" ${probe[*]} alloc 1000 & first=\$!
"$java" ${probe[*]} alloc 2000 & second=\$!
wait \$first && wait \$second
LAUNCHER
mkdir "$tmp/two"
run_dragnet run -o "$tmp/two/app.dragnet" -- bash "$tmp/launch.sh"
expect_status 0
profiles=("$tmp"/two/app.*.dragnet)
((${#profiles[@]} == 2)) || fail "expected two profiles, got: $(ls "$tmp/two")"
[[ $(ls "$tmp/two" | wc -l) == 2 ]] || fail "more than the two profiles: $(ls "$tmp/two")"
expect_output "$tmp/stderr" "^dragnet: 2 JVMs wrote profiles"
counts=()
for p in "${profiles[@]}"; do
  expect_complete "$p"
  [[ $p =~ /app\.([0-9]+)\.dragnet$ ]] || fail "unexpected name $p"
  "$DRAGNET" report "$p" >"$tmp/report.txt"
  grep -q "^dragnet allocation profile (pid ${BASH_REMATCH[1]})" "$tmp/report.txt" ||
    fail "$p is not the profile of pid ${BASH_REMATCH[1]}"
  expect_output "$tmp/stderr" "^  $p \\(pid ${BASH_REMATCH[1]}: RunProbe alloc [12]000\\)"
  counts+=("$(probe_arrays "$p")")
done
[[ $(printf '%s\n' "${counts[@]}" | sort -n | tr '\n' ' ') == "1000 2000 " ]] ||
  fail "expected 1000 and 2000 arrays, got ${counts[*]}"
[[ $(probe_arrays "${profiles[@]}") == 3000 ]] || fail "the merged report is not the sum"
"$DRAGNET" report "${profiles[@]}" >"$tmp/merged.txt"
grep -Eq "^dragnet allocation profile \\(pid [0-9]+, merged with [0-9]+\\)" "$tmp/merged.txt" ||
  fail "the merged report does not say it is merged"

# One JVM: its profile is FILE, and nothing else is left.
mkdir "$tmp/one"
run_dragnet run -o "$tmp/one/app.dragnet" -- "$java" "${probe[@]}" alloc 1000
expect_status 0
[[ $(ls "$tmp/one") == app.dragnet ]] || fail "expected app.dragnet only: $(ls "$tmp/one")"
expect_complete "$tmp/one/app.dragnet"
[[ $(probe_arrays "$tmp/one/app.dragnet") == 1000 ]] || fail "not 1000 arrays"

# The agent on its own: %p is the pid.
"$java" -agentpath:"$agent"=quiet=on,out="$tmp/p-%p.dragnet" "${probe[@]}" alloc 10
pfiles=("$tmp"/p-*.dragnet)
((${#pfiles[@]} == 1)) && [[ ${pfiles[0]} =~ /p-[0-9]+\.dragnet$ ]] || fail "no p-PID.dragnet"

# The agent on its own, one literal out= for two JVMs at once: the second writes its own.
mkdir "$tmp/busy"
set -m  # the background JVM in a process group of its own, its signals not ignored
"$java" -agentpath:"$agent"=out="$tmp/busy/app.dragnet" "${probe[@]}" wait 1000 "$tmp/busy" \
  >"$tmp/busy/out" 2>&1 &
first=$!
set +m
wait_for "$tmp/busy/pid" "$first"
status=0
"$java" -agentpath:"$agent"=out="$tmp/busy/app.dragnet" "${probe[@]}" alloc 2000 2>"$tmp/err" ||
  status=$?
cat "$tmp/err"
kill -TERM "$first"
wait "$first" || true
expect_status 0
second=("$tmp"/busy/app.*.dragnet)
((${#second[@]} == 1)) || fail "the second JVM wrote no app.PID.dragnet"
expect_output "$tmp/err" "^dragnet: $tmp/busy/app\\.dragnet is being written by another process; this JVM writes ${second[0]}"
expect_complete "$tmp/busy/app.dragnet"
expect_complete "${second[0]}"
[[ $(probe_arrays "$tmp/busy/app.dragnet") == 1000 ]] || fail "the first JVM's profile changed"
[[ $(probe_arrays "${second[0]}") == 2000 ]] || fail "not 2000 arrays in ${second[0]}"
echo "PASS"
