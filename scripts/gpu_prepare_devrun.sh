#!/usr/bin/env bash
# Prepares devrun/ (git-ignored) for scripts/gpu_device_check.sh on a GPU machine that lacks some of
# vibro's libraries (the one lent to this project: Ubuntu 24.04 with nvcc, but no Boost.Program_options,
# only serial HDF5, no libcurl's dependencies): builds the CUDA back end here (nvcc at
# /usr/local/cuda, or NVCC), and copies into devrun/
#   bin/vibro, bin/conveyor_missed_impacts   this tree's build (build-cuda/);
#   bin/vibro_<label>                        one build per VARIANTS entry "label:cmake-args" (commas
#                                            between args), e.g. "warpsync:-DVIBRO_CUDA_WARP_SYNC=ON";
#                                            by default the conveyor's phase kernels: the flight
#                                            kernel at 64 registers (phase64, and phase64r with the
#                                            rare kernel uncapped), at 128 (phase128) and uncapped
#                                            (phasefree), and with the cases that leave flight
#                                            finishing their launch in the rare kernel (phasesticky);
#                                            cmake/VibroCuda.cmake; VARIANTS="" builds none;
#   bin/vibro_baseline                       BASELINE=<commit>: that commit built in a worktree, for
#                                            A/B timings on the same machine;
#   lib/                                     the shared libraries the device machine was found to lack
#                                            (LD_LIBRARY_PATH=devrun/lib there);
#   peers/mpgos                              MPGOS_BENCH (the MPGOS bouncing-ball benchmark's folder:
#                                            run_device.sh and its drivers, bench/README.md) with
#                                            MPGOS's tree at src/ (MPGOS_SRC: a folder holding
#                                            SourceCodes/); skipped unless both are given; its exact
#                                            loop bb_limit.cu (MPGOS_EXACT) goes beside it.
#   run.sh                                   the device run in one go: unpacks the binaries and runs
#                                            scripts/gpu_device_check.sh with PARTS (default
#                                            "conveyor_gpu variants mpgos conveyor_check"): this tree's
#                                            build on the 10^6 map, each variant (and the baseline)
#                                            against it, fixed and adaptive, alternating, its results
#                                            compared case by case, MPGOS in the same session, and the
#                                            missed-impact check.
# The binaries travel packed (devrun/bin.tar.xz, about 3.3 MB each instead of 11.5: their GPU code is
# most of them), because devrun/ must stay under 64 MiB. Then, on the device: `bash devrun/run.sh`
# (gpu_device_check.sh stops at once, naming them, if a library is still missing there).
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p devrun/bin devrun/lib

configure_and_build() {  # SOURCE BUILD_DIR TARGETS EXTRA_CMAKE_ARGS...
  local source=$1 dir=$2 targets=$3
  shift 3
  local launcher=()
  command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  mkdir -p "$dir"
  cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVIBRO_CUDA=ON -DCMAKE_CUDA_COMPILER="$NVCC" \
    -DVIBRO_BUILD_TESTS=OFF -DVIBRO_BUILD_BENCH=ON "${launcher[@]}" "$@" > "$dir/configure-output.log" 2>&1 ||
    { cat "$dir/configure-output.log"; exit 1; }
  # shellcheck disable=SC2086
  cmake --build "$dir" --target $targets
}

configure_and_build . build-cuda "vibro conveyor_missed_impacts"
cp build-cuda/jobs/vibro build-cuda/bench/gpu/conveyor_missed_impacts devrun/bin/

# (the flight kernel's registers are its launch bounds', VIBRO_CUDA_FLIGHT_BLOCKS; the build's register
# cap VIBRO_CUDA_MAXRREG, 64 by default, holds for the rare phases' kernel: lifted in all but phase64)
phase=-DVIBRO_CUDA_PHASE_KERNELS=ON
VARIANTS=${VARIANTS-"phase64:$phase phase64r:$phase,-DVIBRO_CUDA_MAXRREG= phase128:$phase,-DVIBRO_CUDA_FLIGHT_BLOCKS=4,-DVIBRO_CUDA_MAXRREG= phasefree:$phase,-DVIBRO_CUDA_FLIGHT_BLOCKS=1,-DVIBRO_CUDA_MAXRREG= phasesticky:$phase,-DVIBRO_CUDA_RARE_ALL_STEPS=ON"}
device_variants=""
for variant in $VARIANTS; do
  label=${variant%%:*}
  IFS=',' read -r -a args <<< "${variant#*:}"
  configure_and_build . "build-cuda-$label" vibro "${args[@]}"
  cp "build-cuda-$label/jobs/vibro" "devrun/bin/vibro_$label"
  device_variants+="$label:devrun/bin/vibro_$label "
done

if [ -n "${BASELINE:-}" ]; then
  tree=/tmp/vibro_baseline_$BASELINE
  [ -d "$tree" ] || git worktree add -q "$tree" "$BASELINE"
  configure_and_build "$tree" "$tree/build-cuda" vibro
  cp "$tree/build-cuda/jobs/vibro" devrun/bin/vibro_baseline
  device_variants+="baseline:devrun/bin/vibro_baseline "
fi

# What the device machine lacked (found by ldd there, 2026-11-28): copied from this machine's builds.
for lib in libcudart.so.13 libhdf5_openmpi_cpp.so.103 libhdf5_openmpi.so.103 libhdf5_serial_cpp.so.103 \
  libhdf5_serial.so.103 libboost_program_options.so.1.74.0 libmpi_cxx.so.40 libsz.so.2 libaec.so.0 libcurl.so.4 \
  libnghttp2.so.14 librtmp.so.1 libssh2.so.1 libpsl.so.5 libldap-2.5.so.0 liblber-2.5.so.0 libunistring.so.2; do
  path=$(ldd devrun/bin/vibro | awk -v l="$lib" '$1 == l {print $3}')
  [ -n "$path" ] && cp -L "$path" devrun/lib/
done

if [ -n "${MPGOS_BENCH:-}" ] && [ -n "${MPGOS_SRC:-}" ]; then
  rm -rf devrun/peers/mpgos
  mkdir -p devrun/peers
  cp -r "$MPGOS_BENCH" devrun/peers/mpgos
  chmod -R u+w devrun/peers/mpgos
  [ -z "${MPGOS_EXACT:-}" ] || cp "$MPGOS_EXACT" devrun/peers/
  mkdir -p devrun/peers/mpgos/src
  cp -r "$MPGOS_SRC/SourceCodes" devrun/peers/mpgos/src/
  rm -rf devrun/peers/mpgos/build  # built there
fi
cat > devrun/run.sh << EOF
#!/usr/bin/env bash
# The prepared GPU run (scripts/gpu_prepare_devrun.sh, $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD)):
# from the repository root on the GPU machine, bash devrun/run.sh; the report in devrun/out/gpu_check.txt.
set -uo pipefail
cd "\$(dirname "\$0")/.."
tar -xJf devrun/bin.tar.xz -C devrun
export LD_LIBRARY_PATH=\$PWD/devrun/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
VIBRO=devrun/bin/vibro CHECK=devrun/bin/conveyor_missed_impacts VARIANTS="${device_variants% }" \\
  VARIANT_MODES="\${VARIANT_MODES:-fixed adaptive}" PARTS="\${PARTS:-conveyor_gpu variants mpgos conveyor_check}" \\
  bash scripts/gpu_device_check.sh
EOF
XZ_OPT=-T0 tar -cJf devrun/bin.tar.xz -C devrun bin
rm -rf devrun/bin
du -sh devrun
