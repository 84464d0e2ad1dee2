#!/usr/bin/env bash
# Installs (via apt) everything needed to build and test dragnet. Idempotent: does nothing
# when every package is already installed.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build g++ clang libclang-rt-14-dev pkg-config
  # libraries
  libgtest-dev libgmock-dev libbenchmark-dev libzip-dev libcli11-dev nlohmann-json3-dev zlib1g-dev
  # dragnet shell: SQL tables (sql, export --sqlite) and line editing
  libsqlite3-dev libedit-dev
  # Java and archive tools
  openjdk-17-jdk-headless unzip zip
  # bench/run: peak RSS of each run
  time
  # headless browser: the HTML report's test renders the page (tests/report)
  chromium
  # workload jars
  libasm-java libbcel-java fop jython libxalan2-java libh2-java liblucene4.10-java antlr4
  # bench/ecj/measure.sh: the agent and the program's -Xmx
  libecj-java
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == installed ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
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
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
