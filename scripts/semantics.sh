#!/usr/bin/env bash
# Usage: scripts/semantics.sh [--tool icount|branches|none] [--programs LIST] [--work DIR]
#                             [--keep] [--jdk JAVA_HOME]
#
# Semantics check: real programs instrumented offline must behave exactly like the originals.
# Per program:
#   orig     the original jars, default JVM settings
#   inst     the jars instrumented with `dragnet instrument --tool TOOL`, same settings
#   steadyN  the instrumented jars again, at least twice, on a steady JVM (see below)
# Every run's output (files written, stdout, stderr, exit status) must be byte-identical to
# orig's. With icount or branches the steady runs' reports (-Ddragnet.report) must repeat:
# two runs of a deterministic program execute the same instructions. Command lines are
# identical in all runs except for the class path and JVM options.
#
# Programs (tests/semantics/ holds their inputs):
#   javac        jdk.compiler extracted from the JDK image, run from the class path with the
#                module excluded, compiling tests/semantics/javac-src/ (class files compared)
#   xalan        xalan2 + serializer + xercesImpl, Process transforming xalan/doc.xml with
#                xalan/style.xsl (interpretive processor)
#   xalan-xsltc  the same with -XSLTC (the stylesheet compiled to a translet at run time)
#   jython       jython.jar running jython/script.py (stdout compared)
#   fop          fop + xmlgraphics-commons + batik-all rendering fop/doc.fo to PDF (compared
#                with creation dates and the document ID normalised)
#
#   --tool T       tool to instrument with (default icount)
#   --programs L   comma-separated subset of the programs above (default: all)
#   --work DIR     keep jars, outputs and reports in DIR (default: a temporary directory,
#                  removed on success and kept on failure)
#   --keep         keep the temporary directory
#   --max-runs N   steady runs at most, until two reports agree (default 4; minimum 2)
#   --jdk HOME     JDK whose java runs the programs and whose jdk.compiler is instrumented
#                  (default: $JAVA_HOME if set, else the JDK of `java` on PATH)
#
# A steady JVM: the programs are deterministic, the JVM under them is not quite. The steady
# runs use the Epsilon GC (no collections: weak caches such as javac's CandidatesCache and
# Jython's finalizers do not depend on GC timing) and, for Jython, a dynamic AppCDS archive
# dumped by a training run (HotSpot orders a class's methods by the addresses of their name
# symbols; Jython sorts what reflection returns, so the sort's work would vary). Jython also
# always gets python.console.encoding, else it runs `locale charmap` and races the process
# reaper. Some variation remains in javac (its class loading order and the number of identity
# hash codes it draws vary between runs of the unmodified compiler too), so the steady run is
# repeated, up to --max-runs times, until two reports agree; runs that disagreed are listed.
#
# Prints one line per program and exits 1 if any output differs, any run fails or crashes,
# or no two steady runs' reports agree. The dragnet binary is $DRAGNET,
# defaulting to build/bin/dragnet.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dragnet=${DRAGNET:-$root/build/bin/dragnet}
inputs=$root/tests/semantics
all_programs=(javac xalan xalan-xsltc jython fop)

