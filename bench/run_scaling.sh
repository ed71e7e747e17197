#!/usr/bin/env bash
# Strong scaling of a sweep against the bare OpenMP loop over the same cases (bench/scaling), side by
# side on one machine: threads 1..16, and MPI ranks x threads at 16 cores. Prints one line per run
# (the minimum of REPEATS runs of the sweep's own timer) and the parallel efficiencies.
#
# usage: bench/run_scaling.sh [SWEEP.ini] [REPEATS] [VIBRO] [PLAIN_LOOP]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
sweep="${1:-$here/examples/conveyor_fig19_cr07.ini}"
repeats="${2:-3}"
vibro="${3:-$here/build/jobs/vibro}"
plain="${4:-$here/build/bench/scaling/plain_case_loop}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cores="$(nproc)"

# seconds a command reports ("... cases in X s" or "wall_seconds X")
seconds() { "$@" 2>/dev/null | sed -n -e 's/.*cases in \([0-9.]*\) s.*/\1/p' -e 's/.*wall_seconds \([0-9.e+-]*\).*/\1/p' | head -1; }
min_of() { tr ' ' '\n' | grep . | sort -g | head -1; }

# The bare loop and vibro take turns, repeat by repeat, so a drift of the machine's speed (another
# tenant, turbo, thermal) hits both alike; each line is the minimum of its REPEATS runs.
results="$work/results.txt"
for t in 1 2 4 8 16; do
  [ "$t" -le "$cores" ] || continue
  plain_runs="" vibro_runs=""
  for _ in $(seq "$repeats"); do
    plain_runs+=" $(seconds "$plain" "$sweep" "$t")"
    vibro_runs+=" $(seconds "$vibro" run "$sweep" --run.threads="$t" --output.file="$work/t$t.h5" --output.overwrite=true --run.progress=never)"
  done
  echo "plain_loop threads=$t $(echo "$plain_runs" | min_of)   runs:$plain_runs" | tee -a "$results"
  echo "vibro threads=$t $(echo "$vibro_runs" | min_of)   runs:$vibro_runs" | tee -a "$results"
done
if command -v mpirun > /dev/null && [ "$cores" -ge 16 ]; then
  for rt in "2 8" "4 4" "8 2" "16 1"; do
    set -- $rt
    runs=""
    for _ in $(seq "$repeats"); do
      runs+=" $(seconds mpirun -np "$1" --oversubscribe --bind-to none "$vibro" run "$sweep" \
        --run.threads="$2" --output.file="$work/r$1.h5" --output.overwrite=true --run.progress=never)"
    done
    echo "vibro ranks=$1xthreads=$2 $(echo "$runs" | min_of)   runs:$runs" | tee -a "$results"
  done
fi
echo "--- parallel efficiency (time at 1 thread / (cores x time)), each against its own 1-thread time"
awk '
  /^plain_loop threads=1 / {p1=$3} /^vibro threads=1 / {v1=$3}
  {split($2, a, "="); n=a[2]; if ($2 ~ /ranks=/) {split($2, b, /[=x]/); n=b[2]*b[4]}
   base = ($1 == "plain_loop") ? p1 : v1
   printf "%-28s %8.3f s  efficiency %.2f  (vs bare loop at 1 thread %.2f)\n", $1 " " $2, $3, base/(n*$3), p1/(n*$3)}
' "$results"
