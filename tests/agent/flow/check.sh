#!/usr/bin/env bash
# Checks the flow oracles without the agent: the expected files parse, every program compiles
# with javac --release 11, and each run of each expected file's `program` lines prints
# expected/PROGRAM.out on JDK 17 and on the newest JDK present, under two time zones and
# locales. Environment: JAVA_BIN (javac/java 17; default: PATH), DRAGNET_NEWEST_JDK (a JDK
# home or "none"; default: the newest JDK > 17 under /usr/lib/jvm).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
javac=${JAVA_BIN:+$JAVA_BIN/}javac
java17=${JAVA_BIN:+$JAVA_BIN/}java

# shellcheck source=../../lib/newest_jdk.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/newest_jdk.sh"
newest=$(newest_jdk)
javas=("$java17")
if [[ -n "$newest" && "$newest" != none ]]; then javas+=("$newest/bin/java"); fi

fail=0
# The expected files: every record is known and well formed.
for f in "$here"/expected/*.edges; do
  awk -v file="$(basename "$f")" '
    function bad(why) { printf "%s:%d: %s: %s\n", file, NR, why, $0 > "/dev/stderr"; errors++ }
    function num(s) { return s ~ /^(>=)?[0-9]+$/ || s ~ /^[0-9]+\.\.[0-9]+$/ }
    function node(s) { return s == "C" || s ~ /^static:[A-Za-z0-9_$.]+\.[A-Za-z0-9_$]+$/ ||
                       s ~ /^[A-Za-z0-9_$]+\.java:[0-9]+(#[0-9]+)?(@[A-Za-z0-9_$]+\.java:[0-9]+(#[0-9]+)?)?(\.[A-Za-z0-9_$]+)?$/ }
    /^[ \t]*#/ { next }
    { if (NF && ($NF == "jdk17" || $NF == "jdk25")) NF-- }
    NF == 0 { next }
    $1 == "ci" || $1 == "cs" {
      if (NF != 6 || $3 != "->" || !node($2) || !node($4) || !num($5) || $6 !~ /^[1248]$/) bad("edge")
      next }
    $1 == "absent" || $1 == "ignore" || $1 == "path" || $1 == "nopath" {
      if (NF != 5 || ($2 != "ci" && $2 != "cs") || $4 != "->") bad($1); next }
    $1 == "nath" { if (NF != 4 || !node($3) || !num($4)) bad("nath"); next }
    $1 == "notnath" { if (NF != 3 || !node($3)) bad("notnath"); next }
    $1 == "clone" || $1 == "topclone" {
      if (NF != 5 || !node($3) || !node($4) || !num($5)) bad($1); next }
    $1 == "topchain" || $1 == "rank3chain" {
      if (NF != 9 || $4 != "->" || !node($3) || !node($5) || !num($6)) bad($1); next }
    $1 == "flat" || $1 == "cumulative" || $1 == "cut" { if (NF != 3 || !num($3)) bad($1); next }
    $1 ~ /^(program|scope-files|scope-sites|scope-fields|scope-statics|scope-consumer)$/ { next }
    { bad("unknown record") }
    END { exit errors > 0 }' "$f" || fail=1
done

classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
"$javac" --release 11 -encoding UTF-8 -nowarn -d "$classes" "$here"/*.java 2>&1 |
  grep -v '^Note:' || true
[[ -f "$classes/ListClient.class" ]] || { echo "flow oracles: javac failed" >&2; exit 1; }

# Each distinct program line of the expected files, with the output file of its program.
grep -h '^program ' "$here"/expected/*.edges | sed 's/ *$//' | sort -u |
while read -r _ main args; do
  expected="$here/expected/$main.out"
  for java in "${javas[@]}"; do
    for env in "TZ=UTC LANG=C" "TZ=Pacific/Auckland LANG=de_DE.UTF-8"; do
      if ! out=$(env $env "$java" -cp "$classes" "$main" $args 2>&1); then
        echo "flow oracles: $main $args failed on $java ($env): $out" >&2; exit 1
      fi
      if ! diff -u "$expected" <(printf '%s\n' "$out"); then
        echo "flow oracles: $main $args: output differs on $java ($env)" >&2; exit 1
      fi
    done
  done
  echo "flow oracles: $main $args: same output on ${#javas[@]} JDKs"
done || fail=1
exit $fail
