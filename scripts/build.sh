#!/usr/bin/env bash
# Configures and builds vibro in ./build (Release). `--target NAME` (repeatable) builds only NAME and
# what it needs; every other argument goes to cmake's configure step, e.g. -DVIBRO_BUILD_TESTS=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
configure=() targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target) targets+=("$2"); shift 2 ;;
    --target=*) targets+=("${1#--target=}"); shift ;;
    *) configure+=("$1"); shift ;;
  esac
done
# ccache, where installed (the test command installs it), lets the wheel test's second CMake build reuse
# this one's objects instead of compiling the project again.
if command -v ccache > /dev/null; then
  configure=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache "${configure[@]}")
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" > build-configure.log ||
  { cat build-configure.log; exit 1; }
if [ ${#targets[@]} -gt 0 ]; then targets=(--target "${targets[@]}"); fi
cmake --build build --parallel "${targets[@]}"
