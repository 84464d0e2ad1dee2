#!/usr/bin/env bash
# Checks the cost oracles without the agent: the expected files parse, every program compiles
# with javac --release 11, every `node` record names an instruction that exists (its method,
# bytecode index, source line and opcode, from javap), and each expected file's `program` run
# prints expected/MAIN.out on JDK 17 and on the newest JDK present. Environment: JAVA_BIN
# (javac/java/javap 17; default: PATH), DRAGNET_NEWEST_JDK (a JDK home or "none"; default: the
# newest JDK > 17 under /usr/lib/jvm).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
javac=${JAVA_BIN:+$JAVA_BIN/}javac
javap=${JAVA_BIN:+$JAVA_BIN/}javap
java17=${JAVA_BIN:+$JAVA_BIN/}java

# shellcheck source=../../lib/newest_jdk.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/newest_jdk.sh"
newest=$(newest_jdk)
javas=("$java17")
if [[ -n "$newest" && "$newest" != none ]]; then javas+=("$newest/bin/java"); fi

fail=0
# The expected files: every record is known and well formed.
for f in "$here"/expected/*.cost; do
  awk -v file="$(basename "$f")" '
    function bad(why) { printf "%s:%d: %s: %s\n", file, NR, why, $0 > "/dev/stderr"; errors++ }
    function num(s) { return s ~ /^[0-9]+$/ }
    function node(s) { return s ~ /^[A-Za-z0-9_$]+\.(<init>|<clinit>|[A-Za-z0-9_$]+)@[0-9]+$/ }
    function site(s) { return s ~ /^[A-Za-z0-9_$]+\.java:[0-9]+(#[0-9]+)?$/ }
    function field(s) { return s ~ /^[A-Za-z0-9_$]+\.java:[0-9]+(#[0-9]+)?\.[A-Za-z0-9_$]+$/ }
    /^[ \t]*#/ || NF == 0 { next }
    $1 == "program" { programs++; next }
    $1 == "scope-methods" { for (i = 2; i <= NF; i++) inscope[$i] = 1 }
    $1 == "scope-files" || $1 == "scope-methods" { if (NF < 2) bad($1); next }
    $1 == "node" {
      if (NF != 7 || !node($2) || !num($3) || $4 !~ /^[a-z0-9_]+$/ ||
          $5 !~ /^(alloc|comp|load|store|pred|native|assign)$/ || !num($6) || $7 !~ /^[DP?-]$/)
        bad("node")
      if (seen[$2]++) bad("duplicate node")
      m = $2; sub(/@.*/, "", m)
      if (m in inscope) { count++; sum += $6; if ($7 == "D") { dn++; dsum += $6 } if ($7 == "P") psum += $6 }
      next }
    $1 == "nodes" { if (NF != 2 || !num($2)) bad("nodes"); want["nodes"] = $2 " " $2; next }
    $1 == "ac" || $1 == "hrac" || $1 == "hrab" { if (NF != 3 || !node($2) || !num($3)) bad($1); next }
    $1 == "rac" || $1 == "rab" { if (NF != 3 || !field($2) || !num($3)) bad($1); next }
    $1 == "consumed" { if (NF != 3 || !field($2) || $3 !~ /^(yes|no)$/) bad($1); next }
    $1 == "nrac" || $1 == "nrab" { if (NF != 4 || $2 !~ /^[1-4]$/ || !site($3) || !num($4)) bad($1); next }
    $1 == "refedge" { if (NF != 3 || !node($2) || !site($3)) bad($1); next }
    $1 == "pointsto" { if (NF != 3 || !field($2) || !site($3)) bad($1); next }
    $1 == "rank" { if (NF != 3 || !num($2) || !site($3)) bad($1); next }
    $1 == "ipd" || $1 == "ipp" || $1 == "nld" {
      if (NF != 3 || !num($2) || !num($3) || $2 + 0 > $3 + 0) bad($1); want[$1] = $2 " " $3; next }
    { bad("unknown record") }
    END {
      if (programs != 1) bad("one program line per file")
      # The summary records agree with the in-scope node records (their sum, D, P columns).
      got["nodes"] = count " " count; got["ipd"] = dsum " " sum; got["ipp"] = psum " " sum
      got["nld"] = dn " " count
      for (k in want) if (want[k] != got[k]) {
        printf "%s: %s is %s, the node records give %s\n", file, k, want[k], got[k] > "/dev/stderr"; errors++ }
      exit errors > 0 }' "$f" || fail=1
done

classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
"$javac" --release 11 -encoding UTF-8 -nowarn -d "$classes" "$here"/*.java 2>&1 |
  grep -v '^Note:' || true
[[ -f "$classes/CostOracle.class" ]] || { echo "cost oracles: javac failed" >&2; exit 1; }

# Every node record against the bytecode: "CLASS.METHOD@BCI LINE OPCODE" as javap shows it
# (xload_N/xstore_N as xload/xstore; the line from the LineNumberTable).
for f in "$here"/expected/*.cost; do
  while read -r cls; do
    "$javap" -c -l -p -cp "$classes" "$cls" | awk -v cls="$cls" '
      /^  [^ ].*\(.*\)/ {                          # a method header
        h = $0; sub(/\(.*/, "", h); n = split(h, w, " "); m = w[n]
        if (m == cls || m ~ /[.$]/ && substr(m, length(m) - length(cls) + 1) == cls) m = "<init>"
        if (m == "{}") m = "<clinit>"
        next }
      /^ *[0-9]+: [a-z]/ { b = $1; sub(/:/, "", b); op = $2; sub(/_[0-9m]+$/, "", op); ops[m "@" b] = op; next }
      /^ *line [0-9]+: [0-9]+$/ { l = $2; sub(/:/, "", l); lines[m] = lines[m] " " $3 ":" l; next }
      END {
        for (k in ops) {
          split(k, kb, "@"); best = -1; ln = 0; c = split(lines[kb[1]], e, " ")
          for (i = 1; i <= c; i++) { split(e[i], se, ":"); if (se[1] + 0 <= kb[2] + 0 && se[1] + 0 > best) { best = se[1] + 0; ln = se[2] } }
          print cls "." k, ln, ops[k] } }'
  done < <(awk '$1 == "node" { c = $2; sub(/\.[^.]*@.*/, "", c); print c }' "$f" | sort -u) \
    >"$classes/insns.txt"
  awk -v file="$(basename "$f")" '
    NR == FNR { have[$1] = $2 " " $3; next }
    $1 == "node" && have[$2] != $3 " " $4 {
      printf "%s: %s is \"%s\" in the bytecode, the file says \"%s %s\"\n", file, $2, have[$2], $3, $4 > "/dev/stderr"; bad++ }
    END { exit bad > 0 }' "$classes/insns.txt" "$f" || fail=1
done

# Each expected file's program run prints expected/MAIN.out.
grep -h '^program ' "$here"/expected/*.cost | sed 's/ *$//' | sort -u |
while read -r _ main args; do
  expected="$here/expected/$main.out"
  for java in "${javas[@]}"; do
    if ! out=$("$java" -cp "$classes" "$main" $args 2>&1); then
      echo "cost oracles: $main $args failed on $java: $out" >&2; exit 1
    fi
    if ! diff -u "$expected" <(printf '%s\n' "$out"); then
      echo "cost oracles: $main $args: output differs on $java" >&2; exit 1
    fi
  done
  echo "cost oracles: $main $args: same output on ${#javas[@]} JDKs"
done || fail=1
exit $fail
