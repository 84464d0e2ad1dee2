#!/usr/bin/env bash
# The cost demo (demo/cost) without the agent: the planted and the --fixed program print the
# same report, on JDK 17 and on the newest JDK, and a smaller run is the same as well.
# Usage: cost_demo_plain_test.sh COST_DEMO_JAR. Environment: JAVA_BIN (java 17; default PATH),
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
# The figures demo/cost/README.md derives its expectations from (2000 units).
for line in "classpath: 1056 files" "type imports: 7113 found, 2887 missing" \
            "package imports: 3252 found, 748 missing"; do
  grep -qxF "$line" <<<"$expected" || { echo "cost demo: no \"$line\" in: $expected" >&2; exit 1; }
done
for java in "${javas[@]}"; do
  for args in "" "--fixed"; do
    out=$("$java" -Duser.language=de -Duser.country=DE -jar "$jar" $args)
    if [[ "$out" != "$expected" ]]; then
      echo "cost demo: $java ${args:-(planted)} prints another report" >&2
      diff <(echo "$expected") <(echo "$out") >&2 || true
      exit 1
    fi
  done
  if [[ $("$java" -jar "$jar" 7) != $("$java" -jar "$jar" --fixed 7) ]]; then
    echo "cost demo: $java: 7 units, planted and --fixed differ" >&2; exit 1
  fi
done
echo "cost demo: planted and --fixed print the same report on ${#javas[@]} JDKs"
