#!/usr/bin/env bash
# `dragnet attach`: a sampled profile started in a running JVM agrees with one of the same
# program started with the agent, and both with the workload's known shares; attach, stop,
# attach again; --duration ends the recording by itself; what is not a JVM, or not there,
# is refused without harm; the program's output and exit status are its own.
#
# The program (tests/cli/java/AttachTarget.java) runs ten allocation sites in a loop until
# told to stop; site k allocates k units a round, k/55 of the workload's bytes.
#
# Tolerance: with interval I = 64k, a site of byte share p is sampled about p * B / I times
# when B bytes are recorded; each profile is read once it holds B >= 3 GB (about 46,000
# samples), so the largest site (p = 18.2%, ~8,400 samples) has a standard error of about
# 0.2 percentage points, the smallest (1.8%, ~840) 0.06; the difference of two profiles
# 0.28 at most. 1 percentage point is 3.5 standard errors of a difference and 5 of a share
# against its known value: a failure means a bias, not bad luck.
#
# attach_test.sh newest: the same on the newest JDK (JDK 21 on warns on stderr of an agent
# loaded into the running JVM unless given -XX:+EnableDynamicAgentLoading, which the
# program is given there).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
flags=()
if [[ ${1:-} == newest ]]; then
  source "$(dirname "${BASH_SOURCE[0]}")/../lib/newest_jdk.sh"
  newest=$(newest_jdk)
  [[ -n $newest && $newest != none ]] || {
    echo "skipped: no JDK newer than 17"
    exit 0
  }
  JAVA_BIN=$newest/bin
  flags=(-XX:+EnableDynamicAgentLoading)
fi
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"
export LC_ALL=C # sort and join agree on the order

jdk_tool javac -d "$tmp/classes" "$(dirname "${BASH_SOURCE[0]}")/java/AttachTarget.java"
target=("${flags[@]}" -Xmx256m -cp "$tmp/classes" AttachTarget)
enough=3000000000 # bytes recorded before a profile is compared (see the tolerance above)

# launch NAME [COMMAND...]: AttachTarget in $tmp/NAME (under COMMAND, e.g. dragnet run),
# once warmed up; sets $pid (the JVM's) and $launched (what was started).
launch() {
  local dir=$tmp/$1
  shift
  mkdir "$dir"
  "$@" "$java" "${target[@]}" "$dir" >"$dir/out" 2>"$dir/err" &
  launched=$!
  wait_for "$dir/ready" "$launched"
  pid=$(cat "$dir/pid")
}

# finish NAME: stops the program, which must print only "stopped" and exit with 7.
finish() {
  local dir=$tmp/$1 status=0
  touch "$dir/stop"
  wait "$launched" || status=$?
  ((status == 7)) || fail "$1: exit status $status, not the program's 7"
  [[ $(cat "$dir/out") == stopped ]] || fail "$1: stdout is not the program's: $(cat "$dir/out")"
}

# await_bytes PID FILE: until `dragnet attach PID dump -o FILE` holds $enough bytes.
await_bytes() {
  while :; do
    run_dragnet attach "$1" dump -o "$2" >/dev/null
    expect_status 0
    (($(bytes "$2") >= enough)) && return
    sleep 0.5
  done
}
bytes() { "$DRAGNET" report "$1" -f json | jq .totals.bytes; }

# shares FILE: "site percent" for the top ten sites by bytes (the allocating frame).
shares() {
  "$DRAGNET" report "$1" -f json | jq -r '(.totals.bytes) as $all |
    [.sites | group_by(.frames[0])[] | {site: .[0].frames[0], bytes: (map(.bytes) | add)}]
    | sort_by(-.bytes)[:10][] | "\(.site) \(.bytes * 100 / $all)"' | sort
}

# within NAME A B: two "site percent" lists name the same sites, each within 1 point.
within() {
  join <(echo "$2") <(echo "$3") | awk -v name="$1" '
    { n++; d = $2 - $3; if (d < 0) d = -d
      if (d > 1) { print name ": " $1 " differs by " d " points"; bad = 1 } }
    END { if (n != 10) { print name ": " n " of 10 sites in common"; bad = 1 }; exit bad }' ||
    fail "$1"
}

# The known answer: site k holds k/55 of the bytes.
expected=$(for k in $(seq 1 10); do
  echo "AttachTarget.site$k(AttachTarget.java:$((22 + k))) $(awk -v k="$k" 'BEGIN { print k * 100 / 55 }')"
done | sort)

