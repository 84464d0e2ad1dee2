#!/usr/bin/env bash
# The agent loaded twice into one JVM (the same library twice, a copy of it through
# JAVA_TOOL_OPTIONS) profiles the program once: the second load says so and does nothing,
# the program's output and exit status are its own. `dragnet run` refuses a command that
# loads the agent itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"

# run_java ARGS...: java with ARGS; sets $status, output in $tmp/out and $tmp/err.
run_java() {
  status=0
  "$java" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
  echo "\$ java $*  (exit status $status)"
  sed 's/^/  | /' "$tmp/out" "$tmp/err"
}

# The same library twice on the command line.
run_java -agentpath:"$agent"=out="$tmp/first.dragnet" \
         -agentpath:"$agent"=out="$tmp/second.dragnet" "${probe[@]}" alloc 1000
expect_status 0
[[ $(cat "$tmp/out") == "allocated 1000" ]] || fail "the program's output changed"
expect_output "$tmp/err" "^dragnet: warning: the agent is already loaded \\($agent=out=$tmp/first\\.dragnet\\); this second load \\($agent=out=$tmp/second\\.dragnet\\) does nothing"
[[ ! -e $tmp/second.dragnet ]] || fail "the second load wrote a profile"
expect_complete "$tmp/first.dragnet"
[[ $(probe_arrays "$tmp/first.dragnet") == 1000 ]] || fail "not 1000 arrays in the profile"

# A copy of the library under another name, through JAVA_TOOL_OPTIONS (loaded first).
mkdir "$tmp/copy"
cp "$agent" "$tmp/copy/libother.so"
JAVA_TOOL_OPTIONS="-agentpath:$tmp/copy/libother.so=out=$tmp/tool.dragnet" \
  run_java -agentpath:"$agent"=out="$tmp/cmd.dragnet" "${probe[@]}" alloc 1000
expect_status 0
[[ $(cat "$tmp/out") == "allocated 1000" ]] || fail "the program's output changed"
expect_output "$tmp/err" "already loaded \\($tmp/copy/libother\\.so=out=.*\\); this second load \\($agent=out="
[[ ! -e $tmp/cmd.dragnet ]] || fail "the second load wrote a profile"
[[ $(probe_arrays "$tmp/tool.dragnet") == 1000 ]] || fail "not 1000 arrays in the profile"

# dragnet run adds the agent itself: a command or JAVA_TOOL_OPTIONS with it is refused.
run_dragnet run -o "$tmp/run.dragnet" -- "$java" -agentpath:"$agent"=quiet=on "${probe[@]}" alloc 1
expect_status 2
expect_output "$tmp/stderr" "^dragnet: error: the command loads the agent already \\(-agentpath:$agent=quiet=on\\)"
[[ ! -s $tmp/stdout && ! -e $tmp/run.dragnet ]] || fail "the command ran"
JAVA_TOOL_OPTIONS="-Xss1m -agentpath:$tmp/copy/libdragnet.so" \
  run_dragnet run -o "$tmp/run.dragnet" -- "$java" "${probe[@]}" alloc 1
expect_status 2
expect_output "$tmp/stderr" "already \\(JAVA_TOOL_OPTIONS: -agentpath:$tmp/copy/libdragnet\\.so\\)"
[[ ! -s $tmp/stdout && ! -e $tmp/run.dragnet ]] || fail "the command ran"
echo "PASS"
