// A build without the CUDA back end: no GPU batch (run.backend = cuda is refused before any work,
// engine/batch/cuda_availability.cpp). With it, described_cuda_batch.cu defines the function.
#include "engine/hybrid_model/described_cuda_batch.hpp"

#ifndef VIBRO_HAVE_CUDA
namespace vibro {
std::unique_ptr<CaseBatch> described_cuda_batch(const DescribedCasesBase& /*cases*/, const CaseLimits& /*limits*/) {
  return nullptr;
}
}  // namespace vibro
#endif
