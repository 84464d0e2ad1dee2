#!/usr/bin/env bash
# Usage: tests/agent/tag_field_agent/spike.sh [--jdk JAVA_HOME] [--deny list|object]
#                                             [--flags 'JAVA FLAGS'] [--only NAME,...]
#                                             [workloads|modules|jars]...
#
# What the object-tag field does to real programs (docs/FLOW-DESIGN.md, "Denied classes"):
# runs each part with and without the tagfield agent (build/tests/libdragnet_tag_field_agent.so;
# --deny object puts the field on every class but java/lang/Object) and compares.
#   workloads  the bench workloads (bench/workloads/*, prepared into build/bench-work as
#              bench/run does): normalised output and stderr (the agent's own lines aside)
#   modules    every class of every module of the JDK, loaded and linked with -Xverify:all
#              (tests/verifycorpus/VerifyClasses.java --jdk MODULE)
#   jars       every class of every jar under /usr/share/java, linked with -Xverify:all, the
#              other jars as dependencies (VerifyClasses --jar)
# Class outcomes are compared by kind (OK or the Throwable's class): the missing class a
# NoClassDefFoundError names and a loader's identity hash vary from run to run.
# Prints one line per workload, module or jar (SAME or DIFF) and a TOTAL per part; exits 1
# if anything differs. --flags go to both runs (default -Xverify:all); --only keeps the
# workloads, modules and jars (file names) named.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
jdk=/usr/lib/jvm/java-17-openjdk-amd64 deny=list flags=-Xverify:all parts=() only=
while (($#)); do
  case $1 in
    --jdk) jdk=$2; shift 2 ;;
    --deny) deny=$2; shift 2 ;;
    --flags) flags=$2; shift 2 ;;
    --only) only=,$2,; shift 2 ;;
    workloads|modules|jars) parts+=("$1"); shift ;;
    *) sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
