#!/usr/bin/env bash
# The GPU back end's measurements, in one run on a machine with an NVIDIA GPU (H100: sm_90) and nvcc:
#  1. builds vibro with the CUDA back end (build-cuda/, -DVIBRO_CUDA=ON) and the missed-impact check;
#  2. the conveyor's Fig. 6 grid refined to 10^6 cases (a_hat 30..80 m/s^2 x z0 0.1..4 mm, 1000 x 1000,
#     MPGOS's bouncing-ball map with the conveyor's full model), run.backend = cuda: fixed 100 periods,
#     then adaptive steady states; vibro's own figure is the sweep (launches, transfers, compaction,
#     detectors), the process figure adds start-up and the HDF5 file; the CUDA context is created
#     before the sweep's clock starts;
#  3. the MPGOS benchmark on the same map (Hegedus et al., MPGOS, RKCK45 with event handling), when
#     its folder is present (MPGOS_DIR, default devrun/peers/mpgos, with MPGOS's tree at src/);
#  4. the same 10^6 map on 16 CPU threads (cpu back end), fixed and adaptive: speed ratio, and class
#     and mean-velocity agreement of cuda against cpu (scripts/compare_backends.py);
#  5. a 100 x 100 subgrid: cpu on 1 thread, cuda, and the brute-force missed-impact check
#     (bench/gpu/conveyor_missed_impacts) of every flight on the CPU, whose impact counts the cuda
#     run must match.
# Prints everything and writes it to $OUT/gpu_check.txt ($OUT default devrun/out). Expected to take
# about 8 minutes after the build; every step has its own time limit and the report goes on after a
# failure. Run from the repository root; devrun/ is git-ignored and must travel with the run.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-devrun/out}
MPGOS_DIR=${MPGOS_DIR:-devrun/peers/mpgos}
THREADS=${THREADS:-16}
mkdir -p "$OUT"
REPORT=$OUT/gpu_check.txt
: > "$REPORT"
say() { echo "$*" | tee -a "$REPORT"; }
# step LABEL TIMEOUT CMD...: runs CMD with its output in $OUT/LABEL.log, reports its wall time and last line.
step() {
  local label=$1 limit=$2
  shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > "$OUT/$label.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  say "[$label] rc=$rc process wall $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}') s: $(grep -E 'cases in|missed impacts' "$OUT/$label.log" | tail -1)"
  [ $rc -ne 0 ] && tail -5 "$OUT/$label.log" | sed 's/^/    /' | tee -a "$REPORT"
  return 0
}

say "=== vibro GPU check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
say "nvcc: $($NVCC --version 2>/dev/null | grep -m1 release)"

# 1. Build (skipped when VIBRO and CHECK name built binaries: a dry run of the script on a CPU machine).
if [ -z "${VIBRO:-}" ]; then
  step configure 300 cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVIBRO_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$NVCC" -DVIBRO_BUILD_TESTS=OFF -DVIBRO_BUILD_BENCH=ON
  step build 600 cmake --build build-cuda --parallel "$(nproc)" --target vibro conveyor_missed_impacts
fi
V=${VIBRO:-build-cuda/jobs/vibro}
CHECK=${CHECK:-build-cuda/bench/gpu/conveyor_missed_impacts}
N_MAP=${N_MAP:-1000}  # the map is N_MAP x N_MAP cases (a dry run takes a smaller one)
N_SMALL=${N_SMALL:-100}
[ -x "$V" ] || { say "no vibro binary: stop"; exit 1; }

# The map: the Fig. 6 study (model, parameters, drop start) on MPGOS's grid, N x N cases.
MAP=examples/conveyor_fig6.ini
grid() {  # N MODE: sets GRID to the overrides of an N x N grid, fixed 100 periods or adaptive (budget 100)
  GRID=("--axes.a_hat=linspace(30, 80, $1)" "--axes.z0=linspace(0.0001, 0.004, $1)" "--run.steady_state=$2"
        --run.max_periods=100 --run.window_periods=50 --output.strobe_points=none --output.overwrite=true)
}
run_map() {  # LABEL TIMEOUT BACKEND THREADS N MODE
  grid "$5" "$6"
  step "$1" "$2" "$V" run "$MAP" "${GRID[@]}" --output.file="$OUT/$1.h5" --run.backend="$3" --run.threads="$4" \
    --run.progress=never
}

# 2. GPU: a small warm-up run (also checks the back end works), then the 10^6 maps.
run_map cuda_small 120 cuda "$THREADS" "$N_SMALL" fixed
run_map cuda_map_fixed 300 cuda "$THREADS" "$N_MAP" fixed
run_map cuda_map_adaptive 300 cuda "$THREADS" "$N_MAP" adaptive

# 3. MPGOS on the same map, in the same session.
if [ -f "$MPGOS_DIR/run_device.sh" ] && [ -d "$MPGOS_DIR/src/SourceCodes" ]; then
  mkdir -p "$OUT/mpgos"
  step mpgos 360 env OUT="$(cd "$OUT/mpgos" && pwd)" bash "$MPGOS_DIR/run_device.sh"
  grep -E 'config=|tight|loose' "$OUT/mpgos.log" | head -20 | sed 's/^/    /' | tee -a "$REPORT"
else
  say "[mpgos] skipped: no $MPGOS_DIR/run_device.sh with MPGOS's tree at src/"
fi

# 4. The same map on CPU threads, and agreement of cuda with cpu.
run_map cpu_map_fixed 420 cpu "$THREADS" "$N_MAP" fixed
run_map cpu_map_adaptive 300 cpu "$THREADS" "$N_MAP" adaptive
for mode in fixed adaptive; do
  say "cuda vs cpu, $mode:"
  /usr/bin/python3 scripts/compare_backends.py "$OUT/cpu_map_$mode.h5" "$OUT/cuda_map_$mode.h5" 2>&1 | sed 's/^/    /' | tee -a "$REPORT"
done

# 5. 10^4 cases: one CPU thread, the brute-force missed-impact check, and cuda's impact counts against it.
run_map cpu_small_1thread 300 cpu 1 "$N_SMALL" fixed
grid "$N_SMALL" fixed
step missed_impacts 300 "$CHECK" "$MAP" 100 "$OUT/missed_impacts.csv" "${GRID[@]}"
say "cuda vs cpu (1 thread), $N_SMALL x $N_SMALL subgrid:"
/usr/bin/python3 scripts/compare_backends.py "$OUT/cpu_small_1thread.h5" "$OUT/cuda_small.h5" 2>&1 | sed 's/^/    /' | tee -a "$REPORT"
rm -f "$OUT"/*map*.h5  # 10^6-case files are large; the logs and the report keep the figures
say "=== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"
