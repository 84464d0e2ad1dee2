# Shared setup of the tests/cli/*_test.sh end-to-end tests of the dragnet CLI (sourced).
# Environment (set by ctest, see tests/CMakeLists.txt):
#   DRAGNET   the dragnet binary             DEMO_JAR  build/demo/demo.jar
#   JAVA_BIN  directory of javac/jar/keytool/jarsigner (optional; else they come from PATH)
set -euo pipefail

: "${DRAGNET:?set DRAGNET to the dragnet binary}"
: "${DEMO_JAR:?set DEMO_JAR to build/demo/demo.jar}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# jdk_tool NAME ARGS...: runs a JDK tool from $JAVA_BIN if it has it, else from PATH.
jdk_tool() {
  local name=$1
  shift
  if [[ -n "${JAVA_BIN:-}" && -x "$JAVA_BIN/$name" ]]; then
    "$JAVA_BIN/$name" "$@"
  else
    "$name" "$@"
  fi
}

# run_dragnet ARGS...: runs dragnet; sets $status and leaves its output in $tmp/stdout and
# $tmp/stderr (both also echoed, for ctest logs).
run_dragnet() {
  status=0
  "$DRAGNET" "$@" >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
  echo "\$ dragnet $*  (exit status $status)"
  sed 's/^/  | /' "$tmp/stdout" "$tmp/stderr"
}

# expect_status N: the last run_dragnet exited with N.
expect_status() {
  ((status == $1)) || fail "expected exit status $1, got $status"
}

# expect_output FILE REGEX: FILE ($tmp/stdout or $tmp/stderr) has a line matching REGEX.
expect_output() {
  grep -Eq -- "$2" "$1" || fail "expected a line matching '$2' in $(basename "$1")"
}

# report_value NAME: the first word after "  NAME:" in the last report.
report_value() {
  awk -v key="  $1:" 'index($0, key) == 1 {
    split(substr($0, length(key) + 1), words, " "); print words[1]; exit }' "$tmp/stdout"
}

# expect_counts READ WRITTEN IDENTICAL FAILED: the last report's class counts.
expect_counts() {
  local got
  got="$(report_value "classes read") $(report_value "classes written")"
  got+=" $(report_value "byte-identical") $(report_value failed)"
  [[ "$got" == "$*" ]] || fail "expected read/written/identical/failed '$*', got '$got'"
}

# zip_rows JAR: "name method date time [csize crc]" per entry, in archive order, from
# `unzip -v`; with a second argument "raw" the compressed size and CRC are included.
zip_rows() {
  unzip -v "$1" | awk -v raw="${2:-}" '/^--------/ { n++; next } n == 1 {
    name = $0; sub(/^ +/, "", name)
    for (i = 0; i < 7; i++) { sub(/^[^ ]+/, "", name); sub(/^ +/, "", name) }
    print name, $2, $5, $6, (raw == "raw" ? $3 " " $7 : "") }'
}
