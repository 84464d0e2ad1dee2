#!/usr/bin/env bash
# Usage: scripts/bench-asm.sh [--reps N] [--iterations K] [--warmup W] [--check] [JAR...]
#
# Throughput of dragnet vs ASM 9.4 on the BIT icount task (insert ICount.block(methodId,
# blockSize) at every basic block of every method, frames passed through), on the same
# class files in the same run, single thread (docs/PERFORMANCE.md, "dragnet vs ASM").
#
#   1. builds bench/asm_compare/dragnet_icount_bench (`scripts/build.sh release`: -O3 and
#      profile-guided optimisation, in build/; or in an existing $DRAGNET_BUILD_DIR as it
#      is configured) and compiles bench/asm_compare/AsmICount.java against Debian's
#      libasm-java (/usr/share/java/asm-9.4.jar + asm-tree-9.4.jar; ASM_DIR overrides);
#   2. with --check: dumps both outputs, compares the probes method by method, and links
#      (verifies) every class of the original, the ASM and the dragnet output;
#   3. N repetitions (default 5), interleaved: dragnet (1 untimed iteration, then K timed),
#      then ASM in a fresh JVM twice (W untimed warm-up iterations, default 10, then K
#      timed): with the JVM's default collector (G1 on this machine; `java -Xms2g -Xmx2g`)
#      and with the serial collector (`-XX:+UseSerialGC`, which makes ASM strictly single
#      threaded and, with its cheaper write barriers, faster: the stricter comparison).
#      ASM_JAVA_OPTS replaces the first run's options; K defaults to 3;
#   4. prints MB/s (10^6 bytes of input class files per second) per repetition and the
#      medians, by wall clock and by process CPU time, and the ratios dragnet / ASM for
#      both ASM runs.
#
# Input: the JAR arguments, else the default set below (12 jars of Debian 12's
# /usr/share/java, 19,621 class files, 78.7 MB). Every *.class entry is used, in jar order.
# Process CPU time is the figure to trust on a shared machine: wall clock includes the
# time the process waited for a core. JAVA (default: java on PATH) selects the JVM.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

reps=5 iterations=3 warmup=10 check=0
jars=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --reps) reps=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) jars+=("$1"); shift ;;
  esac
done

