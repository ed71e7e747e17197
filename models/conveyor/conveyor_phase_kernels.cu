// The conveyor's phase kernels (conveyor_phase_kernels.hpp): the flight kernel, the rare kernel, the
// round's sort into their lists, and the states' moves between cases and columns. Compiled by nvcc
// with the CUDA back end; ptxas's figures for each in bench/README.md (scripts/gpu_ptxas_figures.sh).
#include <stdexcept>
#include <string>

#include "models/conveyor/conveyor_phase_kernels.hpp"

namespace vibro::conveyor {

namespace {

constexpr int kThreads = 128;
// Blocks of kThreads an SM the flight kernel is built for (cmake -DVIBRO_CUDA_FLIGHT_BLOCKS=): 8 holds
// it to 64 registers a thread (65536 / (8 * 128)); 1 leaves the count to ptxas. Launch bounds override
// the build's -maxrregcount for this kernel.
#if !defined(VIBRO_FLIGHT_BLOCKS_PER_SM)
#define VIBRO_FLIGHT_BLOCKS_PER_SM 8
#endif
constexpr int kFlightBlocksPerSM = VIBRO_FLIGHT_BLOCKS_PER_SM;

// The rare kernel's steps: the rare phases alone, a case going back to the flight kernel at its next
// lift-off (about 17 rounds an 8-period launch on the GPU check's map, bench/README.md), or, built with
// -DVIBRO_CUDA_RARE_ALL_STEPS=ON, all of them: a case that has left flight finishes its launch there
// (two rounds a launch, the rare kernel's warps divergent as the whole kernel's).
#if defined(VIBRO_CUDA_RARE_ALL_STEPS)
constexpr unsigned kRareKernelSteps = kAllSteps;
#else
constexpr unsigned kRareKernelSteps = kRareSteps;
#endif

__device__ ConveyorSample* sample_row(const ConveyorPhaseLaunch& l, int j, int i) {
  return l.samples + static_cast<std::size_t>(l.by_case ? i : j) * l.stride + l.offset;
}

// The live cases' states into the columns (launch's start) and back (its end).
__global__ void cases_to_columns(const __grid_constant__ ConveyorPhaseLaunch l) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < l.count) store_state(l.cols, static_cast<std::size_t>(j), l.cases[l.live[j]].state);
}
__global__ void columns_to_cases(const __grid_constant__ ConveyorPhaseLaunch l) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < l.count) load_state(l.cols, static_cast<std::size_t>(j), l.cases[l.live[j]].state);
}

// Appends live position j to the flight or the rare list when its case goes on.
__global__ void sort_by_phase(const __grid_constant__ ConveyorPhaseLaunch l) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= l.count) return;
  const KernelNext next = l.cols.next[j];
  if (l.taken[j] >= l.periods || next == KernelNext::Failed) return;
  const int list = in_flight(l.cols, static_cast<std::size_t>(j)) ? 0 : 1;
  l.lists[list * l.count + atomicAdd(&l.list_counts[list], 1)] = j;
}

template <unsigned kSteps>
__device__ void step_listed(const ConveyorPhaseLaunch& l, const int* __restrict__ list, int n) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int j = list[k];
  const int i = l.live[j];
  int taken = l.taken[j];
  step_case<kSteps>(l.cases[i].c, l.cases[i].start, l.cols, static_cast<std::size_t>(j), sample_row(l, j, i),
                    l.periods, l.unkept, taken);
  l.taken[j] = taken;
}

__global__ void __launch_bounds__(kThreads, kFlightBlocksPerSM) fly_cases(const __grid_constant__ ConveyorPhaseLaunch l) {
  step_listed<kFlightSteps>(l, l.lists, l.list_counts[0]);
}

// No launch bounds: the build's register cap (VIBRO_CUDA_MAXRREG) holds, as for the whole kernel.
__global__ void ride_cases(const __grid_constant__ ConveyorPhaseLaunch l) {
  step_listed<kRareKernelSteps>(l, l.lists + l.count, l.list_counts[1]);
}

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

}  // namespace

int step_conveyor_phases(const ConveyorPhaseLaunch& l, cudaStream_t stream) {
  if (l.count == 0) return 0;
  check(cudaMemsetAsync(l.taken, 0, static_cast<std::size_t>(l.count) * sizeof(int), stream), "clear the counts");
  cases_to_columns<<<blocks_for(l.count), kThreads, 0, stream>>>(l);
  check(cudaGetLastError(), "states to columns");
  int rounds = 0;
  while (true) {
    check(cudaMemsetAsync(l.list_counts, 0, 2 * sizeof(int), stream), "clear the lists");
    sort_by_phase<<<blocks_for(l.count), kThreads, 0, stream>>>(l);
    check(cudaGetLastError(), "sort launch");
    check(cudaMemcpyAsync(l.list_counts_host, l.list_counts, 2 * sizeof(int), cudaMemcpyDeviceToHost, stream),
          "copy the lists' sizes");
    check(cudaStreamSynchronize(stream), "wait for the sort");
    const int flying = l.list_counts_host[0], riding = l.list_counts_host[1];
    if (flying == 0 && riding == 0) break;
    ++rounds;
    if (flying > 0) fly_cases<<<blocks_for(flying), kThreads, 0, stream>>>(l);
    if (riding > 0) ride_cases<<<blocks_for(riding), kThreads, 0, stream>>>(l);
    check(cudaGetLastError(), "phase launch");
  }
  columns_to_cases<<<blocks_for(l.count), kThreads, 0, stream>>>(l);
  check(cudaGetLastError(), "columns to states");
  return rounds;
}

}  // namespace vibro::conveyor
