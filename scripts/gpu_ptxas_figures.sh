#!/usr/bin/env bash
# ptxas's figures for the conveyor's CUDA kernels (no GPU needed: nvcc and ptxas only), as in
# bench/README.md: registers a thread, stack frame, spill stores and loads, and whether the PTX keeps
# any state in local memory (.local), for the whole kernel (advance_cases, conveyor_cuda_batch.cu) and
# the phase kernels (fly_cases, ride_cases, sort_by_phase, the states' moves; conveyor_phase_kernels.cu),
# each in the builds cmake makes: the default register cap of 64 (VIBRO_CUDA_MAXRREG), none, the flight
# kernel at 128 (VIBRO_CUDA_FLIGHT_BLOCKS=4), the rare kernel on all steps (VIBRO_CUDA_RARE_ALL_STEPS),
# and -DVIBRO_CUDA_OUTLINE=ON. Flags as
# cmake/VibroCuda.cmake gives them (--fmad=false, sm_90; the register cap to nvcc and ptxas, for the
# phase kernels to ptxas alone).
#   bash scripts/gpu_ptxas_figures.sh              the table (a few minutes: ptxas of the whole kernel)
#   bash scripts/gpu_ptxas_figures.sh --check      the flight kernel alone (fly_cases) at the default cap:
#                                                  exit 1 unless its PTX keeps no state in local memory, it
#                                                  takes at most 64 registers, and neither it nor a function
#                                                  it calls spills (exit 77 without nvcc)
# NVCC names nvcc (default: on PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "no nvcc (NVCC=$NVCC): ptxas's figures need the CUDA toolkit; skipped"
  exit 77
fi
PTXAS=$(dirname "$NVCC")/ptxas
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -O3 -DNDEBUG -arch=sm_90 --expt-relaxed-constexpr -diag-suppress=20012 --fmad=false -I.)

# ptx FILE.cu OUT.ptx EXTRA...: the device code's PTX (nvcc 13's warning "Too big maxrregcount value
# specified", which it prints when it makes PTX with a cap, left out).
ptx() {
  "$NVCC" "${flags[@]}" "${@:3}" -ptx "$1" -o "$2" 2>&1 | { grep -v "Too big maxrregcount value" || true; } >&2
}

# front_cap SOURCE CAP: nvcc's own -maxrregcount for SOURCE as cmake gives it (none for the phase
# kernels, whose cap goes to ptxas alone: see cmake/VibroCuda.cmake).
front_cap() { [ "$1" = conveyor_phase_kernels ] || echo "-maxrregcount=$2"; }

# local_state PTX NAME: "yes" when the kernel NAME declares or touches local memory in the PTX (its
# state in a per-thread frame), else "no"; "-" for a function it calls out of line.
local_state() {
  grep -q "\.entry $2(" "$1" || { echo "-"; return; }
  awk -v name="$2" '$0 ~ "\\.entry " name "\\(" {on = 1} on && /\.local/ {found = 1} on && /^}/ {on = 0}
    END {print found ? "yes" : "no"}' "$1"
}

# short NAME: the kernel's or function's name without its C++ mangling.
short() {
  local key
  for key in advance_cases fly_cases ride_cases sort_by_phase cases_to_columns columns_to_cases gather_cases scatter_cases \
    reduce_huge 6sincos 3sin 3cos 3fly 4ride; do
    [[ $1 == *"$key"* ]] && { echo "${key##[0-9]}"; return; }
  done
  echo "$1"
}

# figures PTX LABEL PTXAS_ARGS...: one table row a kernel (and a function called out of line).
figures() {
  local ptx_file=$1 label=$2 name stack stores loads regs
  shift 2
  "$PTXAS" -arch=sm_90 -v "$@" "$ptx_file" -o /dev/null 2>&1 | awk '
    /Function properties for/ { if (name != "") print name, stack, stores, loads, regs; name = $NF; regs = "(called)" }
    /bytes stack frame/ { stack = $1; stores = $5; loads = $9 }
    /Used [0-9]+ registers/ { for (k = 1; k <= NF; ++k) if ($k == "Used") regs = $(k + 1) }
    END { if (name != "") print name, stack, stores, loads, regs }' |
    while read -r name stack stores loads regs; do
      case $(short "$name") in gather_cases | scatter_cases) continue ;; esac
      echo "| $label | $(short "$name") | $regs | $stack | $stores / $loads | $(local_state "$ptx_file" "$name") |"
    done
}

