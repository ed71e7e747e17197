// The conveyor's GPU batch: ConveyorBatchKernel (the CPU path's ConveyorKernel) compiled by nvcc.
#include <memory>

#include "engine/batch/cuda_batch.cuh"
#include "models/conveyor/conveyor_batch.hpp"

namespace vibro::conveyor {

std::unique_ptr<CaseBatch> conveyor_cuda_batch(const CaseLimits& limits) {
  return std::make_unique<CudaBatch<ConveyorBatchKernel>>(limits);
}

}  // namespace vibro::conveyor
