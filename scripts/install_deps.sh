#!/usr/bin/env bash
# Installs the Debian 12 packages vibro needs (idempotent; as root or with sudo).
#   scripts/install_deps.sh          build + run + plotting stack + the Python package (pybind11, xarray)
#   scripts/install_deps.sh --tests  also a local Slurm (slurm-wlm, munge) for the `vibro submit` test, pytest,
#                                    netCDF's tools (the grid-view test) and the wheel test's build front end
#   scripts/install_deps.sh --peers  also the peers the benchmarks compare against
set -euo pipefail
packages=(g++ cmake ninja-build make git
          libhdf5-openmpi-dev libopenmpi-dev openmpi-bin libeigen3-dev
          libboost-program-options-dev libboost-dev catch2 libxxhash-dev
          hdf5-tools python3 python3-h5py python3-matplotlib python3-numpy
          python3-dev pybind11-dev python3-pybind11 python3-xarray)  # the Python package (python/)
for option in "$@"; do
  case "$option" in
    --tests) packages+=(slurm-wlm munge python3-pytest  # a single-node Slurm the submit test starts and stops; pytest for tests/python
                        python3-h5netcdf netcdf-bin        # xarray's h5netcdf engine and ncdump read the sweep file's grid
                        python3-build python3-venv python3-wheel python3-setuptools  # the wheel test (pyproject.toml)
                        ccache) ;;  # the wheel test's CMake build reuses the main build's objects
    --peers) packages+=(libsundials-dev python3-scipy python3-siconos) ;;
    *) echo "install_deps: unknown option '$option'; expected --tests or --peers" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install_deps: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
echo "install_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
