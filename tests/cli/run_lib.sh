# Shared setup of the tests/cli/run_*_test.sh tests of `dragnet run`'s process handling
# (sourced after lib.sh): they start JVMs with the agent (build/lib/libdragnet.so, next to
# build/bin/dragnet) running tests/cli/java/RunProbe.java, and read the profiles' JSON
# reports with jq.

java=${JAVA_BIN:+$JAVA_BIN/}java
agent=$(cd "$(dirname "$DRAGNET")/../lib" && pwd)/libdragnet.so
[[ -f $agent ]] || fail "the agent $agent is missing"
mkdir -p "$tmp/classes"
jdk_tool javac -d "$tmp/classes" "$(dirname "${BASH_SOURCE[0]}")/java/RunProbe.java"
probe=(-cp "$tmp/classes" RunProbe)

# probe_arrays PROFILE...: the int[] arrays RunProbe.allocate made, in the (merged) report.
probe_arrays() {
  "$DRAGNET" report "$@" -f json | jq '[.sites[] | select(.type == "int[]" and
    (.frames[0] | startswith("RunProbe.allocate"))) | .count] | add // 0'
}

# expect_complete PROFILE: the JVM finished writing it.
expect_complete() {
  [[ $("$DRAGNET" report "$1" -f json | jq .complete) == true ]] || fail "$1 is incomplete"
}

# alive PID: the process exists and has not exited (a zombie has).
alive() {
  [[ -r /proc/$1/stat ]] && [[ $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) != Z ]]
}

# wait_for FILE PID: until FILE exists; fails if PID exits first (ctest's timeout bounds it).
wait_for() {
  while [[ ! -e $1 ]]; do
    alive "$2" || [[ -e $1 ]] || fail "process $2 ended before $1 appeared"
    sleep 0.05
  done
}
