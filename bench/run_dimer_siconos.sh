#!/bin/sh
# The dimer's R5 case (A_r 3.9, 25 Hz, Gamma 0.9, h0 0.25 mm, theta0 5 deg, 100 periods, drift over
# the last 50) by vibro and by Siconos side by side: wall time and drift speed with its sign.
# Rows: vibro with its impulse-domain impacts (the default), vibro with impact_law = total
# (Newton + total-impulse Coulomb), and Siconos 4.4 TimeStepping + MoreauJeanOSI(0.5) with two
# NewtonImpactFrictionNSL contacts (bench/peers/siconos_dimer.py) for mu = 0.12 (mu_c; the
# default), 0.08 (mu_i) and 0.24 (mu_s), since Siconos's law has one coefficient.
# Runs are interleaved, REPEATS times each (default 3); the minimum wall time (whole process,
# start-up and output included) is reported; in brackets the time inside the run (vibro's
# "cases in" line: the case itself; Siconos: the time-stepping loop, without import and set-up). Builds nothing: cmake --build build first; Siconos from
# scripts/install_deps.sh --peers (python3-siconos, used by /usr/bin/python3).
#   BUILD_DIR  the CMake build directory (default <repo>/build)     REPEATS  repeats per row
#   MUS        Siconos friction coefficients (default "0.12 0.08 0.24")
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
VIBRO=${BUILD_DIR:-$REPO/build}/jobs/vibro
PY=/usr/bin/python3
REPEATS=${REPEATS:-3}
MUS=${MUS:-"0.12 0.08 0.24"}
if [ ! -x "$VIBRO" ]; then echo "run_dimer_siconos.sh: $VIBRO not found; build first" >&2; exit 2; fi
"$PY" -c "import siconos.kernel" 2>/dev/null || { echo "run_dimer_siconos.sh: python3-siconos missing (scripts/install_deps.sh --peers)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }

vibro_row() {  # $1 = impact law; prints "wall drift"
  t0=$(now)
  "$VIBRO" run "$REPO/bench/dimer_r5.ini" --numerics.impact_law="$1" --run.progress=never \
    --output.file="$WORK/v_$1.h5" --output.overwrite=true > "$WORK/v_$1.log" 2>&1
  t1=$(now)
  drift=$(cd "$REPO/scripts" && "$PY" -c "import sys, vibro_results as v; d = v.load(sys.argv[1]); print('%.3f' % d['observables']['drift_speed'][0])" "$WORK/v_$1.h5")
  run=$(sed -n 's/^1 cases in \([0-9.]*\) s.*/\1/p' "$WORK/v_$1.log")
  echo "$(echo "$t1 - $t0" | bc) $drift $run"
}
siconos_row() {  # $1 = mu; prints "wall drift loop_wall"
  t0=$(now)
  "$PY" "$REPO/bench/peers/siconos_dimer.py" --mu "$1" > "$WORK/s_$1.log" 2>&1
  t1=$(now)
  line=$(grep '^siconos_dimer' "$WORK/s_$1.log")
  drift=$(echo "$line" | sed 's/.* drift=\([^ ]*\).*/\1/')
  loop=$(echo "$line" | sed 's/.* wall=\([^ ]*\).*/\1/')
  echo "$(echo "$t1 - $t0" | bc) $drift $loop"
}
keep_min() {  # file, new "wall ..." line: keeps the line with the smaller wall
  if [ ! -s "$1" ]; then echo "$2" > "$1"; return; fi
  old=$(cut -d' ' -f1 "$1")
  new=$(echo "$2" | cut -d' ' -f1)
  if [ "$(echo "$new < $old" | bc)" = 1 ]; then echo "$2" > "$1"; fi
}
i=1
while [ "$i" -le "$REPEATS" ]; do
  keep_min "$WORK/min_vibro_incremental" "$(vibro_row incremental)"
  keep_min "$WORK/min_vibro_total" "$(vibro_row total)"
  for mu in $MUS; do keep_min "$WORK/min_siconos_$mu" "$(siconos_row "$mu")"; done
  i=$((i + 1))
done
sign() { case "$1" in -*) echo "backward (-)";; *) echo "forward (+)";; esac; }
echo "| tool | scheme | step | wall time (s, min of $REPEATS) | drift speed (mm/s) | sign |"
echo "|---|---|---|---|---|---|"
set -- $(cat "$WORK/min_vibro_incremental")
echo "| vibro | Moreau midpoint + impulse-domain (Darboux-Keller/LZB) impacts, mu_s 0.24 / mu_c 0.12 / mu_i 0.08 | T/4000 = 1e-5 s | $(printf %.2f "$1") (run $3) | $2 | $(sign "$2") |"
set -- $(cat "$WORK/min_vibro_total")
echo "| vibro (impact_law = total) | Moreau midpoint + Newton e 0.65 / total-impulse Coulomb, mu_s 0.24 / mu_i 0.08 | T/4000 = 1e-5 s | $(printf %.2f "$1") (run $3) | $2 | $(sign "$2") |"
for mu in $MUS; do
  set -- $(cat "$WORK/min_siconos_$mu")
  echo "| Siconos 4.4 | TimeStepping + MoreauJeanOSI(0.5), 2 x NewtonImpactFrictionNSL(e 0.65, mu $mu), FrictionContact 2-D Lemke | T/4000 = 1e-5 s | $(printf %.2f "$1") (loop $(printf %.2f "$3")) | $2 | $(sign "$2") |"
done