share=/usr/share/java
if [[ ${#jars[@]} -eq 0 ]]; then
  for j in asm-9.4 bcel-6.5.0 lucene-core-4.10.4 h2-2.1.214 xalan2-2.7.2 jython-2.7.3 \
           guava-31.1-jre fop-core-2.8 batik-all-1.16 icu4j-60.2 xercesImpl-2.12.0 antlr4-4.7.2; do
    [[ -f $share/$j.jar ]] || { echo "missing $share/$j.jar (see scripts/install-deps.sh)" >&2; exit 1; }
    jars+=("$share/$j.jar")
  done
fi

asm_dir=${ASM_DIR:-$share}
asm_cp=$asm_dir/asm-9.4.jar:$asm_dir/asm-tree-9.4.jar
for j in ${asm_cp//:/ }; do
  [[ -f $j ]] || { echo "missing $j (apt-get install libasm-java)" >&2; exit 1; }
done
java=${JAVA:-java}
javac=${JAVAC:-javac}

cleanup=()
trap 'rm -rf "${cleanup[@]}"' EXIT

# 1. Build.
# The release build as scripts/build.sh makes it (with its profile-guided optimisation);
# DRAGNET_BUILD_DIR: an existing build directory configured by hand, used as it is.
if [[ -n ${DRAGNET_BUILD_DIR:-} ]]; then
  build=$DRAGNET_BUILD_DIR
  cmake --build "$build" --target dragnet_icount_bench -j"$(nproc)"
else
  build=$root/build
  scripts/build.sh release dragnet_icount_bench
fi
dn=$build/bench/asm_compare/dragnet_icount_bench
classes=$build/bench/asm_compare/java
rm -rf "$classes"
mkdir -p "$classes"
"$javac" -d "$classes" -cp "$asm_cp" bench/asm_compare/AsmICount.java
read -r -a jvm_opts <<<"${ASM_JAVA_OPTS:--Xms2g -Xmx2g}"
asm=("$java" "${jvm_opts[@]}" -cp "$classes:$asm_cp" AsmICount)
asm_serial=("$java" -Xms2g -Xmx2g -XX:+UseSerialGC -cp "$classes:$asm_cp" AsmICount)

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$(free -g | awk '/Mem:/ {print $2}') GiB; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $("$java" -version 2>&1 | head -1) (asm: ${jvm_opts[*]}; asm-serial: -Xms2g -Xmx2g -XX:+UseSerialGC); ASM" \
  "$(unzip -p "$asm_dir/asm-9.4.jar" META-INF/MANIFEST.MF | tr -d '\r' | sed -n 's/^Implementation-Version: //p')"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  echo "== dragnet $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src ||
    echo ' + uncommitted changes in src/')"
fi
echo "== input: ${#jars[@]} jars: $(for j in "${jars[@]}"; do basename "$j"; done | xargs)"

# 2. Same probes? Valid output?
if [[ $check -eq 1 ]]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/bench-asm.XXXXXX")
  cleanup+=("$out")
  "$dn" --warmup 0 --iterations 1 --dump "$out/dragnet" "${jars[@]}" | grep -v '^dragnet iteration'
  "${asm[@]}" dump "$out/asm" "${jars[@]}"
  "${asm[@]}" compare "$out/asm" "$out/dragnet" "${jars[@]}"
  "$java" -Xmx4g -cp "$classes:$asm_cp" AsmICount verify "$out/asm" "$out/dragnet" -- "${jars[@]}"
fi

# 3. Interleaved repetitions.
log=$(mktemp "${TMPDIR:-/tmp}/bench-asm-log.XXXXXX")
cleanup+=("$log")
for ((r = 1; r <= reps; r++)); do
  echo "== repetition $r/$reps (load average $(cut -d' ' -f1 /proc/loadavg))"
  "$dn" --warmup 1 --iterations "$iterations" "${jars[@]}" | tee -a "$log" | grep -E '^(RESULT|dragnet it)'
  "${asm[@]}" bench --warmup "$warmup" --iterations "$iterations" "${jars[@]}" |
    tee -a "$log" | grep -E '^(RESULT|asm it)'
  "${asm_serial[@]}" bench --warmup "$warmup" --iterations "$iterations" "${jars[@]}" |
    sed 's/^RESULT asm /RESULT asm-serial /' | tee -a "$log" | grep -E '^(RESULT|asm it)'
done

# 4. Medians and ratio.
awk '
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
  }
  /^RESULT/ {
    tool = $2
    for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    n[tool]++; wall[tool, n[tool]] = v["mbps"]; cpu[tool, n[tool]] = v["cpu_mbps"]
    probes[tool] = v["probes"]; methods[tool] = v["methods"]; bytes = v["bytes"]; cls = v["classes"]
  }
  END {
    for (t in n) {
      for (i = 1; i <= n[t]; i++) { w[i] = wall[t, i]; c[i] = cpu[t, i] }
      mw[t] = median(w, n[t]); mc[t] = median(c, n[t])
    }
    printf "\n== %d classes, %.1f MB of class files; MB/s = 10^6 input bytes per second\n", cls, bytes / 1e6
    printf "%-10s %5s %16s %16s %10s %9s\n", "tool", "runs", "median MB/s wall", "median MB/s CPU", "methods", "probes"
    for (t in n) printf "%-10s %5d %16.1f %16.1f %10d %9d\n", t, n[t], mw[t], mc[t], methods[t], probes[t]
    if (mw["asm"] > 0) printf "ratio dragnet/ASM: %.2fx (wall clock), %.2fx (process CPU time); goal >= 2x\n", mw["dragnet"] / mw["asm"], mc["dragnet"] / mc["asm"]
    if (mw["asm-serial"] > 0) printf "ratio dragnet/ASM with the serial collector: %.2fx (wall clock), %.2fx (process CPU time); goal >= 2x\n", mw["dragnet"] / mw["asm-serial"], mc["dragnet"] / mc["asm-serial"]
  }' "$log"
