// Model A's GPU batch: GapOscillatorBatchKernel (the CPU path's system, integrator and period step)
// compiled by nvcc.
#include <memory>

#include "engine/batch/cuda_batch.cuh"
#include "models/two_body/gap_oscillator_batch.hpp"

namespace vibro::two_body {

std::unique_ptr<CaseBatch> gap_oscillator_cuda_batch(const CaseLimits& limits) {
  return std::make_unique<CudaBatch<GapOscillatorBatchKernel>>(limits);
}

}  // namespace vibro::two_body
