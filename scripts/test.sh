#!/usr/bin/env bash
# Builds release and ASan+UBSan configurations and runs all tests (corpus tests only in
# release; they are too slow under ASan). Last line of output: "N passed, N failed".
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

scripts/install-deps.sh
scripts/build.sh release
scripts/build.sh asan

passed=0
failed=0
status=0

# run_ctest LOGNAME CTEST-ARGS...: runs ctest, adds its counts to the totals.
run_ctest() {
  local log=$1 rc=0 summary f total
  shift
  ctest "$@" 2>&1 | tee "$log" || rc=$?
  summary=$(sed -nE 's/.*tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p' "$log" |
            tail -n 1)
  if [[ -n "$summary" ]]; then
    read -r f total <<<"$summary"
    passed=$((passed + total - f))
    failed=$((failed + f))
  elif ((rc != 0)); then
    failed=$((failed + 1)) # ctest itself failed without a summary
  fi
  ((rc == 0)) || status=1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_ctest "$tmp/release.log" --test-dir build --output-on-failure -j2
# The agent is loaded into a JVM, which cannot host an ASan-built shared object: label agent
# runs in the release build only.
run_ctest "$tmp/asan.log" --test-dir build-asan --output-on-failure -j2 -LE 'corpus|semantics|verify|agent'

# The oracles' newest-JDK cases (tests/agent/oracle_jvms.h: newest_g1) skip when the machine
# has no JDK newer than 17: say so, not only in ctest's list.
if grep -qE 'newest_g1 .*Skipped' "$tmp/release.log"; then
  echo "newest-JDK tests skipped: no JDK newer than 17 found (set DRAGNET_NEWEST_JDK to a JDK home)"
fi
((failed == 0)) || status=1
echo "$passed passed, $failed failed"
exit "$status"
