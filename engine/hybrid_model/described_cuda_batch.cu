// The GPU batch of the hybrid-model API's models: DescribedBatchKernel<N> (the CPU batch's kernel,
// the fields' tapes) compiled by nvcc, for N = 1 .. kMaxCudaDescribedStates.
#include <string>
#include <utility>

#include "engine/batch/cuda_batch.cuh"
#include "engine/core/input_error.hpp"
#include "engine/hybrid_model/described_batch_kernel.hpp"
#include "engine/hybrid_model/described_cuda_batch.hpp"

namespace vibro {

namespace {

template <int N>
std::unique_ptr<CaseBatch> batch_of(const DescribedCasesBase& cases, const CaseLimits& limits) {
  if constexpr (N > kMaxCudaDescribedStates) {
    throw InputError("run.backend = cuda runs models of the hybrid-model API with at most " +
                     std::to_string(kMaxCudaDescribedStates) + " state components; this one has " +
                     std::to_string(cases.states()) + "; accepted for it: cpu, batched");
  } else {
    if (cases.states() != N) return batch_of<N + 1>(cases, limits);
    const auto* typed = static_cast<const DescribedCases<N>*>(&cases);
    return std::make_unique<CudaBatch<DescribedBatchKernel<N>>>(limits, DescribedBatchKernel<N>(typed));
  }
}

}  // namespace

std::unique_ptr<CaseBatch> described_cuda_batch(const DescribedCasesBase& cases, const CaseLimits& limits) {
  return batch_of<1>(cases, limits);
}

}  // namespace vibro
