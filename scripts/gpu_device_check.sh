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
#     run must match;
#  6. the gap oscillator (Model A: DOPRI5 steps, certified affine-guard events, resets),
#     examples/gap_oscillator_basin.ini refined to a 1000 x 1000 basin map over (x1_0, v1_0) on the
#     GPU; the cpu back end makes a 250 x 250 subsample of the same region (10^6 cases would take 16
#     CPU threads about 10 minutes, the subsample about 40 s), which the GPU makes too: class (basin)
#     fractions of the GPU's full map against the CPU's subsample (target: within 0.5 percentage
#     points; the subsample's sampling error, about 0.2 points, is printed with them) and case by
#     case on the common subsample;
#  7. a model of the hybrid-model API on the GPU (its fields as traced tapes): the declared Model A
#     (gap_oscillator_declared) on the same basin region, N_GAP_CPU^2 cases, cuda against cpu, case by
#     case and by class fractions (the batched back end equals cpu bit for bit in CI).
# Prints everything and writes it to $OUT/gpu_check.txt ($OUT default devrun/out); the steps' logs go
# to $WORK (default /tmp/vibro_gpu_check) and come back packed in $OUT/logs.tar.gz. PARTS picks the parts (default
# all): mpgos (3), conveyor_gpu (2), fma_timing, ncu, variants and group_sizes (2b-2e: not in the default), conveyor_cpu (4),
# conveyor_check (5), gap_small and gap_map (6), declared (7),
# so that a session's GPU time can be split over two runs; "conveyor" and "gap" name their groups.
# Every step has its own time limit and the report goes on after a failure. Run from the repository
# root; devrun/ is git-ignored and must travel with the run. PY is the Python with h5py, numpy and xarray
# (default python3; the compare scripts read the files through the package in python/, without its
# compiled part).
# A dry run of the CPU side on any machine: VIBRO=build/jobs/vibro CHECK=build/bench/gpu/conveyor_missed_impacts
# N_MAP=10 N_SMALL=5 N_GAP=8 N_GAP_CPU=4 THREADS=2 (the cuda steps then fail, refused, and the rest runs).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-devrun/out}
WORK=${WORK:-/tmp/vibro_gpu_check}  # outside $OUT: only a few files come back from a device run
PY=${PY:-python3}
MPGOS_DIR=${MPGOS_DIR:-devrun/peers/mpgos}
THREADS=${THREADS:-16}
mkdir -p "$OUT" "$WORK"
REPORT=$OUT/gpu_check.txt
: > "$REPORT"
say() { echo "$*" | tee -a "$REPORT"; }
# step LABEL TIMEOUT CMD...: runs CMD with its output in $OUT/LABEL.log, reports its wall time and last line.
step() {
  local label=$1 limit=$2
  shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > "$WORK/$label.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  say "[$label] rc=$rc process wall $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}') s"
  grep -E 'cases in|batched:|after the sweep|missed impacts' "$WORK/$label.log" | sed 's/^/    /' | tee -a "$REPORT"
  [ $rc -ne 0 ] && tail -5 "$WORK/$label.log" | sed 's/^/    /' | tee -a "$REPORT"
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
N_GAP=${N_GAP:-1000}         # the gap oscillator's GPU map: N_GAP x N_GAP cases
N_GAP_CPU=${N_GAP_CPU:-250}  # its CPU subsample (and the grid of the case-by-case comparison)
PARTS=" ${PARTS:-conveyor gap declared} "
PARTS=${PARTS// conveyor / conveyor_gpu mpgos conveyor_cpu conveyor_check }
PARTS=${PARTS// gap / gap_small gap_map }
want() { [[ "$PARTS" == *" $1 "* ]]; }
[ -x "$V" ] || { say "no vibro binary: stop"; exit 1; }
# A binary built elsewhere (scripts/gpu_prepare_devrun.sh) may still lack a library here: say which and
# stop before any device time goes to runs that cannot start.
missing=$(ldd "$V" 2> /dev/null | awk '/not found/ {print $1}' | tr '\n' ' ')
[ -z "$missing" ] || { say "$V cannot start here, missing: $missing(add them to devrun/lib): stop"; exit 1; }

# The map: the Fig. 6 study (model, parameters, drop start) on MPGOS's grid, N x N cases.
MAP=examples/conveyor_fig6.ini
grid() {  # N MODE: sets GRID to the overrides of an N x N grid, fixed 100 periods or adaptive (budget 100)
  GRID=("--axes.a_hat=linspace(30, 80, $1)" "--axes.z0=linspace(0.0001, 0.004, $1)" "--run.steady_state=$2"
        --run.max_periods=100 --run.window_periods=50 --output.strobe_points=none --output.overwrite=true)
}
run_map() {  # LABEL TIMEOUT BACKEND THREADS N MODE
  grid "$5" "$6"
  step "$1" "$2" "$V" run "$MAP" "${GRID[@]}" --output.file="$WORK/$1.h5" --run.backend="$3" --run.threads="$4" \
    --run.progress=never
}

if want conveyor_gpu; then
  # 2. GPU: a small warm-up run (also checks the back end works), then the 10^6 maps.
  run_map cuda_small 60 cuda "$THREADS" "$N_SMALL" fixed
  run_map cuda_map_fixed 150 cuda "$THREADS" "$N_MAP" fixed
  # The fixed map's groups in 8-period launches, as before one launch a group became the default for
  # groups whose windows stay on the GPU: which launch length is faster on a GPU.
  grid "$N_MAP" fixed
  step cuda_map_fixed_8_periods 150 "$V" run "$MAP" "${GRID[@]}" --run.batch_periods=8 \
    --output.file="$WORK/cuda_map_fixed_8_periods.h5" --run.backend=cuda --run.threads="$THREADS" --run.progress=never
  run_map cuda_map_adaptive 150 cuda "$THREADS" "$N_MAP" adaptive
fi

if want fma_timing && [ -x "${VIBRO_FMA:-}" ]; then
  # 2b. The same fixed map with a build whose kernels nvcc may contract into fused multiply-adds
  # (-DVIBRO_CUDA_FMAD=): what --fmad=false costs in speed.
  grid "$N_MAP" fixed
  step cuda_map_fixed_fma 150 "$VIBRO_FMA" run "$MAP" "${GRID[@]}" --output.file="$WORK/cuda_map_fixed_fma.h5" \
    --run.backend=cuda --run.threads="$THREADS" --run.progress=never
fi

if want variants; then
  # 2d. The same maps with other builds of the back end (VARIANTS="label:binary ...", e.g. builds with
  # -DVIBRO_CUDA_MAXRREG=96, -DVIBRO_CUDA_WARP_SYNC=ON, or a baseline commit's build from
  # scripts/gpu_prepare_devrun.sh), in VARIANT_MODES (default fixed), each against the default build run
  # just before it: alternating, so that both see the machine in the same state.
  for mode in ${VARIANT_MODES:-fixed}; do
    grid "$N_MAP" "$mode"
    for variant in ${VARIANTS:-}; do
      for build in "main:$V" "$variant"; do
        step "cuda_map_${mode}_${build%%:*}" 150 "${build#*:}" run "$MAP" "${GRID[@]}" ${VARIANT_ARGS:-} \
          --output.file="$WORK/cuda_map_${mode}_${build%%:*}.h5" --run.backend=cuda --run.threads="$THREADS" \
          --run.progress=never
      done
      say "${variant%%:*} vs main, $mode (every case the same bits unless the variant changes results):"
      "$PY" scripts/compare_backends.py "$WORK/cuda_map_${mode}_main.h5" "$WORK/cuda_map_${mode}_${variant%%:*}.h5" 2>&1 \
        | sed 's/^/    /' | tee -a "$REPORT"
    done
  done
fi

if want group_sizes; then
  # 2e. The same fixed and adaptive maps in other group sizes (run.batch_cases; default 131072, two
  # groups in flight): GROUP_SIZES="262144 1000000" by default. The max RSS shows the host's memory.
  for mode in fixed adaptive; do
    grid "$N_MAP" "$mode"
    for cases in ${GROUP_SIZES:-262144 1000000}; do
      step "cuda_map_${mode}_groups_$cases" 150 /usr/bin/time -f "max RSS %M KB" "$V" run "$MAP" "${GRID[@]}" \
        --output.file="$WORK/cuda_map_${mode}_groups_$cases.h5" --run.backend=cuda --run.batch_cases="$cases" \
        --run.threads="$THREADS" --run.progress=never
      grep -h "max RSS" "$WORK/cuda_map_${mode}_groups_$cases.log" | sed 's/^/    /' | tee -a "$REPORT"
    done
  done
fi

if want ncu && command -v ncu > /dev/null; then
  # 2c. Nsight Compute on the first launch of a map of one full group (362 x 362 = 131,044 cases: the
  # 10^6 map's launches are of this size): occupancy, registers, local memory, divergence, stalls.
  # NCU_VIBRO and NCU_KERNEL profile another build's kernels, e.g. a phase-kernel build's
  # NCU_KERNEL="fly_cases|ride_cases" (NCU_LAUNCHES of them, default 1).
  grid "${N_NCU:-362}" fixed
  step ncu 90 ncu --kernel-name "regex:${NCU_KERNEL:-advance_cases}" --launch-count "${NCU_LAUNCHES:-1}" \
    --section SpeedOfLight --section Occupancy \
    --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --section SourceCounters \
    --section ComputeWorkloadAnalysis "${NCU_VIBRO:-$V}" run "$MAP" "${GRID[@]}" \
    --output.file="$WORK/ncu.h5" --run.backend=cuda --run.threads="$THREADS" --run.progress=never
  grep -E 'Registers Per|Achieved Occupancy|Theoretical Occupancy|Duration|Local Memory|Compute \(SM\) Throughput|Memory Throughput|Block Limit|Branch Efficiency|Divergent|Warp Cycles Per|Stall|Executed Ipc|Avg. Active Threads' \
    "$WORK/ncu.log" | sed 's/^/    /' | tee -a "$REPORT"
fi

if want mpgos; then
  # 3. MPGOS on the same map, in the same session.
  if [ -f "$MPGOS_DIR/run_device.sh" ] && [ -d "$MPGOS_DIR/src/SourceCodes" ]; then
    mkdir -p "$OUT/mpgos"
    step mpgos 150 env OUT="$(cd "$OUT/mpgos" && pwd)" bash "$MPGOS_DIR/run_device.sh"
    grep -E 'config=|tight|loose' "$WORK/mpgos.log" | head -20 | sed 's/^/    /' | tee -a "$REPORT"
  else
    say "[mpgos] skipped: no $MPGOS_DIR/run_device.sh with MPGOS's tree at src/"
  fi
fi

if want conveyor_cpu; then
  # 4. The same map on CPU threads, and agreement of cuda with cpu.
  run_map cpu_map_fixed 200 cpu "$THREADS" "$N_MAP" fixed
  run_map cpu_map_adaptive 150 cpu "$THREADS" "$N_MAP" adaptive
  for mode in fixed adaptive; do
    say "cuda vs cpu, $mode:"
    "$PY" scripts/compare_backends.py "$WORK/cpu_map_$mode.h5" "$WORK/cuda_map_$mode.h5" 2>&1 | sed 's/^/    /' | tee -a "$REPORT"
  done
fi

if want conveyor_check; then
  # 5. 10^4 cases: one CPU thread, the brute-force missed-impact check, and cuda's impact counts against it.
  run_map cpu_small_1thread 120 cpu 1 "$N_SMALL" fixed
  grid "$N_SMALL" fixed
  step missed_impacts 120 "$CHECK" "$MAP" 100 "$WORK/missed_impacts.csv" "${GRID[@]}"
  say "cuda vs cpu (1 thread), $N_SMALL x $N_SMALL subgrid:"
  "$PY" scripts/compare_backends.py "$WORK/cpu_small_1thread.h5" "$WORK/cuda_small.h5" 2>&1 | sed 's/^/    /' | tee -a "$REPORT"
fi

# 6. The gap oscillator's basin map: GPU full map, GPU and CPU subsample, fractions and cases compared.
GAP=examples/gap_oscillator_basin.ini
gap_map() {  # LABEL TIMEOUT BACKEND THREADS N
  step "$1" "$2" "$V" run "$GAP" "--axes.x1_0=linspace(-0.06, 0.04, $5)" "--axes.v1_0=linspace(-0.5, 0.5, $5)" \
    --output.strobe_points=none --output.overwrite=true --output.file="$WORK/$1.h5" --run.backend="$3" \
    --run.threads="$4" --run.progress=never
}
if want gap_small; then
  gap_map gap_cuda_small 90 cuda "$THREADS" "$N_GAP_CPU"
  gap_map gap_cpu_small 150 cpu "$THREADS" "$N_GAP_CPU"
  say "gap oscillator: cuda vs cpu on the same ${N_GAP_CPU}^2 grid:"
  "$PY" scripts/compare_class_fractions.py "$WORK/gap_cpu_small.h5" "$WORK/gap_cuda_small.h5" 0.005 2>&1 \
    | sed 's/^/    /' | tee -a "$REPORT"
  "$PY" scripts/compare_backends.py "$WORK/gap_cpu_small.h5" "$WORK/gap_cuda_small.h5" 2>&1 \
    | sed 's/^/    /' | tee -a "$REPORT"
fi
if want gap_map; then
  gap_map gap_cuda_map 240 cuda "$THREADS" "$N_GAP"
  if [ -f "$WORK/gap_cpu_small.h5" ]; then
    say "gap oscillator: class fractions, cpu ${N_GAP_CPU}^2 subsample vs cuda ${N_GAP}^2 map (target 0.5 %):"
    "$PY" scripts/compare_class_fractions.py "$WORK/gap_cpu_small.h5" "$WORK/gap_cuda_map.h5" 0.005 2>&1 \
      | sed 's/^/    /' | tee -a "$REPORT"
  else
    "$PY" scripts/compare_class_fractions.py "$WORK/gap_cuda_map.h5" "$WORK/gap_cuda_map.h5" 0.005 2>&1 \
      | sed 's/^/    /' | tee -a "$REPORT"  # the map's own fractions (no CPU subsample in this run)
  fi
fi
if want declared; then
  # 7. The hybrid-model API on the GPU: the declared Model A's tapes, cuda vs cpu on the same grid.
  DECLARED=$WORK/declared_basin.ini
  sed -e 's/^model = gap_oscillator$/model = gap_oscillator_declared/' -e '/^law = /d' "$GAP" > "$DECLARED"
  for backend in cuda cpu; do
    step "declared_$backend" 150 "$V" run "$DECLARED" "--axes.x1_0=linspace(-0.06, 0.04, $N_GAP_CPU)" \
      "--axes.v1_0=linspace(-0.5, 0.5, $N_GAP_CPU)" --output.strobe_points=none --output.overwrite=true \
      --output.file="$WORK/declared_$backend.h5" --run.backend="$backend" --run.threads="$THREADS" --run.progress=never
  done
  say "declared Model A (hybrid-model API, traced fields): cuda vs cpu on the same ${N_GAP_CPU}^2 grid:"
  "$PY" scripts/compare_class_fractions.py "$WORK/declared_cpu.h5" "$WORK/declared_cuda.h5" 0.005 2>&1 \
    | sed 's/^/    /' | tee -a "$REPORT"
  "$PY" scripts/compare_backends.py "$WORK/declared_cpu.h5" "$WORK/declared_cuda.h5" 2>&1 \
    | sed 's/^/    /' | tee -a "$REPORT"
fi
rm -f "$WORK"/*map*.h5  # 10^6-case files are large; the logs and the report keep the figures
tar czf "$(cd "$OUT" && pwd)/logs.tar.gz" -C "$WORK" --exclude="*.h5" . 2>/dev/null || say "could not pack the logs"
say "=== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"
