#!/usr/bin/env bash
# The run a profile records (docs/PROFILE_FORMAT.md, Meta: command.line, main, java.*, host,
# start, duration.ms, dragnet.version) and how the reports show it: the JVM started with the
# agent directly (so that its command line is known exactly), once with -jar (the main
# class from the jar's manifest) and once in mode lifetime with a main class; each field
# checked against what the test knows: its own command line, `java -XshowSettings:properties`,
# `hostname`, its own clock around the run, `dragnet --version`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/run_lib.sh"

jdk_tool jar --create --file "$tmp/probe.jar" --main-class RunProbe -C "$tmp/classes" .
settings=$("$java" -XshowSettings:properties -version 2>&1)
setting() { sed -n "s/^ *$1 = //p" <<<"$settings"; }
vm_name=$(setting java.vm.name)
vm_vendor=$(setting java.vm.vendor)
vm_version=$(setting java.vm.version)
java_version=$(setting java.version)
[[ -n $vm_name && -n $vm_version && -n $java_version ]] || fail "no JVM settings: $settings"
version=$("$DRAGNET" --version)
version=${version#dragnet }

now_ms() { date +%s%3N; }

# run_probe PROFILE ARGS...: runs java -agentpath:...=out=PROFILE,ARGS[0] ARGS[1..]; sets
# $t0 and $t1 (ms) around it.
run_probe() {
  local profile=$1 opts=$2
  shift 2
  t0=$(now_ms)
  "$java" "-agentpath:$agent=out=$profile,quiet=on$opts" "$@" >"$tmp/java.out"
  t1=$(now_ms)
  [[ $(head -1 "$tmp/java.out") == "allocated 7" ]] || fail "the probe printed $(cat "$tmp/java.out")"
}

# check_run JSON-RUN MAIN COMMAND-LINE: the report's run object against what is known.
check_run() {
  local run=$1 main=$2 line=$3 start_ms duration
  [[ $(jq -r .commandLine <<<"$run") == "$line" ]] ||
    fail "command line: $(jq -r .commandLine <<<"$run"), expected $line"
  [[ $(jq -r .mainClass <<<"$run") == "$main" ]] || fail "main class: $(jq .mainClass <<<"$run")"
  [[ $(jq -r .jvm.name <<<"$run") == "$vm_name" ]] || fail "jvm name: $(jq .jvm <<<"$run")"
  [[ $(jq -r .jvm.vendor <<<"$run") == "$vm_vendor" ]] || fail "jvm vendor: $(jq .jvm <<<"$run")"
  [[ $(jq -r .jvm.version <<<"$run") == "$vm_version" ]] ||
    fail "jvm version: $(jq .jvm <<<"$run"), expected $vm_version"
  [[ $(jq -r .javaVersion <<<"$run") == "$java_version" ]] ||
    fail "java version: $(jq .javaVersion <<<"$run"), expected $java_version"
  [[ $(jq -r .host <<<"$run") == "$(hostname)" ]] || fail "host: $(jq .host <<<"$run")"
  [[ $(jq -r .dragnetVersion <<<"$run") == "$version" ]] || fail "version: $(jq .dragnetVersion <<<"$run")"
  local start
  start=$(jq -r .start <<<"$run")
  [[ $start =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$ ]] ||
    fail "start is not UTC ISO 8601: $start"
  start_ms=$(date -d "$start" +%s%3N)
  ((t0 <= start_ms && start_ms <= t1)) || fail "start $start ($start_ms) outside [$t0, $t1]"
  duration=$(jq -r .durationMs <<<"$run")
  ((duration > 0 && duration <= t1 - t0)) || fail "duration $duration ms, the run took $((t1 - t0))"
}

# check_text REPORT MAIN COMMAND-LINE: the text report's heading lines.
check_text() {
  local text=$1
  grep -qxF "  command   $3" "$text" || fail "no command line in the text report"
  grep -qxF "  main      $2" "$text" || fail "no main class in the text report"
  grep -qxF "  jvm       $vm_name $vm_version ($vm_vendor), Java $java_version" "$text" ||
    fail "no jvm line in the text report"
  grep -qxF "  host      $(hostname)" "$text" || fail "no host in the text report"
  grep -Eq "^  started   [0-9T:.-]+Z, ran [0-9]+\.[0-9]{3} s$" "$text" ||
    fail "no start and duration in the text report"
  grep -qxF "  dragnet   $version" "$text" || fail "no dragnet version in the text report"
  [[ $(sed -n 2p "$text") == "  command   $3" ]] || fail "the run is not at the top"
}

# -jar, mode alloc; an argument with a space and one with a quote.
run_probe "$tmp/jar.dragnet" "" -jar "$tmp/probe.jar" alloc 7 "two words" "it's"
line="$java -agentpath:$agent=out=$tmp/jar.dragnet,quiet=on -jar $tmp/probe.jar alloc 7 'two words' 'it'\\''s'"
"$DRAGNET" report "$tmp/jar.dragnet" -f json >"$tmp/jar.json"
check_run "$(jq .run "$tmp/jar.json")" RunProbe "$line"
[[ $(jq -r .run.command "$tmp/jar.json") == "$tmp/probe.jar alloc 7 two words it's" ]] ||
  fail "sun.java.command: $(jq .run.command "$tmp/jar.json")"
"$DRAGNET" report "$tmp/jar.dragnet" >"$tmp/jar.txt"
check_text "$tmp/jar.txt" RunProbe "$line"
"$DRAGNET" report "$tmp/jar.dragnet" -f html -o "$tmp/jar.html"
grep -qF '"mainClass":"RunProbe"' "$tmp/jar.html" || fail "the HTML page's data has no run"

# A main class, mode lifetime (sampled: quick): the same in its reports and SQLite tables.
run_probe "$tmp/life.dragnet" ",mode=lifetime,sample=64k" -cp "$tmp/classes" RunProbe alloc 7
line="$java -agentpath:$agent=out=$tmp/life.dragnet,quiet=on,mode=lifetime,sample=64k -cp $tmp/classes RunProbe alloc 7"
check_run "$("$DRAGNET" report "$tmp/life.dragnet" -f json | jq .run)" RunProbe "$line"
"$DRAGNET" report "$tmp/life.dragnet" >"$tmp/life.txt"
check_text "$tmp/life.txt" RunProbe "$line"
"$DRAGNET" export --sqlite "$tmp/life.db" "$tmp/life.dragnet"
[[ $(sqlite3 "$tmp/life.db" "SELECT value FROM run WHERE key = 'mainClass'") == RunProbe ]] ||
  fail "no run table: $(sqlite3 "$tmp/life.db" 'SELECT * FROM run')"
[[ $(sqlite3 "$tmp/life.db" "SELECT value FROM run WHERE key = 'jvm.version'") == "$vm_version" ]] ||
  fail "the run table has no jvm.version"
[[ $(sqlite3 "$tmp/life.db" "SELECT value FROM meta WHERE key = 'command.line'") == "$line" ]] ||
  fail "the meta table has no command.line"
echo "PASS"
