// The conveyor's GPU batch: ConveyorBatchKernel (the CPU path's ConveyorKernel) compiled by nvcc. In a
// build with -DVIBRO_CUDA_PHASE_KERNELS=ON its launches step the cases with the phase kernels
// (conveyor_phase_kernels.hpp: free flight and the rare phases in separate kernels, states in
// columns) instead of one thread a case through all of its steps; the same samples bit for bit.
#include <memory>

#include "engine/batch/cuda_batch.cuh"
#include "models/conveyor/conveyor_batch.hpp"
#if defined(VIBRO_CUDA_PHASE_KERNELS)
#include "models/conveyor/conveyor_phase_kernels.hpp"
#endif

namespace vibro::conveyor {

#if defined(VIBRO_CUDA_PHASE_KERNELS)
namespace {

class ConveyorPhaseBatch : public CudaBatch<ConveyorBatchKernel> {
 public:
  using CudaBatch::CudaBatch;

 private:
  // Blocks the host until the launch's last round is done (each round's lists are sized on the host).
  void step_live(Case* cases, const int* live, int count, int periods, int unkept, SampleRows<ConveyorSample> rows,
                 int* taken, cudaStream_t stream) override {
    const auto n = static_cast<std::size_t>(count);
    columns_.resize(columns_bytes(n));
    lists_.resize(2 * n);
    list_counts_.resize(2);
    list_counts_host_.resize(2);
    ConveyorPhaseLaunch launch{cases, live, count, periods, unkept, columns_in(columns_.data(), n), rows.samples,
                               rows.stride, rows.offset, rows.by_case, taken, lists_.data(), list_counts_.data(),
                               list_counts_host_.data()};
    step_conveyor_phases(launch, stream);
  }

  DeviceArray<unsigned char> columns_;  // cudaMalloc's 256-byte alignment is what columns_in asks for
  DeviceArray<int> lists_, list_counts_;
  PinnedArray<int> list_counts_host_;
};

}  // namespace

std::unique_ptr<CaseBatch> conveyor_cuda_batch(const CaseLimits& limits) {
  return std::make_unique<ConveyorPhaseBatch>(limits);
}
#else
std::unique_ptr<CaseBatch> conveyor_cuda_batch(const CaseLimits& limits) {
  return std::make_unique<CudaBatch<ConveyorBatchKernel>>(limits);
}
#endif

}  // namespace vibro::conveyor
