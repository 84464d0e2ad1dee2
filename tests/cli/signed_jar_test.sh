#!/usr/bin/env bash
# A signed jar (signed at test time with keytool + jarsigner): the identity tool keeps the
# signature and the output still verifies; a tool that changes classes drops the signature
# files and says so, and the unsigned result still runs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

jdk_tool keytool -genkeypair -keystore "$tmp/keys.p12" -storetype PKCS12 -storepass secret12 \
  -keypass secret12 -alias dragnet -dname CN=dragnet-test -keyalg EC -validity 2 >/dev/null 2>&1 \
  || fail "keytool -genkeypair failed"
cp "$DEMO_JAR" "$tmp/signed.jar"
jdk_tool jarsigner -keystore "$tmp/keys.p12" -storepass secret12 "$tmp/signed.jar" dragnet \
  >/dev/null 2>&1 || fail "jarsigner failed"
unzip -Z1 "$tmp/signed.jar" >"$tmp/signed.lst"
grep -qx 'META-INF/DRAGNET.SF' "$tmp/signed.lst" || fail "no signature file"

run_dragnet instrument --tool none --check-identity "$tmp/signed.jar" -o "$tmp/identity.jar"
expect_status 0
expect_counts "11 11 11 0"
expect_output "$tmp/stdout" '^  signature: +signature kept \(no class changed\)$'
jdk_tool jarsigner -verify "$tmp/identity.jar" >"$tmp/verify.txt" 2>&1 || true
grep -q '^jar verified' "$tmp/verify.txt" || { cat "$tmp/verify.txt"; fail "output not verified"; }
cmp "$tmp/signed.jar" "$tmp/identity.jar" || fail "identity output differs from the input"

# "mark" (a test aid) changes every class: the signature must go, the rest stays.
run_dragnet instrument --tool mark "$tmp/signed.jar" -o "$tmp/marked.jar"
expect_status 0
expect_output "$tmp/stdout" \
  '^  signature: +the jar was signed; signature removed because 11 classes changed'
unzip -Z1 "$tmp/marked.jar" >"$tmp/marked.lst"
! grep -E '^META-INF/DRAGNET\.(SF|EC)$' "$tmp/marked.lst" || fail "signature files kept"
grep -qx 'META-INF/MANIFEST.MF' "$tmp/marked.lst" || fail "manifest dropped"
jdk_tool jarsigner -verify "$tmp/marked.jar" >"$tmp/verify.txt" 2>&1 || true
grep -q 'jar is unsigned' "$tmp/verify.txt" || { cat "$tmp/verify.txt"; fail "not unsigned"; }
jdk_tool java -jar "$DEMO_JAR" >"$tmp/expected.txt"
jdk_tool java -jar "$tmp/marked.jar" >"$tmp/actual.txt" || fail "changed jar does not run"
diff "$tmp/expected.txt" "$tmp/actual.txt" || fail "changed jar behaves differently"
echo "PASS"
