// Model A's CPU batch (run.backend = batched) and its registration for the batched back ends.
#include "models/two_body/gap_oscillator_batch.hpp"

#include "engine/batch/batch_registry.hpp"
#include "engine/batch/cpu_batch.hpp"

namespace vibro::two_body {

std::unique_ptr<CaseBatch> gap_oscillator_batch(BatchDevice device, const CaseLimits& limits) {
  if (device == BatchDevice::Cuda) return gap_oscillator_cuda_batch(limits);
  return std::make_unique<CpuBatch<GapOscillatorBatchKernel>>(limits);
}

static RegisterBatch registration("gap_oscillator", gap_oscillator_batch);

}  // namespace vibro::two_body
