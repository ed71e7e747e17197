#!/bin/sh
# Ball balancer Fig. 54 sweep benchmark (1 and 2 threads, adaptive and fixed steady state); runs
# bench/ball_balancer_fig54_bench.py on an existing build. About 6 minutes per repeat on 2 idle cores.
#   BUILD_DIR   the CMake build directory (default: <repo>/build)
#   PYTHON      interpreter (default: /usr/bin/python3, which has h5py)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${BUILD_DIR:-"$repo/build"}
python=${PYTHON:-/usr/bin/python3}
if [ ! -x "$build/jobs/vibro" ]; then
  echo "run_ball_balancer.sh: $build/jobs/vibro not found; build first (cmake --build $build)" >&2
  exit 2
fi
exec "$python" "$here/ball_balancer_fig54_bench.py" --vibro "$build/jobs/vibro" "$@"
