#!/usr/bin/env bash
# Usage: scripts/verify-corpus.sh [--tool icount|branches | --agent MODE [--agent-opts K=V,...]]
#                                 [--jdk JAVA_HOME|newest] [--jdk-only|--jars-only]
#                                 [--sample N] [--module NAME]... [--jar PATH]... [--jar-sample N]
#                                 [--jars DIR] [--keep DIR]
#
# Differential verification corpus: every class of the JDK's modules and of every jar under
# /usr/share/java is loaded and linked (so verified) twice, once from the original and once
# from the copy instrumented with `dragnet instrument --tool TOOL` (or, with --agent, under
# the agent, which rewrites it as it loads), and the outcomes are compared class by class.
# A class that links from the original but not from the instrumented copy (or fails there
# with another kind of error) is a NEW FAILURE.
#   --tool NAME      the tool to instrument with (default icount)
#   --agent MODE     instead of offline copies: the second run loads the agent,
#                    -agentpath:$DRAGNET_AGENT=mode=MODE,dump=...,out=... (default
#                    build/lib/libdragnet.so), which rewrites every class as the JVM loads it;
#                    both runs verify boot classes too (-XX:+BytecodeVerificationLocal) and
#                    have CDS off. The agent writes each class it rewrites (dump=DIR) and its
#                    profile, whose Failures records ($DRAGNET_PROFILE_FAILURES, default
#                    build/tests/dragnet-profile-failures, reads them) and closing line say
#                    what it left unrewritten: per module/jar, the classes checked are counted
#                    as rewritten, not rewritten (the agent's failure, with its reason) or
#                    unchanged (linked, nothing to rewrite), and methods not or partly rewritten
#   --agent-opts O   more agent options, appended (e.g. slots=1, bytecodes=on)
#   --jdk JAVA_HOME  the JDK whose modules are checked and whose java runs every check
#                    (default /usr/lib/jvm/java-17-openjdk-amd64); its image is extracted with
#                    its own jimage, or build/corpus/<jdk dir name> is reused if present.
#                    "newest": $DRAGNET_NEWEST_JDK, else the JDK of the highest major version
#                    above 17 under /usr/lib/jvm, /opt/*jdk*, /usr/local/*jdk* (where
#                    tests/agent/newest_jdk.h looks); if there is none, says "skipped: no JDK
#                    newer than 17" and exits 0
#   --jdk-only       only the JDK modules;  --jars-only  only the jars
#   --sample N       check at most N classes of each module and jar, evenly spread over the
#                    sorted names (instrumentation still covers the whole module or jar)
#   --module NAME    check only this JDK module (repeatable; default: all modules)
#   --jar PATH       check only this jar (repeatable; default: every jar under the jar dir)
#   --jar-sample N   check only N jars of the jar dir, evenly spread over the sorted paths
#   --jars DIR       the jar dir (default /usr/share/java): each real jar file once; every
#                    jar there is also a dependency of the others (on their class path)
#   --keep DIR       keep every module's/jar's class list and outcomes in DIR, and for each
#                    new failure the original and instrumented class file
#                    (default for the failing classes: /tmp/verify-corpus-failures)
#                    (--agent: the rewritten class as the agent dumped it, if it did)
#
# How a class is checked (tests/verifycorpus/VerifyClasses.java, compiled on each run):
# Class.forName(name, false, loader) then getDeclaredMethods(), which links and runs the
# verifier; every outcome is "OK" or the Throwable's class and message.
# - JDK module M: one JVM per run with -XX:+BytecodeVerificationLocal (boot classes are not
#   verified by default) and --add-modules ALL-SYSTEM, the class loaded with M's own loader;
#   the instrumented run patches M with --patch-module M=DIR (module-info.class removed; the
#   tools' runtime classes replaced by generated no-op stubs, because a patched java.base
#   runs its instrumented code from the VM's first bytecode on). CDS is off in both runs.
#   A class that links but that the -Xlog:verification log does not name counts as "not
#   verified by HotSpot": on JDK 17 the boot classes java.lang.Object, Class, String, Throwable
#   and the subclasses of jdk.internal.reflect.MagicAccessorImpl (55 classes); on JDK 25
#   none. Those outside java.* are checked again as renamed copies (jdk.internal.reflect ->
#   xdk.internal.reflect) defined by a loader of their own: "java.base (renamed copies)".
# - jar J: one URLClassLoader (parent: the platform loader) over J, then every other jar of
#   the jar dir (originals) for superclasses and other dependencies; the instrumented run
#   puts the instrumented copy of J first instead. A class that comes from elsewhere (the
#   platform loader, another jar) counts as "not from source", not as verified; those and the
#   classes whose entry path is not their name (Jython's Lib/x$py.class) are checked again
#   ("rechecked"), each entry defined child-first under the name in its bytes
#   (VerifyClasses --entries), reported as "J (entries, child-first)". As for modules, a
#   class the verifier's log does not name counts as "not verified by HotSpot".
# Missing dependencies, platform-specific classes and the like fail in both runs: only the
# differences count.
#
# Prints one line per module/jar (classes, OK before, OK after, new failures, fixed, ...),
# lists every new failure, and a final TOTAL line. Exits 1 on any new failure, on any class
# that links only after instrumentation ("fixed": the original is used wrongly), or if a
# module/jar could not be processed (with --agent also: a JVM under the agent that wrote
# no closing line, or no class rewritten at all); 2 on bad usage. The dragnet binary is
# taken from $DRAGNET, defaulting to build/bin/dragnet.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dragnet=${DRAGNET:-$root/build/bin/dragnet}
agent_lib=${DRAGNET_AGENT:-$root/build/lib/libdragnet.so}
profile_failures=${DRAGNET_PROFILE_FAILURES:-$root/build/tests/dragnet-profile-failures}
harness_src=$root/tests/verifycorpus/VerifyClasses.java

