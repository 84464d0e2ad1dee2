#!/usr/bin/env bash
# Signals to `dragnet run` reach the JVM: it stops through its shutdown (hooks run, the
# agent finishes the profile), dragnet waits for it and exits with its status. Killed
# itself, dragnet still stops the JVM (SIGTERM), which finishes its profile.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"

set -m  # each background dragnet in a process group of its own, its signals not ignored

# start NAME [hold]: `dragnet run -o $tmp/NAME/p.dragnet` of RunProbe waiting in
# $tmp/NAME (with "hold", its shutdown hook waits for $tmp/NAME/go); sets $dragnet and $jvm.
start() {
  local dir=$tmp/$1
  mkdir "$dir"
  [[ -z ${2:-} ]] || touch "$dir/hold"
  "$DRAGNET" run -o "$dir/p.dragnet" -- "$java" "${probe[@]}" wait 1000 "$dir" \
    >"$dir/out" 2>"$dir/err" &
  dragnet=$!
  wait_for "$dir/pid" "$dragnet"
  jvm=$(cat "$dir/pid")
}

# finish NAME STATUS: dragnet exited with STATUS, the JVM is gone after its shutdown
# hook, and the profile is complete.
finish() {
  local dir=$tmp/$1 status=0
  wait "$dragnet" || status=$?
  sed 's/^/  | /' "$dir/out" "$dir/err"
  if alive "$jvm"; then
    kill -KILL "$jvm"
    fail "$1: the JVM (pid $jvm) is still running after dragnet ended"
  fi
  ((status == $2)) || fail "$1: expected exit status $2, got $status"
  grep -q '^stopped$' "$dir/out" || fail "$1: the JVM's shutdown hook did not run"
  expect_complete "$dir/p.dragnet"
  [[ $(probe_arrays "$dir/p.dragnet") == 1000 ]] || fail "$1: not 1000 arrays"
}

# SIGTERM to dragnet alone.
start term
kill -TERM "$dragnet"
finish term 143

# SIGHUP likewise.
start hup
kill -HUP "$dragnet"
finish hup 129

# Ctrl-C: SIGINT to the whole process group. dragnet waits for the JVM, whose shutdown
# hook is held until dragnet is seen still running.
start int hold
kill -INT -- "-$dragnet"
wait_for "$tmp/int/hook" "$jvm"
alive "$dragnet" || fail "dragnet ended before the JVM's shutdown (Ctrl-C)"
touch "$tmp/int/go"
finish int 130

# dragnet killed: the JVM gets SIGTERM and writes its profile (left in the run's directory).
start kill
kill -KILL "$dragnet"
wait "$dragnet" || true
# A JVM left running would never end: it fails the test after 120 s (far more than a JVM
# that got SIGTERM needs), and is killed.
for ((i = 0; i < 2400; i++)); do
  alive "$jvm" || break
  sleep 0.05
done
if alive "$jvm"; then
  kill -KILL "$jvm"
  fail "kill: the JVM (pid $jvm) still runs after dragnet was killed"
fi
grep -q '^stopped$' "$tmp/kill/out" || fail "kill: the JVM's shutdown hook did not run"
left=("$tmp"/kill/p.dragnet.run-*/"$jvm".dragnet)
[[ -f ${left[0]} ]] || fail "kill: no profile of the JVM: $(ls -R "$tmp/kill")"
expect_complete "${left[0]}"
echo "PASS"
