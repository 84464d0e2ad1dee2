#!/usr/bin/env bash
# Installs missing dependencies, builds dragnet (release), profiles the bundled demo program's
# allocations per calling context (text summary + a self-contained HTML report), the
# lifetime demo's object lifetimes (lag, drag, void; unfixed and fixed), the copy demo's
# copies and the cost demo's cost-benefit rates (each unfixed and fixed, once the build has
# --mode copy / --mode cost), then shows the identity round trip and BIT's instruction
# counter on the alloc demo's jar.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

scripts/install-deps.sh
scripts/build.sh release

in=build/demo/demo.jar
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Exact allocation profile of the demo: same output as without the agent, then reports.
profile=build/demo/demo.dragnet
html=build/demo/demo-alloc.html
java -jar "$in" >"$tmp/expected.txt"
build/bin/dragnet run -o "$profile" -- java -jar "$in" >"$tmp/profiled.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/profiled.txt"; then
  echo "demo: FAILED, the profiled program's output differs" >&2
  exit 1
fi
echo
echo "---- dragnet report $profile (top 10 rows per table) ----"
# (through a file: head closing a pipe early would stop this pipefail script)
build/bin/dragnet report "$profile" --top 10 >"$tmp/report.txt"
head -n 40 "$tmp/report.txt"
build/bin/dragnet report "$profile" --format html -o "$html"
echo "-------------------------------------------------------------"
echo "demo: profile: $profile; HTML report (flame graph, tables): $html"
echo

# Object lifetimes (HUP): the billing demo with planted lag, drag and void, then the same
# program after HUP's fixes (--fixed): the same output, and the planted space gone.
life_in=build/demo/lifetime-demo.jar
life=build/demo/lifetime-demo.dragnet
life_fixed=build/demo/lifetime-demo-fixed.dragnet
life_html=build/demo/lifetime-demo.html
java -jar "$life_in" >"$tmp/life-expected.txt"
for variant in "" --fixed; do
  prof=$life
  [[ -z "$variant" ]] || prof=$life_fixed
  # A forced collection every 1 MB (default 8 MB): the fixed run's released call batches
  # die within 1 MB of their last use, so the drag the fix saves shows in its totals.
  build/bin/dragnet run --mode lifetime --gc-interval 1m --agent-opts quiet=on -o "$prof" \
    -- java -jar "$life_in" $variant >"$tmp/life-out.txt"
  if ! diff -u "$tmp/life-expected.txt" "$tmp/life-out.txt"; then
    echo "demo: FAILED, the lifetime demo's output differs (${variant:-unfixed})" >&2
    exit 1
  fi
done
echo "---- dragnet report $life (header and totals) ----"
build/bin/dragnet report "$life" >"$tmp/life-report.txt"
head -n 14 "$tmp/life-report.txt"
echo "---- the top nested allocation sites (dragnet shell $life) ----"
printf 'drag nested @1\nvoid nested @2\nlag nested @1\n' | build/bin/dragnet shell "$life"
echo "---- after HUP's fixes (lifetime-demo.jar --fixed): the same output, totals ----"
build/bin/dragnet report "$life_fixed" >"$tmp/life-fixed-report.txt"
grep -E '^  (total space|lag|in use|drag|void) ' "$tmp/life-fixed-report.txt"
build/bin/dragnet report "$life" --format html -o "$life_html"
echo "-------------------------------------------------------------"
echo "demo: lifetime profiles: $life, $life_fixed; HTML report (heap over time, tables):" \
  "$life_html; explore: build/bin/dragnet shell $life"
echo

# Copy profiling (Xu et al.): the sales report with a planted copy chain, clone and NATH site
# (demo/copy/README.md says what the profile shows), then --fixed: the same output.
copy_in=build/demo/copy-demo.jar
if build/bin/dragnet run --help | grep -q -- '--mode [a-z|]*copy'; then
  copy=build/demo/copy-demo.dragnet
  copy_fixed=build/demo/copy-demo-fixed.dragnet
  java -jar "$copy_in" >"$tmp/copy-expected.txt"
  for variant in "" --fixed; do
    prof=$copy
    [[ -z "$variant" ]] || prof=$copy_fixed
    build/bin/dragnet run --mode copy --agent-opts quiet=on -o "$prof" \
      -- java -jar "$copy_in" $variant >"$tmp/copy-out.txt"
    if ! diff -u "$tmp/copy-expected.txt" "$tmp/copy-out.txt"; then
      echo "demo: FAILED, the copy demo's output differs (${variant:-unfixed})" >&2
      exit 1
    fi
  done
  echo "---- dragnet report $copy (top 10 rows per table) ----"
  build/bin/dragnet report "$copy" --top 10 >"$tmp/copy-report.txt"
  head -n 40 "$tmp/copy-report.txt"
  echo "-------------------------------------------------------------"
  echo "demo: copy profiles: $copy, $copy_fixed (what they show: demo/copy/README.md)"
  echo
