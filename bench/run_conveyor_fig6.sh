#!/bin/sh
# Conveyor Fig. 6 benchmark: vibro (fixed / adaptive, 1 and 2 threads) against the CVODE and scipy
# peers. Builds nothing: it runs bench/conveyor_fig6_bench.py on binaries that already exist.
#   BUILD_DIR   the CMake build directory (default: <repo>/build), holding jobs/vibro and
#               bench/peers/cvode_conveyor (a missing CVODE peer only drops its rows)
#   PYTHON      interpreter for the benchmark and the scipy peer (default: /usr/bin/python3)
# Extra arguments go to the python script (--help lists them), e.g. --workdir DIR to keep the files.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${BUILD_DIR:-"$repo/build"}
python=${PYTHON:-/usr/bin/python3}
if [ ! -x "$build/jobs/vibro" ]; then
  echo "run_conveyor_fig6.sh: $build/jobs/vibro not found; build first (cmake --build $build)" >&2
  exit 2
fi
exec "$python" "$here/conveyor_fig6_bench.py" \
  --vibro "$build/jobs/vibro" \
  --cvode "$build/bench/peers/cvode_conveyor" \
  --scipy-peer "$here/peers/scipy_conveyor.py" \
  --python "$python" \
  --ini "$repo/examples/conveyor_fig6.ini" \
  "$@"
