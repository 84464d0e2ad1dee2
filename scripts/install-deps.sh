#!/usr/bin/env bash
# Installs (via apt) everything needed to build and test dragnet. Idempotent: does nothing
# when every package is already installed.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build g++ clang libclang-rt-14-dev pkg-config
  # libraries
  libgtest-dev libgmock-dev libbenchmark-dev libzip-dev libcli11-dev nlohmann-json3-dev zlib1g-dev
  libzstd-dev
  # dragnet shell: SQL tables (sql, export --sqlite) and line editing
  libsqlite3-dev libedit-dev
  # Java and archive tools
  openjdk-17-jdk-headless unzip zip
  # bench/run: peak RSS of each run
  time
  # the `dragnet run` tests read JSON reports (tests/cli/run_*_test.sh)
  jq
  # the layering check (tests/layering)
  python3
  # headless browser: the HTML report's test renders the page (tests/report)
  chromium
  # workload jars
  libasm-java libbcel-java fop jython libxalan2-java libh2-java liblucene4.10-java antlr4
  # bench/ecj/measure.sh: the agent and the program's -Xmx
  libecj-java
)

# A JDK newer than 17 for the tests that also run on the newest JDK (tests/agent/newest_jdk.h
# finds it under /usr/lib/jvm): the newest openjdk-N-jdk-headless the configured apt sources
# offer, if they offer one (Debian 12 has none; Temurin's own apt repository is one way).
newer_jdk() {
  apt-cache pkgnames openjdk- 2>/dev/null |
    sed -nE 's/^openjdk-([0-9]+)-jdk-headless$/\1/p' | awk '$1 > 17' | sort -n | tail -n 1
}
newer=$(newer_jdk || true)
[[ -z "$newer" ]] || packages+=("openjdk-$newer-jdk-headless")
no_newer_jdk() {
  echo "install-deps: the apt sources offer no JDK newer than 17;" \
       "the newest-JDK tests run only if one is installed (or named by DRAGNET_NEWEST_JDK)"
}

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == installed ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  [[ -n "$newer" ]] || no_newer_jdk
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=()
if ((EUID != 0)); then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-deps: not root and sudo is unavailable; install manually: ${missing[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
if [[ -z "$newer" ]]; then  # the package lists may have been empty before the update
  newer=$(newer_jdk || true)
  if [[ -n "$newer" ]]; then missing+=("openjdk-$newer-jdk-headless"); else no_newer_jdk; fi
fi
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
