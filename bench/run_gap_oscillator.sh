#!/bin/sh
# Model A loading curve benchmark: vibro (1 and 2 threads) against the CVODE peer, Hertz and restitution
# e = 1, 300 lambda values x 500 periods. Builds nothing: it runs bench/gap_oscillator_bench.py on binaries
# that already exist (cmake --build build builds both).
#   BUILD_DIR   the CMake build directory (default: <repo>/build), holding jobs/vibro and
#               bench/peers/cvode_gap_oscillator (a missing CVODE peer only drops its rows)
#   PYTHON      interpreter (default: /usr/bin/python3, which has numpy and h5py)
# Extra arguments go to the python script (--help lists them), e.g. --workdir DIR to keep the files.
# About 5 minutes on 2 cores, most of it CVODE (which runs every 6th lambda: --cvode-stride).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${BUILD_DIR:-"$repo/build"}
python=${PYTHON:-/usr/bin/python3}
if [ ! -x "$build/jobs/vibro" ]; then
  echo "run_gap_oscillator.sh: $build/jobs/vibro not found; build first (cmake --build $build)" >&2
  exit 2
fi
exec "$python" "$here/gap_oscillator_bench.py" \
  --vibro "$build/jobs/vibro" \
  --cvode "$build/bench/peers/cvode_gap_oscillator" \
  "$@"