((${#parts[@]})) || parts=(workloads modules jars)
agent=$root/build/tests/libdragnet_tag_field_agent.so
[[ -f $agent ]] || { echo "spike: build dragnet_tag_field_agent first" >&2; exit 2; }
java=$jdk/bin/java
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
"$jdk/bin/javac" -nowarn -d "$tmp/harness" "$root/tests/verifycorpus/VerifyClasses.java"
failed=0
picked() { [[ -z $only || $only == *",$1,"* ]]; }

# run OUT ERR AGENT(0|1) ARGS...: java with the common flags, with or without the agent.
run() {
  local out=$1 err=$2 with=$3 a=()
  shift 3
  ((with)) && a=("-agentpath:$agent=out=$tmp/p.dragnet,deny=$deny")
  # shellcheck disable=SC2086 # the flags are words
  timeout 1800 "$java" $flags -Xshare:off "${a[@]}" "$@" >"$out" 2>"$err"
  echo "rc=$?" >>"$err"
}

# compare NAME COUNT: the outcome files $tmp/base and $tmp/agent, by class and kind.
compare() {
  local kinds='s/(\t[A-Za-z0-9_.$]+)(: .*)?$/\1/'
  if cmp -s <(sed -E "$kinds" "$tmp/base") <(sed -E "$kinds" "$tmp/agent") &&
     [[ $(tail -1 "$tmp/base.err") == "$(tail -1 "$tmp/agent.err")" ]]; then
    echo "SAME $1: $2 classes, $(grep -c $'\tOK' "$tmp/base") link"
  else
    echo "DIFF $1: $2 classes"; diff "$tmp/base" "$tmp/agent" | head -n 6; diffs=$((diffs + 1))
  fi
}

# The parts are named part_*: bench/lib.sh, which the workloads source, defines `jars`.
part_workloads() {
  local name R B A diffs=0 n=0
  export JAVA_HOME=$jdk JAVA=$java JAVAC=$jdk/bin/javac
  source "$root/bench/lib.sh"
  for HERE in "$root"/bench/workloads/*/; do
    HERE=${HERE%/} name=$(basename "$HERE") W=$root/build/bench-work/$name
    picked "$name" || continue
    source "$HERE/workload.sh"
    if [[ ! -f $W/.prepared ]]; then
      rm -rf "$W" && mkdir -p "$W"
      (set -e; setup) >"$W.setup.log" 2>&1 || { echo "DIFF $name: setup failed"; diffs=$((diffs + 1)); continue; }
      touch "$W/.prepared"
    fi
    for v in base agent; do
      R=$tmp/run-$v && rm -rf "$R" && mkdir -p "$R/out"
      java_args "$R/out"
      (cd "$R" && run "$R/out/stdout" "$R/stderr" "$([[ $v == agent ]] && echo 1 || echo 0)" "${CMD[@]}")
      normalise "$R/out" >"$R/norm" 2>&1
    done
    B=$tmp/run-base A=$tmp/run-agent n=$((n + 1))
    if cmp -s "$B/norm" "$A/norm" && cmp -s "$B/stderr" <(grep -v '^dragnet: ' "$A/stderr"); then
      echo "SAME $name: $(grep -o '[0-9]* tag fields' "$A/stderr")"
    else
      echo "DIFF $name"; diff "$B/norm" "$A/norm" | head -n 6; tail -n 5 "$A/stderr"; diffs=$((diffs + 1))
    fi
  done
  echo "TOTAL workloads: $n, $diffs differ"
  ((diffs == 0)) || failed=1
}

part_modules() {
  local mod n total=0 diffs=0
  "$jdk/bin/jimage" list "$jdk/lib/modules" | awk -v d="$tmp" '
    /^Module: / { mod = $2; next }
    /\.class$/ { n = $1; if (n ~ /module-info.class$/) next; sub(/\.class$/, "", n)
                 gsub("/", ".", n); print n > (d "/list-" mod) }'
  for list in "$tmp"/list-*; do
    mod=${list#"$tmp"/list-}
    picked "$mod" || continue
    sort -o "$list" "$list" && n=$(wc -l <"$list") && total=$((total + n))
    run "$tmp/base" "$tmp/base.err" 0 --add-modules ALL-SYSTEM -cp "$tmp/harness" VerifyClasses --jdk "$mod" "$list"
    run "$tmp/agent" "$tmp/agent.err" 1 --add-modules ALL-SYSTEM -cp "$tmp/harness" VerifyClasses --jdk "$mod" "$list"
    compare "$mod" "$n"
  done
  echo "TOTAL modules: $total classes, $diffs modules differ"
  ((diffs == 0)) || failed=1
}

part_jars() {
  local jar j rest n total=0 diffs=0 count=0 all=()
  mapfile -t all < <(find -L /usr/share/java -name '*.jar' -type f -print0 | xargs -0 -r realpath | sort -u)
  for jar in "${all[@]}"; do
    unzip -Z1 "$jar" 2>/dev/null | grep '\.class$' | grep -v '\(^\|/\)module-info\.class$' |
      sed 's|^META-INF/versions/[0-9]*/||; s|\.class$||; s|/|.|g' | LC_ALL=C sort -u >"$tmp/list"
    [[ -s $tmp/list ]] && picked "$(basename "$jar")" || continue
    rest= && for j in "${all[@]}"; do [[ $j == "$jar" ]] || rest+=":$j"; done
    n=$(wc -l <"$tmp/list") total=$((total + n)) count=$((count + 1))
    run "$tmp/base" "$tmp/base.err" 0 -Djava.awt.headless=true -cp "$tmp/harness" VerifyClasses --jar "$jar$rest" --classes "$tmp/list"
    run "$tmp/agent" "$tmp/agent.err" 1 -Djava.awt.headless=true -cp "$tmp/harness" VerifyClasses --jar "$jar$rest" --classes "$tmp/list"
    compare "$(basename "$jar")" "$n"
  done
  echo "TOTAL jars: $count jars, $total classes, $diffs jars differ"
  ((diffs == 0)) || failed=1
}

echo "spike: $jdk, deny=$deny, flags $flags"
for p in "${parts[@]}"; do "part_$p"; done
exit "$failed"
