#pragma once
// The GPU batch of a model of the hybrid-model API: DescribedBatchKernel<N> compiled by nvcc for the
// state sizes below (described_cuda_batch.cu), made by the host for any such model, a plugin's too:
// the kernel runs the fields' tapes, so no model code needs a CUDA compiler.
#include <memory>
#include <string>

#include "engine/batch/case_batch.hpp"
#include "engine/core/case_budget.hpp"

namespace vibro {

// A model of the hybrid-model API as the host reaches it (Model::described_cases), a plugin's too:
// its state size, and the check that its fields can be traced. DescribedCases<N>
// (described_batch_kernel.hpp) adds how its cases are described.
class DescribedCasesBase {
 public:
  virtual ~DescribedCasesBase() = default;
  virtual int states() const = 0;
  // Throws InputError, naming `key` (the run.backend setting), the model and the mode, when a field
  // cannot be traced (the batched back ends run the tapes).
  virtual void require_traceable(const std::string& key) const = 0;
};

// State components of the instantiated kernels: 1 to this (each size is a kernel of its own).
inline constexpr int kMaxCudaDescribedStates = 8;

// The batch; nullptr in a build without the CUDA back end. Throws InputError for a model with more
// state components than kMaxCudaDescribedStates.
std::unique_ptr<CaseBatch> described_cuda_batch(const DescribedCasesBase& cases, const CaseLimits& limits);

}  // namespace vibro
