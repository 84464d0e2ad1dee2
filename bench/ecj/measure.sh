#!/usr/bin/env bash
# The agent and the program's heap: ecj (Debian's libecj-java) compiles 320 generated
# classes (gen_sources.py). Finds the smallest -Xmx, in steps of 8 MB, with which the
# compile succeeds without the agent, then compiles with the agent (exact alloc mode) at
# that -Xmx, and prints both wall times and the agent's memory from the report.
#   bench/ecj/measure.sh [--dragnet build/bin/dragnet] [--java java] [--count 320]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dragnet=$here/../../build/bin/dragnet
java=java
count=320
while [[ $# -gt 0 ]]; do
  case $1 in
    --dragnet) dragnet=$2; shift 2 ;;
    --java) java=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    *) echo "usage: $0 [--dragnet PATH] [--java PATH] [--count N]" >&2; exit 2 ;;
  esac
done
ecj=/usr/share/java/ecj.jar
[[ -f $ecj ]] || { echo "no $ecj: apt-get install libecj-java" >&2; exit 2; }
agent=$(dirname "$(readlink -f "$dragnet")")/../lib/libdragnet.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_sources.py" "$work/src" "$count"

# compile MB [JAVA OPTIONS...]: 0 if ecj compiled every class; the wall time in $work/time.
compile() {
  local mb=$1
  shift
  rm -rf "$work/out" && mkdir "$work/out"
  /usr/bin/time -f %e -o "$work/time" timeout -s KILL 600 "$java" "-Xmx${mb}m" "$@" \
    -cp "$ecj" org.eclipse.jdt.internal.compiler.batch.Main -8 -nowarn -d "$work/out" \
    "$work/src" > "$work/log" 2>&1 &&
    [[ $(find "$work/out" -name '*.class' | wc -l) -ge $((4 * count)) ]]
}

mb=8
until compile $mb; do mb=$((mb + 8)); done
echo "smallest -Xmx without the agent: ${mb}m ($(cat "$work/time") s)"
compile $mb || true
echo "again without the agent: $(cat "$work/time") s"
if compile $mb "-agentpath:$agent=out=$work/ecj.dragnet"; then
  echo "with the agent at -Xmx${mb}m: $(cat "$work/time") s"
else
  echo "with the agent at -Xmx${mb}m: FAILED after $(cat "$work/time") s"
  tail -3 "$work/log"
fi
grep '^dragnet:' "$work/log" || true
[[ -f $work/ecj.dragnet ]] && "$dragnet" report "$work/ecj.dragnet" | sed -n '2,12p' | grep -E 'agent|dropped|calls|INCOMPLETE' || true
