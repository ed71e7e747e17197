#!/usr/bin/env bash
# The host's side of a GPU run, timed without a GPU: the conveyor's 10^6-case fixed map (the GPU
# check's map: a_hat 30..80 m/s^2 x z0 0.1..4 mm, 1000 x 1000, 100 periods, 50-period window, no
# stroboscopic points stored) on run.backend = null, whose launches do no work but take LAUNCH_SECONDS
# in all (spread over the groups of 131,072 cases), the whole `vibro run` timed from outside, the file
# written (a new file: see one_run). "host beyond the launches" is that wall time less LAUNCH_SECONDS; "cpu" is the process's
# user + system seconds (GNU time), which a busy machine inflates less than the wall time.
#
#   bash bench/null_backend_bench.sh                  # build/jobs/vibro, 5 runs
#   VIBRO=path/to/vibro BEFORE=path/to/older/vibro RUNS=5 bash bench/null_backend_bench.sh
#
# With BEFORE, the two binaries run in turn (A B A B ...), so that a drift in the machine's load
# touches both alike (after one untimed run of each, see WARMUP below). THREADS (default 2), LAUNCH_SECONDS (default 0.5), N (cases per axis, default
# 1000) and WORK (scratch folder) may be set. The load average is printed before each run: on a
# shared machine, quote figures taken at a low load only.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
VIBRO=${VIBRO:-$root/build/jobs/vibro}
BEFORE=${BEFORE:-}
RUNS=${RUNS:-5}
THREADS=${THREADS:-2}
LAUNCH_SECONDS=${LAUNCH_SECONDS:-0.5}
N=${N:-1000}
WORK=${WORK:-$(mktemp -d)}
GROUP_CASES=131072
groups=$(( (N * N + GROUP_CASES - 1) / GROUP_CASES ))
group_seconds=$(python3 -c "print($LAUNCH_SECONDS / $groups)")

one_run() {  # binary label
  local out="$WORK/$2.h5" log="$WORK/$2.log"
  local load
  # Each timed run writes a new file, as a first run does: the last run's file is removed and the
  # disk's writeback finished first, untimed (replacing a 200 MB file costs its deletion at the
  # rename, 0.03-0.1 s here, and the last run's writeback would fall into this one).
  rm -f "$out"
  sync
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S" -o "$WORK/$2.time" "$1" run "$root/examples/conveyor_fig6.ini" "--axes.a_hat=linspace(30, 80, $N)" "--axes.z0=linspace(0.0001, 0.004, $N)" \
    --run.steady_state=fixed --run.max_periods=100 --run.window_periods=50 --output.strobe_points=none \
    --output.overwrite=true --output.file="$out" --run.backend=null --run.null_group_seconds="$group_seconds" \
    --run.batch_cases=$GROUP_CASES --run.threads="$THREADS" --run.progress=never > "$log" 2>&1
  python3 - "$2" "$load" "$WORK/$2.time" "$LAUNCH_SECONDS" "$log" <<'EOF'
import re, sys
label, load, times, launches, log = sys.argv[1:]
wall, user, system = (float(x) for x in open(times).read().split()[-3:])
text = open(log).read()
sweep = re.search(r"cases in ([0-9.]+) s", text)
file_s = re.search(r"\(([0-9.]+) s after the sweep", text)
print("%-7s load %5s  whole run %6.2f s  host beyond the launches %6.2f s  cpu %6.2f s  (sweep %s s, file %s s)" % (
    label, load, wall, wall - float(launches), user + system, sweep.group(1) if sweep else "?",
    file_s.group(1) if file_s else "?"))
EOF
  grep -E "^batched:" "$log" | sed 's/^/        /'
}

echo "10^6-case fixed map ($N x $N), null back end, launches $LAUNCH_SECONDS s in all ($groups groups x $group_seconds s), $THREADS threads"
# One untimed run of each binary first (WARMUP=0: none): the first run of a series pays for memory the
# machine has not touched for a while (on a VM idle for seconds, about 0.3 s more here: bench/README.md
# has such cold runs), which would fall on whichever binary runs first.
if [ "${WARMUP:-1}" != 0 ]; then
  one_run "$VIBRO" after > /dev/null
  if [ -n "$BEFORE" ]; then one_run "$BEFORE" before > /dev/null; fi
fi
for r in $(seq 1 "$RUNS"); do
  one_run "$VIBRO" after
  if [ -n "$BEFORE" ]; then one_run "$BEFORE" before; fi
done