if [ "${1:-}" = "--check" ]; then
  # ENTRY=advance_cases SOURCE=conveyor_cuda_batch checks the whole kernel instead (it fails).
  source_file=models/conveyor/${SOURCE:-conveyor_phase_kernels}.cu
  ptx "$source_file" "$work/check.ptx" -DVIBRO_FLIGHT_BLOCKS_PER_SM=8 $(front_cap "${SOURCE:-conveyor_phase_kernels}" 64)
  entry=$(grep -o "\.entry [A-Za-z0-9_]*${ENTRY:-fly_cases}[A-Za-z0-9_]*" "$work/check.ptx" | head -1 | cut -d' ' -f2)
  [ -n "$entry" ] || { echo "no kernel ${ENTRY:-fly_cases} in $source_file"; exit 1; }
  echo "| build | kernel | registers | stack frame B | spill stores / loads B | .local in PTX |"
  # The kernel's row, then one for each function it calls out of line (ptxas compiles them for it).
  figures "$work/check.ptx" check --entry "$entry" --maxrregcount 64 > "$work/rows"
  cat "$work/rows"
  failed=0
  while IFS='|' read -r _ _ name regs _ spills local _; do
    name=$(echo $name) regs=$(echo $regs) spills=$(echo $spills) local=$(echo $local)
    if [ "$spills" != "0 / 0" ]; then echo "$name spills $spills B (asked: none)"; failed=1; fi
    [ "$regs" = "(called)" ] && continue
    if [ "$local" != no ]; then echo "$name keeps state in local memory (asked: none)"; failed=1; fi
    if [ "$regs" -gt 64 ]; then echo "$name takes $regs registers (asked: at most 64)"; failed=1; fi
  done < "$work/rows"
  [ -s "$work/rows" ] || { echo "ptxas gave no figures for $entry"; failed=1; }
  if [ $failed = 0 ]; then
    echo "${ENTRY:-fly_cases}: at most 64 registers, no spills (its callees' included), no state in local memory"
  fi
  exit $failed
fi

echo "nvcc: $("$NVCC" --version | grep -m1 release)"
echo "| build | kernel | registers | stack frame B | spill stores / loads B | .local in PTX |"
echo "|---|---|---|---|---|---|"
# label|nvcc arguments|sources (conveyor_cuda_batch: the whole kernel; conveyor_phase_kernels: the phase
# kernels, whose flight kernel's registers its launch bounds set: VIBRO_FLIGHT_BLOCKS_PER_SM).
for variant in "cap 64 (default)|-maxrregcount=64|conveyor_cuda_batch conveyor_phase_kernels" \
  "uncapped|-DVIBRO_FLIGHT_BLOCKS_PER_SM=1|conveyor_cuda_batch conveyor_phase_kernels" \
  "flight 128, cap 64|-maxrregcount=64 -DVIBRO_FLIGHT_BLOCKS_PER_SM=4|conveyor_phase_kernels" \
  "VIBRO_CUDA_RARE_ALL_STEPS, cap 64|-maxrregcount=64 -DVIBRO_CUDA_RARE_ALL_STEPS|conveyor_phase_kernels" \
  "VIBRO_CUDA_OUTLINE, cap 64|-maxrregcount=64 -DVIBRO_CUDA_OUTLINE|conveyor_cuda_batch" \
  "VIBRO_CUDA_OUTLINE, uncapped|-DVIBRO_CUDA_OUTLINE|conveyor_cuda_batch"; do
  IFS='|' read -r label arguments sources <<< "$variant"
  defines=() caps=()
  for a in $arguments; do
    if [[ $a == -D* ]]; then defines+=("$a"); else caps+=(--maxrregcount "${a#-maxrregcount=}"); fi
  done
  for source in $sources; do
    [ -f "models/conveyor/$source.cu" ] || continue  # a tree from before the phase kernels
    front=()
    [ ${#caps[@]} = 0 ] || front=($(front_cap "$source" "${caps[1]}"))
    ptx "models/conveyor/$source.cu" "$work/$source.ptx" "${defines[@]}" "${front[@]}"
    figures "$work/$source.ptx" "$label" "${caps[@]}"
  done
done
