#!/usr/bin/env bash
# bench/lifetime-scale/run.sh [--rounds N] [--runs K] [--keep] [DIR]
# The size of an exact lifetime profile and the cost of reporting it
# (docs/PERFORMANCE.md, "Lifetime profiles that scale"): runs LifetimeScale (many short- and
# long-lived objects from a few dozen sites) under `dragnet run --mode lifetime` K times
# (the run's wall time each), then reports the last profile (text, JSON and HTML) under
# /usr/bin/time -v and prints the objects, the profile's bytes per object, and each
# report's wall time and peak RSS. DIR (default build/bench-results/lifetime-scale) keeps
# the profile only with --keep. Uses build/bin/dragnet.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=100 runs=1 keep=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) break ;;
  esac
done
out=${1:-$root/build/bench-results/lifetime-scale}
dragnet=$root/build/bin/dragnet
mkdir -p "$out/classes"
javac -d "$out/classes" "$root/bench/lifetime-scale/LifetimeScale.java"
profile=$out/scale.dragnet
# "Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02.03" -> seconds
wall() { awk -F': ' '/Elapsed/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"; }
rss() { awk -F': ' '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$1"; }
echo "# bench/lifetime-scale/run.sh --rounds $rounds --runs $runs ($(git -C "$root" rev-parse --short HEAD))"
for ((i = 1; i <= runs; i++)); do
  /usr/bin/time -v -o "$out/run.time" "$dragnet" run --mode lifetime -o "$profile" -- \
    java -cp "$out/classes" LifetimeScale "$rounds" >"$out/run.out" 2>"$out/run.err"
  echo "run $i: $(wall "$out/run.time") s wall, $(rss "$out/run.time") MB peak RSS"
done
bytes=$(stat -c %s "$profile")
for format in json text html; do
  /usr/bin/time -v -o "$out/report.time" "$dragnet" report -f "$format" -o "$out/report.$format" \
    "$profile" 2>"$out/report.err" || { cat "$out/report.err"; exit 1; }
  echo "report -f $format: $(wall "$out/report.time") s wall, $(rss "$out/report.time") MB peak RSS"
done
objects=$(jq '.trackedObjects' "$out/report.json")
echo "objects $objects, profile $bytes bytes, $(awk -v b="$bytes" -v o="$objects" 'BEGIN { printf "%.2f", b / o }') bytes per object"
[[ $keep == 1 ]] || rm -f "$profile"