usage() { # usage STATUS: the header comment, on stdout for --help, else on stderr
  local text
  text=$(sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//')
  if (($1 == 0)); then echo "$text"; else echo "$text" >&2; fi
  exit "$1"
}

tool=icount
agent=
agent_opts=
java_home=/usr/lib/jvm/java-17-openjdk-amd64
do_jdk=1
do_jars=1
sample=0
modules=()
only_jars=()
jar_dir=/usr/share/java
jar_sample=0
keep=
while (($#)); do
  case "$1" in
    --tool) (($# >= 2)) || usage 2; tool=$2; shift 2 ;;
    --agent) (($# >= 2)) || usage 2; agent=$2; shift 2 ;;
    --agent-opts) (($# >= 2)) || usage 2; agent_opts=$2; shift 2 ;;
    --jdk) (($# >= 2)) || usage 2; java_home=$2; shift 2 ;;
    --jdk-only) do_jars=0; shift ;;
    --jars-only) do_jdk=0; shift ;;
    --sample) (($# >= 2)) || usage 2; sample=$2; shift 2 ;;
    --module) (($# >= 2)) || usage 2; modules+=("$2"); shift 2 ;;
    --jar) (($# >= 2)) || usage 2; only_jars+=("$(realpath "$2")"); shift 2 ;;
    --jar-sample) (($# >= 2)) || usage 2; jar_sample=$2; shift 2 ;;
    --jars) (($# >= 2)) || usage 2; jar_dir=$2; shift 2 ;;
    --keep) (($# >= 2)) || usage 2; keep=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "verify-corpus: unknown argument: $1" >&2; usage 2 ;;
  esac
done
[[ "$sample" =~ ^[0-9]+$ && "$jar_sample" =~ ^[0-9]+$ ]] || {
  echo "verify-corpus: --sample and --jar-sample need a number" >&2; exit 2; }
if [[ -n "$agent" ]]; then
  [[ -f "$agent_lib" ]] || { echo "verify-corpus: no agent at $agent_lib" >&2; exit 2; }
  [[ -x "$profile_failures" ]] || {
    echo "verify-corpus: no profile reader at $profile_failures" >&2; exit 2; }
  variant=agent-$agent
else
  [[ -x "$dragnet" ]] || { echo "verify-corpus: no dragnet binary at $dragnet" >&2; exit 2; }
  variant=$tool
fi
# newest_jdk: the home of the JDK of the highest major version above 17, or nothing.
newest_jdk() {
  local home v major best=17 found=
  if [[ -n "${DRAGNET_NEWEST_JDK:-}" ]]; then
    [[ "$DRAGNET_NEWEST_JDK" == none ]] || echo "$DRAGNET_NEWEST_JDK"
    return
  fi
  for home in /usr/lib/jvm/*/ /opt/*jdk*/ /usr/local/*jdk*/; do
    [[ -x "$home/bin/java" && -f "$home/release" ]] || continue
    v=$(sed -n 's/^JAVA_VERSION="\{0,1\}\([0-9]*\).*/\1/p' "$home/release")
    major=${v:-0}
    if ((major > best)); then best=$major; found=${home%/}; fi
  done
  [[ -z "$found" ]] || echo "$found"
}
if [[ "$java_home" == newest ]]; then
  java_home=$(newest_jdk)
  [[ -n "$java_home" ]] || { echo "verify-corpus: skipped: no JDK newer than 17"; exit 0; }
fi
java_home=$(realpath "$java_home")
java=$java_home/bin/java
[[ -x "$java" && -x "$java_home/bin/javac" ]] || {
  echo "verify-corpus: no java/javac in $java_home/bin" >&2; exit 2; }
jdk_version=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$java_home/release" 2>/dev/null || true)
failures_dir=${keep:+$keep/failures}
failures_dir=${failures_dir:-/tmp/verify-corpus-failures}/$variant-${jdk_version:-jdk}

# Scratch space (instrumented modules and jars, one at a time): tmpfs when there is one.
scratch=${TMPDIR:-/tmp}
[[ -n "${TMPDIR:-}" || ! -w /dev/shm ]] || scratch=/dev/shm
tmp=$(mktemp -d "$scratch/verify-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[[ -z "$keep" ]] || mkdir -p "$keep"
: >"$tmp/locations.txt"

# The harness, compiled with the JDK that runs it.
mkdir -p "$tmp/harness"
"$java_home/bin/javac" -nowarn -d "$tmp/harness" "$harness_src"

# JVM options of every check. C1 only and the serial GC: short runs on few cores.
jvm_common=(-XX:+DisplayVMOutputToStderr -XX:TieredStopAtLevel=1 -XX:+UseSerialGC
            -XX:+UnlockDiagnosticVMOptions
            -XX:+BytecodeVerificationRemote -cp "$tmp/harness")
jvm_jdk=("${jvm_common[@]}" -Xshare:off -XX:+BytecodeVerificationLocal
         --add-modules ALL-SYSTEM)
# Under the agent the jars' runs verify boot classes too (the agent rewrites them as well).
jvm_jar=("${jvm_common[@]}")
if [[ -n "$agent" ]]; then
  jvm_jar+=(-Xshare:off -XX:+BytecodeVerificationLocal)
  mkdir -p "$tmp/profiles" "$tmp/dump"
  agent_arg=-agentpath:$agent_lib=mode=$agent,out=$tmp/profiles/p-%p.dragnet,dump=$tmp/dump
  agent_arg+=${agent_opts:+,$agent_opts}
fi

declare -A total=([sources]=0 [classes]=0 [ok_before]=0 [ok_after]=0 [new]=0 [changed]=0
                  [fixed]=0 [notsrc]=0 [unverified]=0 [rechecked]=0 [errors]=0
                  [dragnet_failed]=0 [unchanged_methods]=0 [recheck_ok_before]=0
                  [recheck_ok_after]=0 [instrumented]=0 [unchanged_classes]=0
                  [partial_methods]=0 [jvms]=0 [closing]=0 [jvm_instrumented]=0
                  [jvm_failures]=0)
declare -A group
reset_group() {
  group=([sources]=0 [classes]=0 [ok_before]=0 [ok_after]=0 [new]=0 [changed]=0 [fixed]=0
         [notsrc]=0 [unverified]=0 [rechecked]=0 [errors]=0 [dragnet_failed]=0
         [unchanged_methods]=0 [recheck_ok_before]=0 [recheck_ok_after]=0 [instrumented]=0
         [unchanged_classes]=0 [partial_methods]=0 [jvms]=0 [closing]=0 [jvm_instrumented]=0
         [jvm_failures]=0)
  : >"$tmp/kinds.txt"
  : >"$tmp/reasons.txt"
}

# sample_list IN OUT: OUT gets at most $sample names of IN, evenly spread (all if 0).
sample_list() {
  local n
  n=$(wc -l <"$1")
  if ((sample == 0 || n <= sample)); then cp "$1" "$2"; return; fi
  awk -v n="$n" -v k="$sample" 'int((NR - 1) * k / n) != int((NR - 2) * k / n) || NR == 1' \
    "$1" >"$2"
}

# run_harness OUT ERR LIST JAVA_ARGS...: runs the harness (JAVA_ARGS end with the mode
# arguments; the list file is appended) until every class of LIST has an outcome. A JVM that
# dies mid-list gets the next class marked "JVMExit: status N" and is restarted after it;
# after two JVMs in a row that finished no class, the rest are marked and left. ERR.closing
# gets "INSTRUMENTED NOT-REWRITTEN" of the agent's closing line of each JVM, harness_jvms the
# number of JVMs run.
harness_jvms=0
run_harness() {
  local out=$1 err=$2 list=$3 rest=$tmp/rest.txt rc done=0 prev total_n idle=0 attempts=0
  shift 3
  : >"$out"
  : >"$err"
  : >"$err.closing"
  harness_jvms=0
  total_n=$(wc -l <"$list")
  cp "$list" "$rest"
  while :; do
    rc=0
    prev=$done
    "$java" "$@" "$rest" >>"$out" 2>>"$err" || rc=$?
    harness_jvms=$((harness_jvms + 1))
    sed -n 's/^dragnet: profile written to .*(.* bytes, \([0-9]*\) classes instrumented in [0-9]* ms, \([0-9]*\) not rewritten.*/\1 \2/p' \
      "$err" >>"$err.closing"
    # Drop a last line cut short by a crash.
    if [[ -s "$out" && $(tail -c 1 "$out" | od -An -c | tr -d ' ') != '\n' ]]; then
      sed -i '$d' "$out"
    fi
    done=$(wc -l <"$out")
    ((done < total_n)) || break
    attempts=$((attempts + 1))
    if ((done == prev)); then idle=$((idle + 1)); else idle=0; fi
    echo "    JVM exited with status $rc after $done of $total_n classes; its stderr ends with:"
    { grep -v '^WARNING: Using incubator modules' "$err" || true; } | tail -n 3 | sed 's/^/      /'
    : >"$err"
    if ((idle >= 2 || attempts > 50)); then
      sed -n "$((done + 1)),\$p" "$list" | sed "s/\$/\tJVMExit: status $rc, gave up/" >>"$out"
      break
    fi
    printf '%s\tJVMExit: status %d\n' "$(sed -n "$((done + 1))p" "$list")" "$rc" >>"$out"
    done=$((done + 1))
    sed -n "$((done + 1)),\$p" "$list" >"$rest"
    [[ -s "$rest" ]] || break
  done
}

# instrument INPUT OUTPUT REPORT: dragnet with the tool; returns dragnet's status.
instrument() {
  # Directory output: make the directories of the tool's added files (dragnet does not).
  if [[ -d "$1" ]]; then mkdir -p "$2/META-INF/dragnet" "$2/dragnet/rt" "$2/dragnet/tools"; fi
  "$dragnet" instrument --tool "$tool" --max-errors 0 "$1" -o "$2" >"$3" 2>&1
}

# field NAME REPORT: the value of "  NAME:  VALUE" in a dragnet report (first word).
field() {
  awk -v key="  $1:" 'index($0, key) == 1 {
    split(substr($0, length(key) + 1), words, " "); print words[1]; exit }' "$2"
}

# dragnet_counts REPORT: "changed failed methods-unchanged" of a dragnet instrument report.
dragnet_counts() {
  local f c u
  f=$(field failed "$1"); c=$(field changed "$1"); u=$(field "methods unchanged" "$1")
  echo "${c:-0} ${f:-0} ${u:-0}"
}

# agent_counts LIST AFTER JVMS [renamed|entries]: what the agent did to the classes of LIST,
# from its dump (the classes it rewrote), its profiles' Failures records and its closing lines
# ($tmp/after.err.closing; JVMS: how many JVMs ran), AFTER being their outcomes under it:
# "rewritten not-rewritten methods-not-rewritten unchanged partly jvms closing-lines
# instrumented failures" (the last two: the closing lines' sums, every class the JVMs loaded);
# the reasons of the failures of LIST's classes are appended to $tmp/reasons.txt.
# renamed: LIST's classes were defined as renamed copies (VerifyClasses --isolated);
# entries: under the name in their bytes, which may be a suffix of the entry's.
agent_counts() {
  local list=$1 after=$2 jvms=$3 how=${4:-} closing
  "$profile_failures" "$tmp"/profiles/*.dragnet >"$tmp/pf.txt" 2>"$tmp/pf.err" || {
    echo "  ERROR the agent's profiles could not be read: $(head -n 1 "$tmp/pf.err")" >&2; }
  (cd "$tmp/dump" && find . -name '*.class' | sed 's|^\./||; s|\.class$||; s|/|.|g') \
    >"$tmp/dumped.txt"
  closing=$(awk '{ n++; c += $1; f += $2 } END { print n + 0, c + 0, f + 0 }' \
    "$tmp/after.err.closing")
  awk -F'\t' -v how="$how" -v reasons="$tmp/reasons.txt" -v jvms="$jvms" -v closing="$closing" '
    function key(n) { return how == "renamed" ? "x" substr(n, 2) : n }
    function seen(n, i) {  # n rewritten (also: under a suffix of its entry name)
      if (key(n) in dumped) return 1
      if (how != "entries") return 0
      for (i = index(n, "."); i > 0; i = index(n, ".")) { n = substr(n, i + 1); if (n in dumped) return 1 }
      return 0
    }
    FILENAME == ARGV[1] { dumped[$0] = 1; next }
    FILENAME == ARGV[2] {
      if ($1 != "F") next
      c = $2; gsub("/", ".", c)
      if ($3 == "") failedClass[c] = $4
      else if ($4 ~ /^partly rewritten: /) { partly[c]++; pwhy[c] = pwhy[c] "\n" $4 }
      else { failedMethods[c]++; why[c] = why[c] "\n" $4 }
      next
    }
    FILENAME == ARGV[3] { outcome[$1] = $2; next }
    {
      n = $1; c = key(n)
      if (seen(n)) rw++
      else if (c in failedClass) { nr++; print failedClass[c] >> reasons }
      else if (outcome[n] ~ /^OK($| )/) un++
      if (c in partly) {
        pm += partly[c]; k = split(substr(pwhy[c], 2), r, "\n")
        for (i = 1; i <= k; i++) print "method " r[i] >> reasons
      }
      if (c in failedMethods) {
        fm += failedMethods[c]; k = split(substr(why[c], 2), r, "\n")
        for (i = 1; i <= k; i++) print "method: " r[i] >> reasons
      }
    }
    END { print rw + 0, nr + 0, fm + 0, un + 0, pm + 0, jvms, closing }
  ' "$tmp/dumped.txt" "$tmp/pf.txt" "$after" "$list"
}

# agent_reset: an empty dump and no profiles, before a run under the agent.
agent_reset() {
  rm -rf "$tmp/dump" "$tmp/profiles"
  mkdir -p "$tmp/dump" "$tmp/profiles"
}

# compare LABEL LIST BEFORE AFTER SAVE_CMD COUNTS SECONDS [recheck]:
# tallies one source, prints its line and failures. SAVE_CMD NAME is called for every new
# failure, to keep the class files. COUNTS: dragnet_counts's or agent_counts's words (or
# empty). A recheck (classes already counted once) adds only its failures and its number of
# classes as "rechecked" to the totals.
compare() {
  local label=$1 list=$2 before=$3 after=$4 save=$5 stats name
  local secs=$7 dfailed=0 dunchanged=0 dchanged=0 aun=0 apartly=0 ajvms=0 aclosing=0
  local ainstr=0 afail=0
  [[ -z "$6" ]] || read -r dchanged dfailed dunchanged aun apartly ajvms aclosing ainstr afail \
    <<<"$6"
  stats=$(paste "$before" "$after" | awk -F'\t' -v out="$tmp/diff.txt" '
    BEGIN { n = okb = oka = nw = ch = fx = ns = uv = bad = 0; printf "" > out }
    function kind(r) { sub(/:.*/, "", r); return r }
    {
      n++
      if ($1 != $3) { bad++; next }
      b = $2; a = $4
      if (b ~ /^NotFromSource/) ns++
      if (b ~ /^OK unverified/) uv++
      isb = b ~ /^OK($| )/
      isa = a ~ /^OK($| )/
      if (isb) okb++
      if (isa) oka++
      if (isb && !isa) { nw++; print "NEW\t" $1 "\t" a > out }
      else if (!isb && isa) { fx++; print "FIXED\t" $1 "\t" b > out }
      else if (!isb && kind(a) != kind(b)) {
        ch++; print "CHANGED\t" $1 "\t" a "\t(before: " b ")" > out
      }
    }
    END { print n, okb, oka, nw, ch, fx, ns, uv, bad }')
  local n okb oka nw ch fx ns uv bad
  read -r n okb oka nw ch fx ns uv bad <<<"$stats"
  local expected
  expected=$(wc -l <"$list")
  if ((bad > 0 || n != expected)); then
    echo "  ERROR $label: outcome files do not match the class list ($n lines, $bad mismatched)"
    group[errors]=$((group[errors] + 1))
  fi
  if [[ -n "$agent" ]]; then
    printf '  %-44s classes %6d  OK before %6d  after %6d  new %d  changed %d  fixed %d  not-from-source %d  rewritten %d  not-rewritten %d  unchanged %d  (%ds)\n' \
      "$label" "$n" "$okb" "$oka" "$nw" "$ch" "$fx" "$ns" "$dchanged" "$dfailed" "$aun" "$secs"
    if ((dunchanged + apartly > 0)); then
      printf '      methods of these classes the agent did not rewrite: %d, rewrote partly: %d\n' \
        "$dunchanged" "$apartly"
    fi
    printf '      agent closing lines: %d of %d JVMs, saying %d classes instrumented, %d not rewritten\n' \
      "$aclosing" "$ajvms" "$ainstr" "$afail"
    if ((aclosing < ajvms)) && ! grep -q $'\tJVMExit' "$after"; then
      echo "  ERROR $label: a JVM under the agent ended without its closing line"
      group[errors]=$((group[errors] + 1))
    fi
  else
    printf '  %-44s classes %6d  OK before %6d  after %6d  new %d  changed %d  fixed %d  not-from-source %d  instrumented %d  dragnet-failed %d  (%ds)\n' \
      "$label" "$n" "$okb" "$oka" "$nw" "$ch" "$fx" "$ns" "$dchanged" "$dfailed" "$secs"
    if ((dunchanged > 0)); then
      printf '      %d methods left unchanged by dragnet\n' "$dunchanged"
    fi
  fi
  if ((uv > 0)); then
    printf '      %d classes link but HotSpot does not verify them (boot-loader exemptions)\n' "$uv"
  fi
  while IFS=$'\t' read -r what name rest; do
    printf '    %s %s: %s\n' "$what" "$name" "$rest"
    [[ "$what" == FIXED ]] || "$save" "$name"
  done <"$tmp/diff.txt"
  # Where the verifier failed: one bad method makes every class that needs it fail.
  sed -n 's/^\(NEW\|CHANGED\)\t.*\[Location: \([^ ]*\) @[0-9]*: .*/\2/p' "$tmp/diff.txt" \
    >>"$tmp/locations.txt"
  if [[ "${8:-}" == recheck ]]; then
    group[rechecked]=$((group[rechecked] + n))
    group[recheck_ok_before]=$((group[recheck_ok_before] + okb))
    group[recheck_ok_after]=$((group[recheck_ok_after] + oka))
  else
    # Outcome kinds of the classes that do not link from the original, for the summary.
    awk -F'\t' '$2 !~ /^OK($| )/ { k = $2; sub(/:.*/, "", k); print k }' "$before" >>"$tmp/kinds.txt"
    group[sources]=$((group[sources] + 1))
    group[classes]=$((group[classes] + n))
    group[ok_before]=$((group[ok_before] + okb))
    group[ok_after]=$((group[ok_after] + oka))
    # What dragnet or the agent did, per class checked (a recheck checks them again).
    group[instrumented]=$((group[instrumented] + dchanged))
    group[dragnet_failed]=$((group[dragnet_failed] + dfailed))
    group[unchanged_classes]=$((group[unchanged_classes] + aun))
  fi
  group[new]=$((group[new] + nw))
  group[changed]=$((group[changed] + ch))
  group[fixed]=$((group[fixed] + fx))
  group[notsrc]=$((group[notsrc] + ns))
  group[unverified]=$((group[unverified] + uv))
  group[unchanged_methods]=$((group[unchanged_methods] + dunchanged))
  group[partial_methods]=$((group[partial_methods] + apartly))
  group[jvms]=$((group[jvms] + ajvms))
  group[closing]=$((group[closing] + aclosing))
  group[jvm_instrumented]=$((group[jvm_instrumented] + ainstr))
  group[jvm_failures]=$((group[jvm_failures] + afail))
}

# The words of the counts dragnet or the agent gives.
if [[ -n "$agent" ]]; then
  words=("classes rewritten by the agent" "classes it did not rewrite" "methods it did not rewrite")
else
  words=("classes changed by dragnet" "dragnet-failed classes" "methods left unchanged")
fi

# agent_line ARRAY: the agent's own account of a group or of the total.
agent_line() {
  local -n g=$1
  printf '  agent: of the classes checked %d rewritten, %d not rewritten, %d unchanged (linked, nothing to rewrite); methods not rewritten %d, partly %d; closing lines %d of %d JVMs, which say %d classes instrumented, %d not rewritten (every class they loaded)\n' \
    "${g[instrumented]}" "${g[dragnet_failed]}" "${g[unchanged_classes]}" \
    "${g[unchanged_methods]}" "${g[partial_methods]}" "${g[closing]}" "${g[jvms]}" \
    "${g[jvm_instrumented]}" "${g[jvm_failures]}"
}

end_group() {
  local key
  printf '%s: %d sources, classes %d, OK before %d, OK after %d, new failures %d, changed %d, fixed %d, not from source %d, not verified by HotSpot %d, rechecked %d (OK before %d, after %d), %s %d, %s %d, %s %d, errors %d\n' \
    "$1" "${group[sources]}" "${group[classes]}" "${group[ok_before]}" "${group[ok_after]}" \
    "${group[new]}" "${group[changed]}" "${group[fixed]}" "${group[notsrc]}" "${group[unverified]}" \
    "${group[rechecked]}" "${group[recheck_ok_before]}" "${group[recheck_ok_after]}" \
    "${words[0]}" "${group[instrumented]}" "${words[1]}" "${group[dragnet_failed]}" \
    "${words[2]}" "${group[unchanged_methods]}" "${group[errors]}"
  [[ -z "$agent" ]] || agent_line group
  if [[ -s "$tmp/reasons.txt" ]]; then
    echo "  what the agent did not rewrite, by reason (checked classes and their methods):"
    sed -E 's/[0-9]+ bytes/N bytes/' "$tmp/reasons.txt" | sort | uniq -c | sort -rn | head -n 10 \
      | sed 's/^ */    /'
  fi
  if [[ -s "$tmp/kinds.txt" ]]; then
    printf '  not linking from the original, by outcome: %s\n' \
      "$(sort "$tmp/kinds.txt" | uniq -c | sort -rn | awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')"
  fi
  echo
  for key in "${!group[@]}"; do total[$key]=$((total[$key] + group[$key])); done
}

# ---- JDK modules -------------------------------------------------------------------------

# mark_unverified OUTCOMES LOG...: turns "OK" into "OK unverified: ..." for every class that
# no "Verifying class NAME" line of the -Xlog:verification logs names.
mark_unverified() {
  local outcomes=$1
  shift
  cat "$@" 2>/dev/null | awk -F'\t' '
    FILENAME == "-" { if ($0 ~ /^Verifying class /) { split($0, w, " "); seen[w[3]] = 1 }; next }
    $2 == "OK" && !($1 in seen) { print $1 "\tOK unverified: HotSpot did not verify it"; next }
    { print }' - "$outcomes" >"$outcomes.new"
  mv "$outcomes.new" "$outcomes"
}

# Set per module: where its original and instrumented class files are.
cur_orig=
cur_instr=
cur_label=
save_dir_class() { # NAME: copies the class file of NAME from both trees
  local rel dest
  rel=${1//.//}.class
  dest=$failures_dir/${cur_label//\//_}
  mkdir -p "$dest/original/$(dirname "$rel")" "$dest/instrumented/$(dirname "$rel")"
  cp "$cur_orig/$rel" "$dest/original/$rel" 2>/dev/null || true
  cp "$cur_instr/$rel" "$dest/instrumented/$rel" 2>/dev/null \
    || cp "$cur_instr/x${rel:1}" "$dest/instrumented/$rel" 2>/dev/null || true  # renamed copy
}

run_jdk() {
  local image="" name mod dir start
  name=$(basename "$java_home")
  reset_group
  echo "JDK $jdk_version ($java_home), ${agent:+agent mode }${agent:-tool $tool}:"
  if [[ -f "$root/build/corpus/$name/.extracted" ]]; then
    image=$root/build/corpus/$name
  else
    image=$tmp/image
    echo "  jimage extract"
    "$java_home/bin/jimage" extract --dir "$image" "$java_home/lib/modules" >"$tmp/jimage.log" 2>&1 || {
      echo "  ERROR jimage extract failed:"; sed 's/^/      /' "$tmp/jimage.log" | head -n 5
      group[errors]=1; end_group "JDK $jdk_version"; return; }
  fi
  local mods=()
  if ((${#modules[@]})); then mods=("${modules[@]}"); else
    for dir in "$image"/*/; do mods+=("$(basename "$dir")"); done
  fi
  for mod in "${mods[@]}"; do
    start=$SECONDS
    dir=$image/$mod
    [[ -d "$dir" ]] || { echo "  ERROR $mod: no such module in $image"; group[errors]=$((group[errors] + 1)); continue; }
    (cd "$dir" && find . -name '*.class' ! -name module-info.class | sed 's|^\./||; s|\.class$||; s|/|.|g' \
      | LC_ALL=C sort) >"$tmp/all.txt"
    [[ -s "$tmp/all.txt" ]] || continue
    sample_list "$tmp/all.txt" "$tmp/list.txt"
    local patch=$tmp/patch/$mod rc=0 counts after_with
    rm -rf "$tmp/patch"
    if [[ -n "$agent" ]]; then
      after_with=("$agent_arg")
      agent_reset
    else
      instrument "$dir" "$patch" "$tmp/dragnet.txt" || rc=$?
      if ((rc != 0)); then
        echo "  ERROR $mod: dragnet exited with status $rc:"; sed 's/^/      /' "$tmp/dragnet.txt" | head -n 5
        group[errors]=$((group[errors] + 1)); continue
      fi
      rm -f "$patch/module-info.class"
      # No-op stand-ins for the runtime classes (see the header), made once.
      if [[ ! -d "$tmp/stubs" ]]; then
        "$java" -cp "$tmp/harness" VerifyClasses --stub-sources "$patch" "$tmp/stubsrc" >/dev/null
        mkdir -p "$tmp/stubs"
        find "$tmp/stubsrc" -name '*.java' -print0 | xargs -0 "$java_home/bin/javac" -nowarn \
          --release 8 -Xlint:-options -d "$tmp/stubs"
      fi
      rm -rf "$patch/dragnet"
      cp -r "$tmp/stubs/dragnet" "$patch/"
      after_with=(--patch-module "$mod=$patch")
    fi
    rm -f "$tmp"/vlog-*
    run_harness "$tmp/before.txt" "$tmp/before.err" "$tmp/list.txt" \
      "${jvm_jdk[@]}" "-Xlog:verification=info:file=$tmp/vlog-before-%p.log:none:filecount=0" \
      VerifyClasses --jdk "$mod"
    run_harness "$tmp/after.txt" "$tmp/after.err" "$tmp/list.txt" \
      "${jvm_jdk[@]}" "-Xlog:verification=info:file=$tmp/vlog-after-%p.log:none:filecount=0" \
      "${after_with[@]}" VerifyClasses --jdk "$mod"
    # A class that links but that the verifier's log never names was not verified.
    mark_unverified "$tmp/before.txt" "$tmp"/vlog-before-*.log
    mark_unverified "$tmp/after.txt" "$tmp"/vlog-after-*.log
    rm -f "$tmp"/vlog-*
    if [[ -n "$agent" ]]; then
      counts=$(agent_counts "$tmp/list.txt" "$tmp/after.txt" "$harness_jvms")
      cur_instr=$tmp/dump
    else
      counts=$(dragnet_counts "$tmp/dragnet.txt")
      cur_instr=$patch
    fi
    if [[ -n "$keep" ]]; then
      mkdir -p "$keep/jdk-$jdk_version-$variant"
      for f in list before after; do cp "$tmp/$f.txt" "$keep/jdk-$jdk_version-$variant/$mod.$f.txt"; done
      if [[ -n "$agent" ]]; then
        cp "$tmp/pf.txt" "$keep/jdk-$jdk_version-$variant/$mod.agent-failures.txt"
        cp "$tmp/dumped.txt" "$keep/jdk-$jdk_version-$variant/$mod.agent-rewritten.txt"
      else
        cp "$tmp/dragnet.txt" "$keep/jdk-$jdk_version-$variant/$mod.dragnet.txt"
      fi
    fi
    cur_orig=$dir; cur_label=$mod
    compare "$mod" "$tmp/list.txt" "$tmp/before.txt" "$tmp/after.txt" save_dir_class \
      "$counts" $((SECONDS - start))
    # Boot classes HotSpot skips (other than java.lang's): verified as renamed copies from a
    # loader of their own (VerifyClasses --isolated), original against instrumented.
    awk -F'\t' '$2 ~ /^OK unverified/ && $1 !~ /^java\./ { print $1 }' "$tmp/before.txt" \
      >"$tmp/iso.txt"
    if [[ -s "$tmp/iso.txt" ]]; then
      start=$SECONDS
      run_harness "$tmp/before.txt" "$tmp/before.err" "$tmp/iso.txt" \
        "${jvm_common[@]}" VerifyClasses --isolated "$dir"
      counts=
      if [[ -n "$agent" ]]; then
        agent_reset
        run_harness "$tmp/after.txt" "$tmp/after.err" "$tmp/iso.txt" \
          "${jvm_jdk[@]}" "$agent_arg" VerifyClasses --isolated "$dir"
        counts=$(agent_counts "$tmp/iso.txt" "$tmp/after.txt" "$harness_jvms" renamed)
      else
        run_harness "$tmp/after.txt" "$tmp/after.err" "$tmp/iso.txt" \
          "${jvm_common[@]}" VerifyClasses --isolated "$patch"
      fi
      if [[ -n "$keep" ]]; then
        for f in before after; do
          cp "$tmp/$f.txt" "$keep/jdk-$jdk_version-$variant/$mod.renamed.$f.txt"
        done
      fi
      compare "$mod (renamed copies)" "$tmp/iso.txt" "$tmp/before.txt" "$tmp/after.txt" \
        save_dir_class "$counts" $((SECONDS - start)) recheck
    fi
  done
  rm -rf "$tmp/patch"
  end_group "JDK $jdk_version modules ($variant)"
}

# ---- jars --------------------------------------------------------------------------------

cur_jar=
cur_instr_jar=
save_jar_class() { # NAME: extracts the class file of NAME from both jars
  local rel dest
  rel=${1//.//}.class
  dest=$failures_dir/$(basename "$cur_jar")
  mkdir -p "$dest/original/$(dirname "$rel")" "$dest/instrumented/$(dirname "$rel")"
  unzip -p "$cur_jar" "$rel" >"$dest/original/$rel" 2>/dev/null || true
  if [[ -n "$agent" ]]; then
    cp "$tmp/dump/$rel" "$dest/instrumented/$rel" 2>/dev/null || true
  else
    unzip -p "$cur_instr_jar" "$rel" >"$dest/instrumented/$rel" 2>/dev/null || true
  fi
}

run_jars() {
  local jar start all_jars=() deps cp_rest j base
  reset_group
  echo "jars under $jar_dir (java $jdk_version), ${agent:+agent mode }${agent:-tool $tool}:"
  while IFS= read -r -d '' j; do all_jars+=("$j"); done \
    < <(find -L "$jar_dir" -name '*.jar' -type f -print0 | xargs -0 -r realpath -z | sort -zu)
  local targets=("${all_jars[@]}")
  ((${#only_jars[@]} == 0)) || targets=("${only_jars[@]}")
  if ((jar_sample > 0 && ${#targets[@]} > jar_sample)); then
    local picked=() i
    for ((i = 0; i < jar_sample; i++)); do
      picked+=("${targets[i * ${#targets[@]} / jar_sample]}")
    done
    targets=("${picked[@]}")
  fi
  for jar in "${targets[@]}"; do
    start=$SECONDS
    # Class names: entries *.class (multi-release versions folded onto their base name).
    unzip -Z1 "$jar" 2>/dev/null | grep '\.class$' | grep -v '\(^\|/\)module-info\.class$' \
      | sed 's|^META-INF/versions/[0-9]*/||; s|\.class$||; s|/|.|g' | LC_ALL=C sort -u \
      >"$tmp/all.txt" || true
    [[ -s "$tmp/all.txt" ]] || continue
    sample_list "$tmp/all.txt" "$tmp/list.txt"
    local out=$tmp/instrumented.jar rc=0 counts after_with
    rm -f "$out"
    if [[ -n "$agent" ]]; then
      out=$jar  # the agent rewrites the original as it loads
      after_with=("$agent_arg")
      agent_reset
    else
      instrument "$jar" "$out" "$tmp/dragnet.txt" || rc=$?
      if ((rc != 0)); then
        echo "  ERROR $jar: dragnet exited with status $rc:"; sed 's/^/      /' "$tmp/dragnet.txt" | head -n 5
        group[errors]=$((group[errors] + 1)); continue
      fi
      after_with=()
    fi
    cp_rest=
    for j in "${all_jars[@]}"; do [[ "$j" == "$jar" ]] || cp_rest+=":$j"; done
    rm -f "$tmp"/vlog-*
    run_harness "$tmp/before.txt" "$tmp/before.err" "$tmp/list.txt" \
      "${jvm_jar[@]}" "-Xlog:verification=info:file=$tmp/vlog-before-%p.log:none:filecount=0" \
      VerifyClasses --jar "$jar$cp_rest" --classes
    run_harness "$tmp/after.txt" "$tmp/after.err" "$tmp/list.txt" \
      "${jvm_jar[@]}" "-Xlog:verification=info:file=$tmp/vlog-after-%p.log:none:filecount=0" \
      "${after_with[@]}" VerifyClasses --jar "$out$cp_rest" --classes
    mark_unverified "$tmp/before.txt" "$tmp"/vlog-before-*.log
    mark_unverified "$tmp/after.txt" "$tmp"/vlog-after-*.log
    rm -f "$tmp"/vlog-*
    if [[ -n "$agent" ]]; then
      counts=$(agent_counts "$tmp/list.txt" "$tmp/after.txt" "$harness_jvms")
    else
      counts=$(dragnet_counts "$tmp/dragnet.txt")
    fi
    if [[ -n "$keep" ]]; then
      base=$keep/jars-$jdk_version-$variant/$(basename "$jar" .jar)
      mkdir -p "$(dirname "$base")"
      for f in list before after; do cp "$tmp/$f.txt" "$base.$f.txt"; done
      if [[ -n "$agent" ]]; then
        cp "$tmp/pf.txt" "$base.agent-failures.txt"
        cp "$tmp/dumped.txt" "$base.agent-rewritten.txt"
      else
        cp "$tmp/dragnet.txt" "$base.dragnet.txt"
      fi
    fi
    cur_jar=$jar; cur_instr_jar=$out
    compare "$(basename "$jar")" "$tmp/list.txt" "$tmp/before.txt" "$tmp/after.txt" save_jar_class \
      "$counts" $((SECONDS - start))
    # Classes the URLClassLoader cannot read from the jar (shadowed by the platform, or whose
    # entry path is not their name): again, each entry defined child-first under its own name.
    awk -F'\t' '$2 ~ /^NotFromSource/ || $2 ~ /^java\.lang\.NoClassDefFoundError: .*\(wrong name: / {
      print $1 }' "$tmp/before.txt" >"$tmp/entries.txt"
    if [[ -s "$tmp/entries.txt" ]]; then
      start=$SECONDS
      run_harness "$tmp/before.txt" "$tmp/before.err" "$tmp/entries.txt" \
        "${jvm_jar[@]}" VerifyClasses --entries "$jar$cp_rest" --classes
      [[ -z "$agent" ]] || agent_reset
      run_harness "$tmp/after.txt" "$tmp/after.err" "$tmp/entries.txt" \
        "${jvm_jar[@]}" "${after_with[@]}" VerifyClasses --entries "$out$cp_rest" --classes
      counts=
      [[ -z "$agent" ]] \
        || counts=$(agent_counts "$tmp/entries.txt" "$tmp/after.txt" "$harness_jvms" entries)
      if [[ -n "$keep" ]]; then
        for f in before after; do cp "$tmp/$f.txt" "$base.entries.$f.txt"; done
      fi
      compare "$(basename "$jar") (entries, child-first)" "$tmp/entries.txt" "$tmp/before.txt" \
        "$tmp/after.txt" save_jar_class "$counts" $((SECONDS - start)) recheck
    fi
  done
  end_group "jars under $jar_dir ($variant)"
}

# The run, in one compound command: bash parses it whole before running it, so editing this
# file during a run cannot change what the run does.
{
  start_all=$SECONDS
  ((do_jdk == 0)) || run_jdk
  ((do_jars == 0)) || run_jars

  if [[ -n "$agent" ]] && ((total[classes] > 0 && total[instrumented] == 0)); then
    echo "ERROR: the agent rewrote none of the classes checked"
    total[errors]=$((total[errors] + 1))
  fi
  printf 'TOTAL (%s, java %s): %d sources, classes %d, OK before %d, OK after %d, new failures %d, changed %d, fixed %d, not from source %d, not verified by HotSpot %d, rechecked %d (OK before %d, after %d), %s %d, %s %d, %s %d, errors %d, %ds\n' \
    "$variant${agent_opts:+ $agent_opts}" "$jdk_version" "${total[sources]}" "${total[classes]}" \
    "${total[ok_before]}" "${total[ok_after]}" "${total[new]}" "${total[changed]}" \
    "${total[fixed]}" "${total[notsrc]}" "${total[unverified]}" "${total[rechecked]}" \
    "${total[recheck_ok_before]}" "${total[recheck_ok_after]}" "${words[0]}" \
    "${total[instrumented]}" "${words[1]}" "${total[dragnet_failed]}" "${words[2]}" \
    "${total[unchanged_methods]}" "${total[errors]}" $((SECONDS - start_all))
  [[ -z "$agent" ]] || agent_line total
  if [[ -s "$tmp/locations.txt" ]]; then
    echo "new failures by the method the verifier rejected ($(sort -u "$tmp/locations.txt" | wc -l) methods; classes failing there):"
    sort "$tmp/locations.txt" | uniq -c | sort -rn | sed 's/^ */  /'
  fi
  if ((total[new] + total[changed] + total[fixed] + total[errors] > 0)); then
    if ((total[new] + total[changed] > 0)); then
      echo "verify-corpus: class files of the new failures are in $failures_dir"
    fi
    echo "verify-corpus: FAILED"
    exit 1
  fi
  if [[ -n "$agent" ]]; then
    echo "verify-corpus: OK, no class fails under the agent (mode $agent) that linked before"
  else
    echo "verify-corpus: OK, no class fails after instrumentation that linked before"
  fi
  exit 0
}
