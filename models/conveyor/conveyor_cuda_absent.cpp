// A build without the CUDA back end: there is no GPU batch (run.backend = cuda is refused before any
// work, engine/batch/cuda_availability.cpp). With it, conveyor_cuda_batch.cu defines the function.
#include "models/conveyor/conveyor_batch.hpp"

#ifndef VIBRO_HAVE_CUDA
namespace vibro::conveyor {
std::unique_ptr<CaseBatch> conveyor_cuda_batch(const CaseLimits& /*limits*/) { return nullptr; }
}  // namespace vibro::conveyor
#endif
