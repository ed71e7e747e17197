#!/bin/sh
# Cases per second of the dimer's Fig. 15 sweep (examples/dimer_fig15.ini) on 1 and on 2 threads.
# By default a subset (every 4th A_r: 9 x 3 frequencies x 9 releases = 243 cases); FULL=1 runs all 891.
# Prints one line per thread count; asserts nothing. Build first (cmake --build build).
#   bench/dimer_fig15_bench.sh            BUILD_DIR=... picks another build directory
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
VIBRO=${BUILD_DIR:-$REPO/build}/jobs/vibro
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
AXIS=""
if [ "${FULL:-0}" != 1 ]; then AXIS="--axes.A_r=2.1,2.9,3.7,4.5,5.3,6.1,6.9,7.7,8.5"; fi
for threads in 1 2; do
  start=$(date +%s.%N)
  "$VIBRO" run "$REPO/examples/dimer_fig15.ini" $AXIS --run.threads=$threads --run.progress=never \
    --output.file="$WORK/fig15_$threads.h5" --output.overwrite=true > "$WORK/log_$threads" 2>&1
  end=$(date +%s.%N)
  cases=$(sed -n 's/^\([0-9]*\) cases in.*/\1/p' "$WORK/log_$threads")
  echo "dimer fig15: $cases cases on $threads thread(s): $(echo "$end - $start" | bc) s, $(echo "scale=2; $cases / ($end - $start)" | bc) cases/s"
done
