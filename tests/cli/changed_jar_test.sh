#!/usr/bin/env bash
# The rewrite path for changed classes (taken with the "mark" test tool, which adds an
# unknown attribute to every class): entries keep their order, compression method, time and
# attributes; other entries keep their compressed bytes; the archive comment is kept;
# multi-release classes are processed like others; the result still runs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# A jar mixing stored and deflated entries, with unix attributes, a multi-release class, an
# odd entry time and an archive comment.
mkdir "$tmp/x"
unzip -qq "$DEMO_JAR" -d "$tmp/x"
mkdir -p "$tmp/x/META-INF/versions/11/dragnet/demo"
cp "$tmp/x/dragnet/demo/Order.class" "$tmp/x/META-INF/versions/11/dragnet/demo/"
echo "some resource" >"$tmp/x/dragnet/demo/resource.txt"
chmod 640 "$tmp/x/dragnet/demo/Warehouse.class"
touch -d '2020-03-29 02:30:12' "$tmp/x/dragnet/demo/Main.class"
(cd "$tmp/x" && zip -q -X -r -0 "$tmp/in.jar" META-INF dragnet/demo/Order*.class &&
  zip -q -X -r -9 "$tmp/in.jar" dragnet -x 'dragnet/demo/Order*.class' &&
  echo "archive comment" | zip -q -z "$tmp/in.jar")

run_dragnet instrument --tool mark "$tmp/in.jar" -o "$tmp/out.jar"
expect_status 0
expect_counts "12 12 0 0"
expect_output "$tmp/stdout" '^  changed: +12$'

# Same order, names, methods and times for all entries; same attributes (zipinfo column 1).
# (Deflated classes are rewritten at the default level: Defl:X may become Defl:N.)
methods() { zip_rows "$1" | sed 's/ Defl:[NXFS] / Defl /'; }
diff <(methods "$tmp/in.jar") <(methods "$tmp/out.jar") || fail "entry list differs"
grep -q '^dragnet/demo/Order.class Stored ' <(methods "$tmp/out.jar") || fail "not stored"
attrs() { zipinfo "$1" | awk '$1 ~ /^[-d]/ && NF > 8 { print $1, $NF }'; }
diff <(attrs "$tmp/in.jar") <(attrs "$tmp/out.jar") || fail "attributes differ"
# Non-class entries are copied raw: same compressed size and CRC.
diff <(zip_rows "$tmp/in.jar" raw | grep -v '\.class ') \
  <(zip_rows "$tmp/out.jar" raw | grep -v '\.class ') || fail "a non-class entry changed"
# Every class changed, including the multi-release one.
unzip -p "$tmp/out.jar" META-INF/versions/11/dragnet/demo/Order.class >"$tmp/mr.class"
grep -q dragnet.Mark "$tmp/mr.class" || fail "multi-release class not processed"
[[ "$(unzip -z "$tmp/out.jar" | sed -n 2p)" == "archive comment" ]] || fail "comment lost"

jdk_tool java -jar "$DEMO_JAR" >"$tmp/expected.txt"
jdk_tool java -cp "$tmp/out.jar" dragnet.demo.Main >"$tmp/actual.txt" || fail "output does not run"
diff "$tmp/expected.txt" "$tmp/actual.txt" || fail "output behaves differently"
echo "PASS"
