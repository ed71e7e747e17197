# Finds the design card's packages (Debian 12 names in scripts/install_deps.sh) and bundles them
# into INTERFACE targets so that each library links one name per dependency.

find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(MPI REQUIRED COMPONENTS C CXX)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)

# HDF5 flavour trap: Debian installs the serial and the OpenMPI
# flavours side by side; CMake picks serial unless pointed at the parallel C++ wrapper, and a mix of
# the two fails to compile. Prefer the parallel one, fall back to serial when it is all there is.
set(HDF5_PREFER_PARALLEL TRUE)
find_program(HDF5_CXX_COMPILER_EXECUTABLE NAMES h5c++.openmpi h5c++)
# HL: the dimension scales (H5DS) that make a sweep file's grid visible to netCDF tools.
find_package(HDF5 REQUIRED COMPONENTS C CXX HL)

add_library(vibro_hdf5 INTERFACE)
target_include_directories(vibro_hdf5 SYSTEM INTERFACE ${HDF5_INCLUDE_DIRS})
target_link_libraries(vibro_hdf5 INTERFACE ${HDF5_CXX_LIBRARIES} ${HDF5_HL_LIBRARIES} ${HDF5_LIBRARIES})
target_compile_definitions(vibro_hdf5 INTERFACE ${HDF5_DEFINITIONS})
if(HDF5_IS_PARALLEL)
  # The parallel flavour's headers include mpi.h but its targets do not carry MPI's include path.
  target_link_libraries(vibro_hdf5 INTERFACE MPI::MPI_C)
endif()
message(STATUS "vibro: HDF5 ${HDF5_VERSION} parallel=${HDF5_IS_PARALLEL}")

# xxHash (libxxhash-dev), used header-only for the checkpoint logs' checksums (XXH_INLINE_ALL): no
# library to link or to carry to another machine.
find_path(VIBRO_XXHASH_INCLUDE_DIR xxhash.h)
if(NOT VIBRO_XXHASH_INCLUDE_DIR)
  message(FATAL_ERROR "xxhash.h not found: install libxxhash-dev (scripts/install_deps.sh does)")
endif()
add_library(vibro_xxhash INTERFACE)
target_include_directories(vibro_xxhash SYSTEM INTERFACE ${VIBRO_XXHASH_INCLUDE_DIR})
