#!/usr/bin/env bash
# The copy demo (demo/copy) without the agent: the planted and the --fixed program print the
# same report, on JDK 17 and on the newest JDK, and a smaller run is the same as well.
# Usage: copy_demo_plain_test.sh COPY_DEMO_JAR. Environment: JAVA_BIN (java 17; default PATH),
# DRAGNET_NEWEST_JDK (a JDK home or "none"; default: the newest JDK > 17 under /usr/lib/jvm).
set -euo pipefail
jar=$1
java17=${JAVA_BIN:+$JAVA_BIN/}java
# shellcheck source=../lib/newest_jdk.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/newest_jdk.sh"
newest=$(newest_jdk)
javas=("$java17")
if [[ -n "$newest" && "$newest" != none ]]; then javas+=("$newest/bin/java"); fi

expected=$("$java17" -jar "$jar")
[[ $(grep -c '^region' <<<"$expected") == 20 ]] || { echo "copy demo: no report: $expected" >&2; exit 1; }
for java in "${javas[@]}"; do
  for args in "" "--fixed"; do
    out=$("$java" -Duser.language=de -Duser.country=DE -jar "$jar" $args)
    if [[ "$out" != "$expected" ]]; then
      echo "copy demo: $java ${args:-(planted)} prints another report" >&2
      diff <(echo "$expected") <(echo "$out") >&2 || true
      exit 1
    fi
  done
  if [[ $("$java" -jar "$jar" 7) != $("$java" -jar "$jar" --fixed 7) ]]; then
    echo "copy demo: $java: 7 customers, planted and --fixed differ" >&2; exit 1
  fi
done
echo "copy demo: planted and --fixed print the same report on ${#javas[@]} JDKs"
