#!/usr/bin/env bash
# `dragnet diff` on two runs of a demo, before and after a planted change, under the agent:
# the planted differences must be named first (by the mode's ranking measure), with the
# numbers the program implies.
#   alloc:    tests/demo/DiffOracle.java without and with --planted: the sites that appear
#             (100,000 byte[16], exactly 3,200,000 bytes) and grow (20,000 more long[4],
#             exactly 960,000 bytes) rank first, exactly; sampled (--sample 2k): the same
#             two sites first, their bytes estimated within 25%
#   lifetime: the lifetime demo and --fixed: the four planted nested sites first, all
#             shrunk or vanished, their drag, void and lag down by at least the planted
#             amounts (tests/demo/lifetime_demo_test.cpp)
#   copy:     the copy demo and --fixed: the planted chain, clone pair and NATH site first
#             in their tables, vanished, and the copies into the planted objects (exactly
#             as demo/copy/README.md counts them)
#   cost:     the cost demo and --fixed: the two planted structures' sites vanish, the list
#             built for a yes/no question first (the highest rate of the run)
# Usage: diff_demo_test.sh MODE DRAGNET JAR_DIR SOURCE_DIR. Environment: JAVA_BIN.
set -euo pipefail
mode=$1 dragnet=$2 jars=$3 src=$4
java=${JAVA_BIN:+$JAVA_BIN/}java
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "diff demo ($mode): $*" >&2; exit 1; }

# profile NAME RUN-FLAGS... -- COMMAND...: dragnet run into $tmp/NAME.dragnet.
profile() {
  local name=$1
  shift
  PATH="${JAVA_BIN:+$JAVA_BIN:}$PATH" "$dragnet" run --agent-opts quiet=on -o "$tmp/$name.dragnet" "$@" \
    >"$tmp/$name.out" || fail "dragnet run $name failed"
}

# demo JAR RUN-FLAGS...: the demo and its --fixed version into a and b; both print the same.
demo() {
  local jar=$1
  shift
  profile a "$@" -- java -jar "$jars/$jar"
  profile b "$@" -- java -jar "$jars/$jar" --fixed
  cmp -s "$tmp/a.out" "$tmp/b.out" || fail "--fixed prints another output"
}

# check A B PYTHON: the JSON diff of A and B as `d` for the Python assertions.
check() {
  "$dragnet" diff "$tmp/$1.dragnet" "$tmp/$2.dragnet" -f json -o "$tmp/diff.json" ||
    fail "dragnet diff failed"
  "$dragnet" diff "$tmp/$1.dragnet" "$tmp/$2.dragnet" >"$tmp/diff.txt" || fail "text diff failed"
  "$dragnet" diff "$tmp/$1.dragnet" "$tmp/$2.dragnet" -f html -o "$tmp/diff.html" ||
    fail "html diff failed"
  python3 - "$tmp/diff.json" "$3" <<'PY' || { cat "$tmp/diff.txt" >&2; fail "wrong diff"; }
import json, sys
d = json.load(open(sys.argv[1]))
tables = {t["id"]: t for t in d["tables"]}
def rows(table, n):
    return [(r["key"], r["change"], r["a"], r["b"], r["delta"]) for r in tables[table]["rows"][:n]]
exec(sys.argv[2])
PY
}

case $mode in
alloc)
  mkdir -p "$tmp/classes"
  "${JAVA_BIN:+$JAVA_BIN/}javac" -d "$tmp/classes" "$src/DiffOracle.java"
  profile a -- java -cp "$tmp/classes" DiffOracle
  profile b -- java -cp "$tmp/classes" DiffOracle --planted
  [[ $(cat "$tmp/a.out") == done && $(cat "$tmp/b.out") == done ]] || fail "the oracle printed otherwise"
  check a b '
top = rows("sites", 2)
assert top[0][0] == "DiffOracle.planted(DiffOracle.java:12) byte[]", top
assert top[0][1] == "appeared" and top[0][4] == [3200000, 100000], top
assert top[1][0] == "DiffOracle.grows(DiffOracle.java:20) long[]", top
assert top[1][1] == "grew" and top[1][4] == [960000, 20000], top
ctx = rows("contexts", 2)
assert ctx[0][0] == "DiffOracle.main(DiffOracle.java);DiffOracle.planted(DiffOracle.java:12);byte[]", ctx
assert ctx[0][4] == [3200000, 100000], ctx
assert ctx[1][0].endswith("DiffOracle.grows(DiffOracle.java:20);long[]") and ctx[1][4] == [960000, 20000], ctx
'
  profile sa --sample 2k -- java -cp "$tmp/classes" DiffOracle
  profile sb --sample 2k -- java -cp "$tmp/classes" DiffOracle --planted
  check sa sb '
