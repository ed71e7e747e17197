#!/usr/bin/env bash
# The README's first command: install, build the vibro command and the Python package (no tests, no benchmarks: the
# test command, scripts/test.sh, builds those), run the default sweep (the conveyor's Fig. 6 study,
# embedded in the binary) and draw its figure. Output: results/conveyor_fig6.h5 and .png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
start=$SECONDS
scripts/build.sh -DVIBRO_BUILD_TESTS=OFF -DVIBRO_BUILD_BENCH=OFF --target vibro --target vibro_python_core
built=$((SECONDS - start))
mkdir -p results
build/jobs/vibro run --example conveyor_fig6 --output.file=results/conveyor_fig6.h5 --output.overwrite=true  # rerunnable
/usr/bin/python3 scripts/plot_feeding_velocity.py results/conveyor_fig6.h5 results/conveyor_fig6.png
echo "quickstart: wrote results/conveyor_fig6.h5 and results/conveyor_fig6.png"
echo "quickstart: built in ${built} s on $(nproc) core(s); $((SECONDS - start)) s from the build to the figure"
