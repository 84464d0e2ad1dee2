#!/usr/bin/env bash
# When no JVM writes a profile (the launcher resets JAVA_TOOL_OPTIONS, or starts no JVM),
# `dragnet run` says so and exits 3, or with the command's status if that failed; an older
# profile at -o FILE is gone, never shown as this run's.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"

mkdir "$tmp/w"
out=$tmp/w/app.dragnet
run_dragnet run -o "$out" -- "$java" "${probe[@]}" alloc 1000
expect_status 0
[[ $(probe_arrays "$out") == 1000 ]] || fail "no profile to start with"

# A launcher that resets JAVA_TOOL_OPTIONS: the program runs, unprofiled.
cat >"$tmp/reset.sh" <<LAUNCHER
unset JAVA_TOOL_OPTIONS
exec "$java" ${probe[*]} alloc 5
LAUNCHER
run_dragnet run -o "$out" -- bash "$tmp/reset.sh"
expect_status 3
expect_output "$tmp/stdout" "^allocated 5$"
expect_output "$tmp/stderr" "^dragnet: error: no JVM wrote a profile \\(the command started no JVM, or its JVMs did not get JAVA_TOOL_OPTIONS\\)$"
[[ ! -e $out ]] || fail "the older profile is still at $out"

# No JVM at all.
cp "$tmp/classes/RunProbe.class" "$out"  # anything at FILE goes
run_dragnet run -o "$out" -- true
expect_status 3
expect_output "$tmp/stderr" "^dragnet: error: no JVM wrote a profile"
[[ ! -e $out ]] || fail "the older file is still at $out"

# A failing command without a JVM: its own status, and the same message.
run_dragnet run -o "$out" -- bash -c 'exit 7'
expect_status 7
expect_output "$tmp/stderr" "^dragnet: error: no JVM wrote a profile"

# A failing JVM (an exception: status 1) writes its profile; its status is forwarded.
run_dragnet run -o "$out" -- "$java" "${probe[@]}" alloc not-a-number
expect_status 1
expect_complete "$out"

# --agent-opts help: the agent's options, the JVM stops (1), and no "no profile" error.
run_dragnet run -o "$out" --agent-opts help -- "$java" "${probe[@]}" alloc 1
expect_status 1
expect_output "$tmp/stderr" "^dragnet agent options"
! grep -q "no JVM wrote" "$tmp/stderr" || fail "an error for --agent-opts help"

# A command that cannot be run: 127.
run_dragnet run -o "$out" -- "$tmp/no-such-launcher"
expect_status 127
expect_output "$tmp/stderr" "cannot run $tmp/no-such-launcher"
[[ ! -e $out ]] || fail "a profile at $out"
[[ $(ls "$tmp/w") == "" ]] || fail "left behind: $(ls "$tmp/w")"
echo "PASS"
