#!/usr/bin/env bash
# Usage: scripts/build.sh [release|asan|fuzz] [TARGET...]   (default: release, all targets)
#   release -> build/       Release, with profile-guided optimisation (below)
#   asan    -> build-asan/  RelWithDebInfo, DRAGNET_SANITIZE=ON (ASan + UBSan)
#   fuzz    -> build-fuzz/  clang, RelWithDebInfo, DRAGNET_FUZZ=ON (libFuzzer targets)
#
# Release builds the class-file library, the BIT layer and the tools with GCC's
# profile-guided optimisation (docs/PERFORMANCE.md, "Profile-guided optimisation"):
# build-pgo-train/ is an instrumented build whose icount benchmark runs once over the
# java.base classes of the JDK that builds the project (`jimage extract`; not among the
# benchmark jars), writing build/pgo-profile/. Trained again only when a source of those
# libraries is newer than the profile. DRAGNET_PGO=off skips all of it (plain -O3 build).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-release}
shift || true
targets=("$@")

case "$mode" in
  release) dir=build;      args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)    dir=build-asan; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAGNET_SANITIZE=ON) ;;
  fuzz)    dir=build-fuzz; args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAGNET_FUZZ=ON
                                 -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "usage: $0 [release|asan|fuzz] [TARGET...]" >&2; exit 2 ;;
esac

build_args=(-j"$(nproc)")
[[ ${#targets[@]} -gt 0 ]] && build_args+=(--target "${targets[@]}")

# True when the profile is missing or older than a source of the profiled libraries.
profile_stale() {
  local stamp=$1
  [[ -f $stamp ]] || return 0
  [[ -n $(find "$root/src/classfile" "$root/src/instrument" "$root/src/tools" \
              "$root/bench/asm_compare/dragnet_icount_bench.cpp" "$root/CMakeLists.txt" \
              -newer "$stamp" -print -quit) ]]
}

# Trains the profile into $1 (replaced only once the training run succeeded). Every step
# returns on failure (errexit does not apply in a function called as a condition).
pgo_train() {
  local profile=$1 train=$root/build-pgo-train javac jdk
  javac=$(readlink -f "$(command -v javac)") || return 1
  jdk=$(dirname "$(dirname "$javac")")
  echo "build.sh: training the PGO profile (java.base of $jdk)"
  rm -rf "$profile.new"
  cmake -S "$root" -B "$train" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDRAGNET_PGO=generate \
        -DDRAGNET_PGO_DIR="$profile.new" >/dev/null || return 1
  cmake --build "$train" --target dragnet_icount_bench -j"$(nproc)" || return 1
  if [[ ! -d $train/java.base ]]; then
    rm -rf "$train/extract"
    "$jdk/bin/jimage" extract --include 'regex:/java\.base/.*' --dir "$train/extract" \
                      "$jdk/lib/modules" || return 1
    mv "$train/extract/java.base" "$train/java.base" || return 1
    rm -rf "$train/extract"
  fi
  "$train/bench/asm_compare/dragnet_icount_bench" --warmup 0 --iterations 1 \
                                                  "$train/java.base" >"$train/train.log" ||
    { cat "$train/train.log"; return 1; }
  grep '^RESULT' "$train/train.log"
  rm -rf "$profile"
  mv "$profile.new" "$profile" || return 1
  date -u +%FT%TZ >"$profile/stamp"
}

if [[ $mode == release && ${DRAGNET_PGO:-on} != off ]] &&
   ! "${CXX:-c++}" --version 2>/dev/null | grep -qi clang; then
  profile=$root/$dir/pgo-profile
  if profile_stale "$profile/stamp" && ! pgo_train "$profile"; then
    # A build without the profile still works: only slower.
    echo "build.sh: PGO training failed; building without profile-guided optimisation" >&2
    rm -rf "$profile" "$profile.new"
  fi
  args+=(-DDRAGNET_PGO=use -DDRAGNET_PGO_DIR="$profile")
elif [[ $mode == release ]]; then
  args+=(-DDRAGNET_PGO=)
fi

cmake -S "$root" -B "$root/$dir" -G Ninja "${args[@]}"
cmake --build "$root/$dir" "${build_args[@]}"
