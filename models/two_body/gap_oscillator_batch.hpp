#pragma once
// Model A's cases stepped many at a time: on CPU threads, or on a GPU where the build has the CUDA
// back end (gap_oscillator_cuda_batch.cu). The kernel is the CPU simulation's system and period step.
#include <memory>

#include "engine/batch/case_batch.hpp"
#include "engine/core/case_budget.hpp"
#include "models/two_body/gap_oscillator_system.hpp"
#include "models/two_body/two_body_batch_kernel.hpp"

namespace vibro::two_body {

using GapOscillatorBatchKernel = TwoBodyBatchKernel<GapOscillatorSystem>;
static_assert(kGapCounterCount <= kBatchCounters && kMinContactForce < kBatchAux, "a sample must hold Model A's");

std::unique_ptr<CaseBatch> gap_oscillator_batch(BatchDevice device, const CaseLimits& limits);
// nullptr in a build without the CUDA back end (the runner refuses run.backend = cuda before that).
std::unique_ptr<CaseBatch> gap_oscillator_cuda_batch(const CaseLimits& limits);

}  // namespace vibro::two_body
