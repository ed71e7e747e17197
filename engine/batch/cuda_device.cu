// The CUDA back end's availability (a build with it; engine/batch/cuda_availability.cpp otherwise).
#include <cuda_runtime.h>

#include <cstdlib>

#include "engine/batch/case_batch.hpp"

namespace vibro {

namespace {
// One GPU per MPI rank on a node (mpirun -np G): the rank's index on its node, as Open MPI, MPICH
// and Slurm announce it; 0 when none does.
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}
}  // namespace

bool cuda_backend_available(bool need_device, std::string& why) {
  if (!need_device) return true;
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) {
    why = std::string("no usable GPU (") + cudaGetErrorString(status) + ")";
    return false;
  }
  if (devices == 0) {
    why = "no GPU on this machine";
    return false;
  }
  const cudaError_t chosen = cudaSetDevice(local_rank() % devices);
  if (chosen != cudaSuccess) {
    why = std::string("cannot select a GPU (") + cudaGetErrorString(chosen) + ")";
    return false;
  }
  // Creates the CUDA context now, before the sweep's clock starts (as the peers' timings exclude it).
  const cudaError_t context = cudaFree(nullptr);
  if (context != cudaSuccess) {
    why = std::string("cannot create a CUDA context (") + cudaGetErrorString(context) + ")";
    return false;
  }
  return true;
}

}  // namespace vibro