assert d["variant"] == "sampled", d["variant"]
top = rows("sites", 2)
assert top[0][0] == "DiffOracle.planted(DiffOracle.java:12) byte[]", top
assert abs(top[0][4][0] - 3200000) < 0.25 * 3200000, top
assert top[1][0] == "DiffOracle.grows(DiffOracle.java:20) long[]", top
assert abs(top[1][4][0] - 960000) < 0.25 * 960000, top
'
  # Exact against sampled: refused as a usage error.
  if "$dragnet" diff "$tmp/a.dragnet" "$tmp/sb.dragnet" >/dev/null 2>"$tmp/err"; then
    fail "an exact and a sampled profile were compared"
  else
    [[ $? == 2 ]] && grep -q "exact alloc profile and B a sampled one" "$tmp/err" ||
      fail "exact against sampled: $(cat "$tmp/err")"
  fi
  ;;
lifetime)
  demo lifetime-demo.jar --mode lifetime --gc-interval 256k --use-epoch 4k --site-frames 4
  check a b '
pkg = "dragnet.demo.lifetime."
# A nested site: its frames root first, then the type; named here by its allocating method
# and type.
def site(key):
    frames = key.split(";")
    return frames[-2].split("(")[0] + " " + frames[-1]
planted = {pkg + "BillingRun.bill long[]", pkg + "CallBatch.<init> long[]",
           pkg + "RateCard.<init> long[]", pkg + "PromotionIndex.<init> int[]"}
top = rows("nested", 4)
assert {site(k) for k, *_ in top} == planted, top
assert all(c in ("shrank", "vanished") for _, c, *_ in top), top
m = tables["nested"]["measures"]
drag, void, lag = m.index("drag"), m.index("void"), m.index("lag")
# At least the planted spaces (tests/demo/lifetime_demo_test.cpp computes them).
assert sum(r[4][drag] for r in top) <= -269283107155968, top
assert sum(r[4][void] for r in top) <= -305011973726464, top
assert sum(r[4][lag] for r in top) <= -142106044637440, top
'
  ;;
copy)
  demo copy-demo.jar --mode copy
  check a b '
pkg = "dragnet.demo.copy."
chain = rows("chains", 1)[0]
assert chain[1] == "vanished" and chain[2][0] == 2400000, chain
assert chain[0].count(" -> ") == 3 and "ReportRun.java:31)" in chain[0] and chain[0].endswith(".amountCents"), chain
clone = rows("clones", 1)[0]
assert clone[1] == "vanished" and clone[2][0] == 2080000, clone
assert "PriceTable.java:" in clone[0], clone
# Copies into the planted objects (demo/copy/README.md): the rows of the snapshots (S x 240),
# LedgerEntry and ReportLine (N x 3 fields), SaleRow (N x 2).
sites = [(k.split(" ")[-1], c, a[0]) for k, c, a, b, delta in rows("sites", 4)]
assert sites == [(pkg + "PriceTable.snapshot(PriceTable.java:29)", "vanished", 480000),
                 (pkg + "ReportRun.planted(ReportRun.java:27)", "vanished", 300000),
                 (pkg + "ReportRun.planted(ReportRun.java:31)", "vanished", 300000),
                 (pkg + "ReportRun.planted(ReportRun.java:23)", "vanished", 200000)], sites
nath = rows("nath", 1)[0]
assert nath[0] == pkg + "PriceQuery " + pkg + "ReportRun.planted(ReportRun.java:46)", nath
assert nath[1] == "vanished" and nath[2][0] == 100000, nath
'
  ;;
cost)
  demo cost-demo.jar --mode cost
  check a b '
pkg = "dragnet.demo.cost."
entries = pkg + "DirEntry " + pkg + "Classpath.directoryList(Classpath.java:78)"
fingerprint = pkg + "Fingerprint " + pkg + "Resolver.checkPlanted(Resolver.java:41)"
# The list built for a yes/no question has the highest rate of the run: first.
top = rows("sites", 1)[0]
assert top[0] == entries and top[1] == "vanished", top
vanished = {r["key"] for r in tables["sites"]["rows"] if r["change"] == "vanished"}
assert fingerprint in vanished, vanished
'
  ;;
*) fail "unknown mode" ;;
esac
echo "diff demo ($mode): the planted differences come first"