usage() { # usage STATUS: the header comment, on stdout for --help, else on stderr
  local text
  text=$(sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//')
  if (($1 == 0)); then echo "$text"; else echo "$text" >&2; fi
  exit "$1"
}

tool=icount
programs=()
work=
keep=0
max_runs=4
jdk=${JAVA_HOME:-}
while (($#)); do
  case "$1" in
    --tool) (($# >= 2)) || usage 2; tool=$2; shift 2 ;;
    --tool=*) tool=${1#--tool=}; shift ;;
    --programs) (($# >= 2)) || usage 2; IFS=, read -r -a programs <<<"$2"; shift 2 ;;
    --work) (($# >= 2)) || usage 2; work=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --max-runs) (($# >= 2)) || usage 2; max_runs=$2; shift 2 ;;
    --jdk) (($# >= 2)) || usage 2; jdk=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "semantics: unknown argument: $1" >&2; usage 2 ;;
  esac
done
case "$tool" in icount|branches|none) ;; *) echo "semantics: unknown tool: $tool" >&2; usage 2 ;; esac
[[ "$max_runs" =~ ^[0-9]+$ ]] && ((max_runs >= 2)) || { echo "semantics: --max-runs needs a number >= 2" >&2; usage 2; }
((${#programs[@]})) || programs=("${all_programs[@]}")
for p in "${programs[@]}"; do
  [[ " ${all_programs[*]} " == *" $p "* ]] || { echo "semantics: unknown program: $p" >&2; usage 2; }
done

[[ -x "$dragnet" ]] || { echo "semantics: no dragnet binary at $dragnet" >&2; exit 2; }
if [[ -z "$jdk" || ! -x "$jdk/bin/java" ]]; then
  java_path=$(command -v java) || { echo "semantics: no java on PATH" >&2; exit 2; }
  jdk=$(dirname "$(dirname "$(readlink -f "$java_path")")")
fi
java=$jdk/bin/java
for f in "$java" "$jdk/bin/jimage" "$jdk/bin/jar" "$jdk/lib/modules"; do
  [[ -e "$f" ]] || { echo "semantics: $f is missing (need a full JDK)" >&2; exit 2; }
done
share=/usr/share/java

if [[ -n "$work" ]]; then
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
  keep=1
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/dragnet-semantics.XXXXXX")
fi
failed=0
cleanup() {
  if ((keep || failed)); then echo "semantics: work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------
# Programs. prepare_P fills $work/orig/P/ with the program's original jars (links or built
# files); jars_P lists which of them to instrument; cmd_P JARDIR runs the program with the jars
# of JARDIR ($work/orig/P or $work/inst/P) in the current directory, writing its files under
# ./out. Every path in a command line except JARDIR is the same in all runs.

link_jars() { # link_jars DIR JAR...: symlink /usr/share/java jars into DIR
  local dir=$1 j
  shift
  mkdir -p "$dir"
  for j in "$@"; do
    [[ -f "$share/$j" ]] || { echo "semantics: $share/$j is missing (scripts/install-deps.sh)" >&2; return 1; }
    ln -sf "$(readlink -f "$share/$j")" "$dir/$j"
  done
}

prepare_javac() {
  local d=$work/orig/javac x=$work/extract
  rm -rf "$x" && mkdir -p "$d" "$x"
  "$jdk/bin/jimage" extract --include 'regex:/jdk.compiler/.*' --dir "$x" "$jdk/lib/modules"
  "$jdk/bin/jar" --create --file "$d/jdk.compiler.jar" -C "$x/jdk.compiler" .
  rm -rf "$x"
}
jars_javac() { echo jdk.compiler.jar; }
cmd_javac() {
  local srcs
  mapfile -t srcs < <(find "$inputs/javac-src" -name '*.java' | LC_ALL=C sort)
  "$java" $jvm_opts --limit-modules java.se,jdk.zipfs -cp "$1/jdk.compiler.jar" \
    com.sun.tools.javac.Main -Xlint:all -g -parameters -d out "${srcs[@]}"
}

xalan_jars=(xalan2.jar serializer.jar xercesImpl.jar)
prepare_xalan() { link_jars "$work/orig/xalan" "${xalan_jars[@]}" xml-apis.jar; }
jars_xalan() { printf '%s\n' "${xalan_jars[@]}"; }
cmd_xalan() {
  "$java" $jvm_opts -cp "$1/xalan2.jar:$1/serializer.jar:$1/xercesImpl.jar:$1/xml-apis.jar" \
    org.apache.xalan.xslt.Process $xalan_mode -IN "$inputs/xalan/doc.xml" \
    -XSL "$inputs/xalan/style.xsl" -OUT out/out.html
}
prepare_xalan-xsltc() { link_jars "$work/orig/xalan-xsltc" "${xalan_jars[@]}" xml-apis.jar; }
jars_xalan-xsltc() { jars_xalan; }
cmd_xalan-xsltc() { xalan_mode=-XSLTC cmd_xalan "$@"; }
xalan_mode=

prepare_jython() { link_jars "$work/orig/jython" jython.jar; }
jars_jython() { echo jython.jar; }
cmd_jython() {
  # jython.jar's manifest Class-Path names its dependencies by absolute path.
  "$java" $jvm_opts -Dpython.cachedir.skip=true -Dpython.console.encoding=UTF-8 \
    -cp "$1/jython.jar" org.python.util.jython "$inputs/jython/script.py"
}

fop_inst=(fop.jar xmlgraphics-commons.jar batik-all.jar)
fop_deps=(commons-io.jar serializer.jar xalan2.jar xml-apis.jar commons-logging.jar
          xercesImpl.jar xml-apis-ext.jar fontbox2.jar)
prepare_fop() { link_jars "$work/orig/fop" "${fop_inst[@]}" && link_jars "$work/deps" "${fop_deps[@]}"; }
jars_fop() { printf '%s\n' "${fop_inst[@]}"; }
cmd_fop() {
  local cp="$1/fop.jar:$1/xmlgraphics-commons.jar:$1/batik-all.jar" j
  for j in "${fop_deps[@]}"; do cp+=":$work/deps/$j"; done
  "$java" $jvm_opts -Djava.awt.headless=true \
    -Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.SimpleLog \
    -cp "$cp" org.apache.fop.cli.Main -fo "$inputs/fop/doc.fo" -pdf out/doc.pdf
}
# FOP stamps the PDF with the time (Info dictionary, XMP packet) and derives /ID from it:
# overwrite those in place with zeros (same length, so the xref offsets stay valid).
normalise_fop() {
  local f=$1/out/doc.pdf
  [[ -f "$f" ]] || return 0
  perl -0777 -pi -e 's/(D:)(\d{14})/$1 . ("0" x length($2))/ge;
    s/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/"0" x 19/ge;
    s{(/ID\s*\[\s*<)([0-9A-Fa-f]+)(>\s*<)([0-9A-Fa-f]+)>}{$1 . ("0" x length($2)) . $3 . ("0" x length($4)) . ">"}ge' "$f"
}

# The steady JVM (see the header). -Xlog:disable: Epsilon and CDS print warnings on stdout.
steady_opts="-XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx2g -Xlog:disable"
steady_cds() { [[ "$1" == jython ]]; }

# ---------------------------------------------------------------------------------------------

# run_program P LABEL JARDIR: runs P in $work/run (the same directory every time) and moves
# the run directory to $work/results/P/LABEL; sets $elapsed (seconds).
jvm_opts=
run_program() {
  local p=$1 label=$2 jars=$3 rc=0 start
  rm -rf "$work/run" && mkdir -p "$work/run/out"
  start=$EPOCHREALTIME
  (cd "$work/run" && jvm_opts="$jvm_opts -Ddragnet.report=$work/run/report.txt" \
     "cmd_$p" "$jars" >stdout 2>stderr) || rc=$?
  elapsed=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
  echo "$rc" >"$work/run/status"
  if declare -F "normalise_$p" >/dev/null; then "normalise_$p" "$work/run"; fi
  rm -rf "${work:?}/results/$p/$label"
  mv "$work/run" "$work/results/$p/$label"
}

# same_output P A B: the runs' files, stdout, stderr and exit status are identical.
same_output() {
  local a=$work/results/$1/$2 b=$work/results/$1/$3 f
  for f in stdout stderr status; do cmp -s "$a/$f" "$b/$f" || return 1; done
  diff -r -q "$a/out" "$b/out" >/dev/null
}

# report_total FILE: the report's headline figure.
report_total() {
  local f=$1
  [[ -f "$f" ]] || { echo "no report"; return; }
  case "$tool" in
    icount) sed -n 's/^total instructions: //p' "$f" ;;
    branches) awk '/^taken:/ { print $2 + $5 " outcomes"; exit }' "$f" ;;
  esac
}

summary=()
note() { summary+=("$*"); }

check_program() {
  local p=$1 dir=$work/results/$1 inst=$work/inst/$1 j base=0 ok=1
  local read=0 changed=0 failed_classes=0 unchanged=0
  mkdir -p "$dir" "$inst"
  echo "== $p"
  "prepare_$p" || { note "$p: FAILED to prepare"; failed=1; return; }
  : >"$dir/instrument.txt"
  for j in $("jars_$p"); do
    "$dragnet" instrument --tool "$tool" --id-base "$base" --max-errors 0 \
      "$work/orig/$p/$j" -o "$inst/$j" >>"$dir/instrument.txt" 2>&1 \
      || { echo "semantics: dragnet failed on $j" >&2; cat "$dir/instrument.txt" >&2; note "$p: dragnet FAILED on $j"; failed=1; return; }
    base=$((base + 10000000))
  done
  # Jars that are not instrumented are used from orig/ by both (link them in).
  for j in "$work/orig/$p"/*.jar; do [[ -e "$inst/${j##*/}" ]] || ln -sf "$(readlink -f "$j")" "$inst/${j##*/}"; done
  read=$(awk '/classes read:/ { s += $3 } END { print s + 0 }' "$dir/instrument.txt")
  changed=$(awk '/^  changed:/ { s += $2 } END { print s + 0 }' "$dir/instrument.txt")
  failed_classes=$(awk '/^  failed:/ { s += $2 } END { print s + 0 }' "$dir/instrument.txt")
  unchanged=$(awk '/methods unchanged:/ { s += $3 } END { print s + 0 }' "$dir/instrument.txt")
  grep -E '^ +(FAILED|UNCHANGED) ' "$dir/instrument.txt" | head -20 || true

  jvm_opts= run_program "$p" orig "$work/orig/$p"
  local t_orig=$elapsed status_orig
  jvm_opts= run_program "$p" inst "$inst"
  local t_inst=$elapsed
  status_orig=$(cat "$dir/orig/status")
  if [[ "$status_orig" != 0 ]]; then
    echo "semantics: $p: the original run exited with $status_orig:" >&2
    head -20 "$dir/orig/stderr" >&2
    note "$p: original run FAILED (exit $status_orig); see $dir/orig/stderr"
    failed=1
    return
  fi
  local out=yes runs=(inst)
  check_output() { # check_output RUN: compares RUN's output with orig's
    if ! same_output "$p" orig "$1"; then
      out=NO
      ok=0
      echo "semantics: $p: run $1 differs from the original run (exit $(cat "$dir/$1/status")):" >&2
      diff -r "$dir/orig/out" "$dir/$1/out" 2>&1 | head -5 >&2 || true
      diff "$dir/orig/stdout" "$dir/$1/stdout" 2>&1 | head -10 >&2 || true
      diff "$dir/orig/stderr" "$dir/$1/stderr" 2>&1 | head -20 >&2 || true
    fi
  }
  check_output inst

  local counts="" agree="" k i match="" odd=()
  if [[ "$tool" != none ]]; then
    local opts=$steady_opts
    if steady_cds "$p"; then
      jvm_opts="$opts -XX:ArchiveClassesAtExit=$work/$p.jsa" run_program "$p" train "$inst"
      runs+=(train)
      check_output train
      [[ ! -f "$work/$p.jsa" ]] || opts+=" -XX:SharedArchiveFile=$work/$p.jsa"
    fi
    for ((k = 1; k <= max_runs && ${#match} == 0; k++)); do
      jvm_opts=$opts run_program "$p" "steady$k" "$inst"
      runs+=("steady$k")
      check_output "steady$k"
      [[ -f "$dir/steady$k/report.txt" ]] || continue
      for ((i = 1; i < k; i++)); do
        if cmp -s "$dir/steady$i/report.txt" "$dir/steady$k/report.txt"; then match="steady$i = steady$k"; break; fi
      done
    done
    if [[ -n "$match" ]]; then
      counts="$tool $(report_total "$dir/${match##* }/report.txt")"
      agree="reports identical ($match)"
      for ((i = 1; i < k; i++)); do
        cmp -s "$dir/steady$i/report.txt" "$dir/${match##* }/report.txt" || odd+=("steady$i: $(report_total "$dir/steady$i/report.txt")")
      done
      ((${#odd[@]} == 0)) || agree+="; differed: ${odd[*]}"
    else
      counts="$tool $(report_total "$dir/steady1/report.txt")"
      agree="reports DIFFER in all $max_runs steady runs"
      ok=0
      diff "$dir/steady1/report.txt" "$dir/steady2/report.txt" 2>&1 | head -10 >&2 || true
    fi
  fi
  local files
  files=$(find "$dir/orig/out" -type f | wc -l)
  note "$(printf '%-12s %5d/%-5d classes instrumented, %d failed, %d methods unchanged | output identical: %s (runs: %d; %d files + stdout/stderr) | %s, %s | time %ss orig, %ss instrumented' \
    "$p" "$changed" "$read" "$failed_classes" "$unchanged" "$out" "${#runs[@]}" "$files" "${counts:-no report}" "${agree:-n/a}" "$t_orig" "$t_inst")"
  ((ok)) || failed=1
  echo "${summary[-1]}"
}

echo "semantics: tool $tool, java $("$java" -version 2>&1 | head -1), work $work"
for p in "${programs[@]}"; do check_program "$p"; done
echo
echo "== semantics summary (tool $tool)"
printf '%s\n' "${summary[@]}"
if ((failed)); then echo "semantics: FAILED"; exit 1; fi
echo "semantics: all ${#programs[@]} programs behave identically when instrumented"
