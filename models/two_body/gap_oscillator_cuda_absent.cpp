// A build without the CUDA back end: there is no GPU batch (run.backend = cuda is refused before any
// work, engine/batch/cuda_availability.cpp). With it, gap_oscillator_cuda_batch.cu defines the function.
#include "models/two_body/gap_oscillator_batch.hpp"

#ifndef VIBRO_HAVE_CUDA
namespace vibro::two_body {
std::unique_ptr<CaseBatch> gap_oscillator_cuda_batch(const CaseLimits& /*limits*/) { return nullptr; }
}  // namespace vibro::two_body
#endif