# Started with the agent (flushed every second; dump reads it as it goes).
launch started "$DRAGNET" run --sample 64k --agent-opts flush=1 -o "$tmp/started.dragnet" --
await_bytes "$pid" "$tmp/started-dump.dragnet"
run_dragnet attach "$pid" --sample 64k -o "$tmp/refused.dragnet"
expect_status 1
expect_output "$tmp/stderr" "started with the dragnet agent"
finish started
expect_complete "$tmp/started.dragnet"

# The same program attached to after the same warm-up, stopped, attached to again.
launch attached
run_dragnet attach "$pid" --sample 64k -o "$tmp/attached.dragnet"
expect_status 0
run_dragnet attach "$pid" --sample 64k -o "$tmp/twice.dragnet"
expect_status 1
expect_output "$tmp/stderr" "already recording"
await_bytes "$pid" "$tmp/attached-dump.dragnet"
run_dragnet attach "$pid" stop
expect_status 0
expect_complete "$tmp/attached.dragnet"
"$DRAGNET" report "$tmp/attached.dragnet" >"$tmp/attached.txt"
grep -q "^  attached   started in the running JVM" "$tmp/attached.txt" ||
  fail "the report does not say the profile started late"
run_dragnet attach "$pid" --sample 64k -o "$tmp/again.dragnet"
expect_status 0
await_bytes "$pid" "$tmp/again-dump.dragnet"
run_dragnet attach "$pid" stop
expect_status 0
expect_complete "$tmp/again.dragnet"

# --delay and --duration: complete by itself while the program runs; stop then finds
# nothing to stop.
run_dragnet attach "$pid" --sample 64k --delay 500ms --duration 1s -o "$tmp/timed.dragnet"
expect_status 0
until [[ $("$DRAGNET" report "$tmp/timed.dragnet" -f json 2>/dev/null | jq .complete) == true ]]; do
  alive "$pid" || fail "the program ended"
  sleep 0.2
done
alive "$pid" || fail "the program ended"
run_dragnet attach "$pid" stop
expect_status 1
expect_output "$tmp/stderr" "no dragnet session is recording"
"$DRAGNET" report "$tmp/timed.dragnet" >"$tmp/timed.txt"
grep -q "^  attached   .* + 500 ms delay, for 1000 ms:" "$tmp/timed.txt" ||
  fail "the report does not give the delay and the duration"
(($(bytes "$tmp/timed.dragnet") > 0)) || fail "nothing recorded in --duration 1s"
# Mode lifetime rewrites classes, even sampled: refused by the agent, which stays usable.
run_dragnet attach "$pid" --mode lifetime --sample 64k -o "$tmp/lifetime.dragnet"
expect_status 1
expect_output "$tmp/stderr" "rewrites classes as they load"
[[ ! -e $tmp/lifetime.dragnet ]] || fail "a refused start left a profile"
# A session the program's exit ends: the profile is complete.
run_dragnet attach "$pid" --sample 64k -o "$tmp/at-exit.dragnet"
expect_status 0
finish attached
expect_complete "$tmp/at-exit.dragnet"

started=$(shares "$tmp/started.dragnet")
attached=$(shares "$tmp/attached.dragnet")
again=$(shares "$tmp/again.dragnet")
echo "top sites, % of bytes (started with the agent, attached):"
join <(echo "$started") <(echo "$attached") | sed 's/^/  /'
within "started vs attached" "$started" "$attached"
within "started vs known" "$started" "$expected"
within "attached vs known" "$attached" "$expected"
within "attached again vs known" "$again" "$expected"

# Transparency: the same output and status without dragnet (finish checks them), and no
# stderr with or without attaching.
launch plain
finish plain
for name in plain attached; do
  [[ ! -s $tmp/$name/err ]] || fail "$name: stderr: $(cat "$tmp/$name/err")"
done

# Not a JVM, not a process, an exact mode: refused; the process is unharmed.
sleep 600 &
sleeper=$!
run_dragnet attach "$sleeper" --sample 64k
expect_status 1
expect_output "$tmp/stderr" "is not a Java VM"
alive "$sleeper" || fail "the process attached to died"
kill "$sleeper"
run_dragnet attach 999999999 --sample 64k
expect_status 1
expect_output "$tmp/stderr" "no process 999999999"
run_dragnet attach "$$" --mode alloc
expect_status 2
expect_output "$tmp/stderr" "cannot start in a running JVM"
run_dragnet attach "$$" --sample 64k --duration 3x
expect_status 2
expect_output "$tmp/stderr" "a time is a number with ms, s"
run_dragnet attach "$$" dump
expect_status 2
expect_output "$tmp/stderr" "dump needs -o FILE"
echo "PASS"