else
  echo "demo: copy demo skipped: this dragnet has no --mode copy"
fi

# Cost-benefit analysis (Xu et al.): the import checker with a list built for a yes/no
# question and a field copied right after its computation (demo/cost/README.md says what
# ranks first), then --fixed: the same output.
cost_in=build/demo/cost-demo.jar
if build/bin/dragnet run --help | grep -q -- '--mode [a-z|]*cost'; then
  cost=build/demo/cost-demo.dragnet
  cost_fixed=build/demo/cost-demo-fixed.dragnet
  java -jar "$cost_in" >"$tmp/cost-expected.txt"
  for variant in "" --fixed; do
    prof=$cost
    [[ -z "$variant" ]] || prof=$cost_fixed
    build/bin/dragnet run --mode cost --agent-opts quiet=on -o "$prof" \
      -- java -jar "$cost_in" $variant >"$tmp/cost-out.txt"
    if ! diff -u "$tmp/cost-expected.txt" "$tmp/cost-out.txt"; then
      echo "demo: FAILED, the cost demo's output differs (${variant:-unfixed})" >&2
      exit 1
    fi
  done
  echo "---- dragnet report $cost (top 10 rows per table) ----"
  build/bin/dragnet report "$cost" --top 10 >"$tmp/cost-report.txt"
  head -n 40 "$tmp/cost-report.txt"
  echo "-------------------------------------------------------------"
  echo "demo: cost profiles: $cost, $cost_fixed (what they show: demo/cost/README.md)"
  echo
else
  echo "demo: cost demo skipped: this dragnet has no --mode cost"
fi

out=build/demo/demo-identity.jar
rm -f "$out"
build/bin/dragnet instrument --tool none "$in" -o "$out"

java -jar "$out" >"$tmp/actual.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/actual.txt"; then
  echo "demo: FAILED, program output differs" >&2
  exit 1
fi

unzip -Z1 "$in" >"$tmp/in.lst"
unzip -Z1 "$out" >"$tmp/out.lst"
if ! diff -u "$tmp/in.lst" "$tmp/out.lst"; then
  echo "demo: FAILED, entry list differs" >&2
  exit 1
fi

mkdir "$tmp/a" "$tmp/b"
unzip -qq "$in" -d "$tmp/a"
unzip -qq "$out" -d "$tmp/b"
classes=0
while IFS= read -r entry; do
  [[ "$entry" == *.class ]] || continue
  cmp "$tmp/a/$entry" "$tmp/b/$entry" || { echo "demo: FAILED, $entry differs" >&2; exit 1; }
  classes=$((classes + 1))
done <"$tmp/in.lst"

echo "demo: identity: $out runs identically ($(wc -l <"$tmp/expected.txt") output lines)" \
  "and its $classes class files are byte-identical to $in"

# BIT's instruction counter: instrument the demo, run it, show the report it writes at exit
# (under build/, as everything the demo writes: by default it would be dragnet-icount.txt in
# the working directory, the checkout).
icount=build/demo/demo-icount.jar
icount_report=build/demo/demo-icount.txt
rm -f "$icount" "$icount_report"
build/bin/dragnet instrument --tool icount "$in" -o "$icount" -q
java -Ddragnet.report="$icount_report" -jar "$icount" >"$tmp/icount-out.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/icount-out.txt"; then
  echo "demo: FAILED, the icount-instrumented program's output differs" >&2
  exit 1
fi
echo
echo "---- dragnet-icount report of the demo (top 15 methods) ----"
head -n 21 "$icount_report"
echo "-------------------------------------------------------------"
echo "demo: OK: $icount runs with the same output; full report: $icount_report"
