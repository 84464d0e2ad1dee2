#!/usr/bin/env bash
# Usage: scripts/corpus-roundtrip.sh [--jdk JAVA_HOME]... [--jars DIR]... [--reports DIR]
#
# The identity corpus run: pushes real-world classes through
# `dragnet instrument --tool none --check-identity` and checks that every class parses and is
# written back byte-identically.
#   --jdk JAVA_HOME  extract JAVA_HOME/lib/modules with that JDK's own `jimage extract` and run
#                    dragnet on the extracted tree
#   --jars DIR       run dragnet on every *.jar under DIR (symlinks followed, each real file
#                    once)
#   --reports DIR    keep each source's full dragnet report (all failures listed) in DIR
# Without --jdk/--jars: every JDK under /usr/lib/jvm that has lib/modules (each real
# directory once) and the jars under /usr/share/java.
#
# Prints one line per source, subtotals per JDK and per jar directory, and a final total of
# classes, bytes of class files, failures and differing classes. Exits 1 if any class failed
# or differed, or if dragnet could not process a source. The dragnet binary is taken from
# $DRAGNET, defaulting to build/bin/dragnet.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dragnet=${DRAGNET:-$root/build/bin/dragnet}

usage() { # usage STATUS: the header comment, on stdout for --help, else on stderr
  local text
  text=$(sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//')
  if (($1 == 0)); then echo "$text"; else echo "$text" >&2; fi
  exit "$1"
}

jdks=()
jar_dirs=()
reports=
while (($#)); do
  case "$1" in
    --jdk) (($# >= 2)) || usage 2; jdks+=("$2"); shift 2 ;;
    --jars) (($# >= 2)) || usage 2; jar_dirs+=("$2"); shift 2 ;;
    --reports) (($# >= 2)) || usage 2; reports=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "corpus-roundtrip: unknown argument: $1" >&2; usage 2 ;;
  esac
done
if ((${#jdks[@]} == 0 && ${#jar_dirs[@]} == 0)); then
  for home in /usr/lib/jvm/*/; do
    [[ -f "$home/lib/modules" ]] && jdks+=("$(realpath "$home")")
  done
  jar_dirs=(/usr/share/java)
fi
[[ -x "$dragnet" ]] || { echo "corpus-roundtrip: no dragnet binary at $dragnet" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -z "$reports" ]] || mkdir -p "$reports"

# Totals: all sources, and the current group (one JDK or one jar directory).
declare -A total=([classes]=0 [bytes]=0 [failed]=0 [differ]=0 [errors]=0 [sources]=0)
declare -A group

reset_group() { group=([classes]=0 [bytes]=0 [failed]=0 [differ]=0 [errors]=0 [sources]=0); }

# field NAME REPORT: the value of "  NAME:  VALUE" in a dragnet report (first word).
field() {
  awk -v key="  $1:" 'index($0, key) == 1 {
    split(substr($0, length(key) + 1), words, " "); print words[1]; exit }' "$2"
}

fmt_counts() { # classes bytes failed differ
  printf 'classes %7d  bytes %11d  failed %d  differing %d' "$1" "$2" "$3" "$4"
}

# run_source LABEL INPUT: runs dragnet on INPUT, prints one line, adds to the totals.
run_source() {
  local label=$1 input=$2 report=$tmp/report.txt rc=0 start=$SECONDS
  local classes bytes failed differ
  "$dragnet" instrument --tool none --check-identity --max-errors 0 "$input" -o "$tmp/out" \
    >"$report" 2>&1 || rc=$?
  rm -rf "$tmp/out"
  [[ -z "$reports" ]] || cp "$report" "$reports/$(echo "$label" | tr '/ ' '__').txt"
  group[sources]=$((group[sources] + 1))
  if ((rc == 2)) || ! grep -q '^  classes read:' "$report"; then
    echo "  ERROR $label: dragnet exited with status $rc:"
    sed 's/^/      /' "$report" | head -n 5
    group[errors]=$((group[errors] + 1))
    return
  fi
  classes=$(field "classes read" "$report")
  bytes=$(field "class bytes" "$report")
  failed=$(field "failed" "$report")
  differ=$(awk '/ classes differ from input$/ { print $1 }' "$report")
  printf '  %-60s %s  (%ds)\n' "$label" "$(fmt_counts "$classes" "$bytes" "$failed" "$differ")" \
    $((SECONDS - start))
  grep -E '^    (FAILED|differs:)' "$report" | head -n 10 || true
  group[classes]=$((group[classes] + classes))
  group[bytes]=$((group[bytes] + bytes))
  group[failed]=$((group[failed] + failed))
  group[differ]=$((group[differ] + differ))
}

# end_group NAME: prints the group's subtotal and adds it to the total.
end_group() {
  local key
  printf '%s: %d sources, %s, errors %d\n\n' "$1" "${group[sources]}" \
    "$(fmt_counts "${group[classes]}" "${group[bytes]}" "${group[failed]}" "${group[differ]}")" \
    "${group[errors]}"
  for key in "${!group[@]}"; do total[$key]=$((total[$key] + group[$key])); done
}

jdk_version() {
  sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$1/release" 2>/dev/null || true
}

run_jdk() {
  local home=$1 extracted=$tmp/modules label
  reset_group
  label="JDK $(jdk_version "$home") ($home)"
  echo "$label: jimage extract"
  if ! "$home/bin/jimage" extract --dir "$extracted" "$home/lib/modules" >"$tmp/jimage.log" 2>&1
  then
    echo "  ERROR jimage extract failed:"; sed 's/^/      /' "$tmp/jimage.log" | head -n 5
    group[errors]=1
  else
    run_source "$home/lib/modules" "$extracted"
  fi
  rm -rf "$extracted"
  end_group "$label"
}

run_jar_dir() {
  local dir=$1 jar
  reset_group
  echo "jars under $dir:"
  while IFS= read -r -d '' jar; do
    run_source "$jar" "$jar"
  done < <(find -L "$dir" -name '*.jar' -type f -print0 | xargs -0 -r realpath -z | sort -zu)
  end_group "jars under $dir"
}

declare -A seen
for home in "${jdks[@]}"; do
  real=$(realpath "$home")
  [[ -z "${seen[$real]:-}" ]] || continue
  seen[$real]=1
  run_jdk "$real"
done
for dir in "${jar_dirs[@]}"; do run_jar_dir "$dir"; done

printf 'TOTAL: %d sources, %s, errors %d\n' "${total[sources]}" \
  "$(fmt_counts "${total[classes]}" "${total[bytes]}" "${total[failed]}" "${total[differ]}")" \
  "${total[errors]}"
if ((total[failed] + total[differ] + total[errors] > 0)); then
  echo "corpus-roundtrip: FAILED"
  exit 1
fi
echo "corpus-roundtrip: OK, every class round-trips byte-identically"
