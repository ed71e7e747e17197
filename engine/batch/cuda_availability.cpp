// A build without the CUDA back end; with it, engine/batch/cuda_device.cu defines this function.
#include "engine/batch/case_batch.hpp"

#ifndef VIBRO_HAVE_CUDA
namespace vibro {
bool cuda_backend_available(bool /*need_device*/, std::string& why) {
  why = "this build has no CUDA back end (configure with -DVIBRO_CUDA=ON where a CUDA compiler is found)";
  return false;
}
}  // namespace vibro
#endif
