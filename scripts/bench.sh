#!/usr/bin/env bash
# Usage: scripts/bench.sh [--jdk JDK_HOME] [BENCHMARK_ARGS...]
#
# Builds the release configuration and runs classfile_bench (parse, parse + write,
# parse + write + compare over every class of a JDK modules image) with 5 repetitions,
# reporting aggregates (mean, median, stddev, cv) only.
#   default        the running JDK's classes, extracted once into build/bench-classes
#   --jdk DIR      the classes of JDK DIR (DIR/lib/modules), extracted once into
#                  build/bench-classes-$(basename DIR)
#   DRAGNET_BENCH_CLASSES=DIR   any directory tree of .class files
# Extra arguments go to the benchmark, e.g. --benchmark_format=json or
# --benchmark_filter=BM_Parse$.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

if [[ "${1:-}" == "--jdk" ]]; then
  jdk=${2:?--jdk needs a JDK directory}
  shift 2
  [[ -f "$jdk/lib/modules" ]] || { echo "no lib/modules in $jdk" >&2; exit 2; }
  dir="$root/build/bench-classes-$(basename "$jdk")"
  if [[ ! -d "$dir" ]]; then
    mkdir -p "$root/build"
    rm -rf "$dir.tmp"
    jimage=$jdk/bin/jimage
    [[ -x "$jimage" ]] || jimage=jimage
    "$jimage" extract --dir "$dir.tmp" "$jdk/lib/modules"
    mv "$dir.tmp" "$dir"
  fi
  export DRAGNET_BENCH_CLASSES=$dir
fi

scripts/build.sh release
[[ -x build/bench/classfile_bench ]] || {
  echo "build/bench/classfile_bench was not built (is Google Benchmark installed?)" >&2
  exit 1
}
exec build/bench/classfile_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=2 "$@"
