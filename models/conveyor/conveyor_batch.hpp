#pragma once
// The conveyor's cases stepped many at a time: on CPU threads, or on a GPU where the build has the
// CUDA back end (conveyor_cuda_batch.cu).
#include <memory>

#include "engine/batch/case_batch.hpp"
#include "engine/core/case_budget.hpp"
#include "models/conveyor/conveyor_batch_kernel.hpp"

namespace vibro::conveyor {

std::unique_ptr<CaseBatch> conveyor_batch(BatchDevice device, const CaseLimits& limits);
// nullptr in a build without the CUDA back end (the runner refuses run.backend = cuda before that).
std::unique_ptr<CaseBatch> conveyor_cuda_batch(const CaseLimits& limits);

}  // namespace vibro::conveyor
