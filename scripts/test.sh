#!/usr/bin/env bash
# The README's second command (and what CI runs): install, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh --tests
scripts/build.sh -DVIBRO_BUILD_TESTS=ON -DVIBRO_BUILD_BENCH=ON  # on again after a quickstart turned them off
ctest --test-dir build --output-on-failure --timeout 600 -j "$(nproc)"
