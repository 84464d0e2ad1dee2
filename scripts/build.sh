#!/usr/bin/env bash
# Usage: scripts/build.sh [release|asan|fuzz]   (default: release)
#   release -> build/       Release
#   asan    -> build-asan/  RelWithDebInfo, DRAGNET_SANITIZE=ON (ASan + UBSan)
#   fuzz    -> build-fuzz/  clang, RelWithDebInfo, DRAGNET_FUZZ=ON (libFuzzer targets)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-release}

case "$mode" in
  release) dir=build;      args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)    dir=build-asan; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAGNET_SANITIZE=ON) ;;
  fuzz)    dir=build-fuzz; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAGNET_FUZZ=ON
                                 -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "usage: $0 [release|asan|fuzz]" >&2; exit 2 ;;
esac

cmake -S "$root" -B "$root/$dir" -G Ninja "${args[@]}"
cmake --build "$root/$dir" -j"$(nproc)"
