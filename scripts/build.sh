#!/usr/bin/env bash
# Configures and builds vibro in ./build (Release). Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > build-configure.log || { cat build-configure.log; exit 1; }
cmake --build build --parallel
