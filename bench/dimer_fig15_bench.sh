#!/bin/sh
# Cases per second of the dimer's Fig. 15 sweep (examples/dimer_fig15.ini) under both integrators,
# side by side in one run on one thread each (THREADS=2 adds a 2-thread run of each), and the ratios of
# wall time and of CPU time (user + system; the fair measure per core on a shared machine).
# By default a subset (every 4th A_r: 9 x 3 frequencies x 9 releases = 243 cases); FULL=1 runs all 891.
# Prints one line per integrator and thread count; asserts nothing. Build first (cmake --build build).
#   bench/dimer_fig15_bench.sh            BUILD_DIR=... picks another build directory
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
VIBRO=${BUILD_DIR:-$REPO/build}/jobs/vibro
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
AXIS=""
if [ "${FULL:-0}" != 1 ]; then AXIS="--axes.A_r=2.1,2.9,3.7,4.5,5.3,6.1,6.9,7.7,8.5"; fi
THREAD_COUNTS=1
if [ "${THREADS:-1}" = 2 ]; then THREAD_COUNTS="1 2"; fi
for threads in $THREAD_COUNTS; do
  for integrator in moreau_jean event_driven; do
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$WORK/cpu_${integrator}_$threads" "$VIBRO" run "$REPO/examples/dimer_fig15.ini" $AXIS --numerics.integrator=$integrator --run.threads=$threads \
      --run.progress=never --output.file="$WORK/fig15_${integrator}_$threads.h5" --output.overwrite=true \
      > "$WORK/log_${integrator}_$threads" 2>&1
    end=$(date +%s.%N)
    cases=$(sed -n 's/^\([0-9]*\) cases in.*/\1/p' "$WORK/log_${integrator}_$threads")
    cpu=$(awk '{print $1 + $2}' "$WORK/cpu_${integrator}_$threads")
    rate=$(echo "scale=3; $cases / ($end - $start)" | bc)
    echo "dimer fig15 $integrator: $cases cases on $threads thread(s): $(echo "$end - $start" | bc) s wall, $rate cases/s; $cpu s CPU, $(echo "scale=3; $cases / $cpu" | bc) cases per CPU second"
    eval "rate_$integrator=$rate cpu_$integrator=$cpu"
  done
  echo "event_driven / moreau_jean on $threads thread(s): $(echo "scale=1; $rate_event_driven / $rate_moreau_jean" | bc)x wall, $(echo "scale=1; $cpu_moreau_jean / $cpu_event_driven" | bc)x CPU"
done
if [ -n "${KEEP:-}" ]; then cp "$WORK"/fig15_*.h5 "$KEEP"/; fi
