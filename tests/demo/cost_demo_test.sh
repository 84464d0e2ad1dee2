#!/usr/bin/env bash
# The cost demo (demo/cost) under `dragnet run --mode cost`: planted and --fixed print what
# they print without the agent; among the demo's own allocation sites, the two planted
# structures (the DirEntry objects of the list built for a yes/no question, Fig. 14, and the
# Fingerprint whose field is computed in a loop and copied once) rank first and second by
# cost-benefit rate with the consumer rule on and off, and neither is in the --fixed
# profile; mode alloc shows their objects gone with --fixed.
# Usage: cost_demo_test.sh DRAGNET COST_DEMO_JAR. Environment: JAVA_BIN (default PATH).
set -euo pipefail
dragnet=$1 jar=$2
java=${JAVA_BIN:+$JAVA_BIN/}java
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cost demo: $*" >&2; exit 1; }

expected=$("$java" -jar "$jar")
planted_sites=("dragnet.demo.cost.DirEntry dragnet.demo.cost.Classpath.directoryList(Classpath.java:78)"
               "dragnet.demo.cost.Fingerprint dragnet.demo.cost.Resolver.checkPlanted(Resolver.java:41)")
for variant in planted fixed; do
  args=()
  [[ $variant == fixed ]] && args=(--fixed)
  PATH="${JAVA_BIN:+$JAVA_BIN:}$PATH" "$dragnet" run --mode cost --agent-opts quiet=on \
    -o "$tmp/$variant.dragnet" -- java -jar "$jar" "${args[@]}" >"$tmp/$variant.out"
  [[ "$(cat "$tmp/$variant.out")" == "$expected" ]] || fail "$variant prints another report under the agent"
  for k in "" "consumer-rab=0"; do
    opts=()
    [[ -n $k ]] && opts=(--opt "$k")
    "$dragnet" report "$tmp/$variant.dragnet" --top 100000 "${opts[@]}" >"$tmp/$variant.txt"
    # The allocation-site table's rows of the demo's own sites, in rank order.
    sed -n '/^Allocation sites/,/^Data structures/p' "$tmp/$variant.txt" |
      grep 'dragnet\.demo\.' >"$tmp/$variant.sites" || true
    if [[ $variant == planted ]]; then
      for rank in 1 2; do
        row=$(sed -n "${rank}p" "$tmp/$variant.sites")
        [[ "$row" == *"${planted_sites[rank - 1]}" ]] ||
          fail "planted, ${k:-default consumer rule}: demo site $rank is not ${planted_sites[rank - 1]}: $row"
      done
    else
      for site in "${planted_sites[@]}"; do
        ! grep -qF "$site" "$tmp/$variant.sites" || fail "--fixed, ${k:-default}: $site is still there"
      done
    fi
  done
done

# Mode alloc: the planted structures' objects are gone with --fixed.
for variant in planted fixed; do
  args=()
  [[ $variant == fixed ]] && args=(--fixed)
  PATH="${JAVA_BIN:+$JAVA_BIN:}$PATH" "$dragnet" run --mode alloc --agent-opts quiet=on \
    -o "$tmp/alloc-$variant.dragnet" -- java -jar "$jar" "${args[@]}" >/dev/null
  "$dragnet" report "$tmp/alloc-$variant.dragnet" --top 100000 >"$tmp/alloc-$variant.txt"
done
for site in "Classpath.java:78" "Resolver.java:41"; do
  grep -qF "$site" "$tmp/alloc-planted.txt" || fail "mode alloc shows no objects at $site planted"
  ! grep -qF "$site" "$tmp/alloc-fixed.txt" || fail "mode alloc still shows objects at $site with --fixed"
done
echo "cost demo: planted structures rank first and vanish with --fixed"
