#pragma once
// CaseBatch::samples for a batch over a kernel (CpuBatch, CudaBatch): a case's kept samples, as the
// kernel stores them one after another in its row, converted by Kernel::to_strobe in one loop.
#include "engine/core/strobe_sample.hpp"

namespace vibro {

template <class Kernel>
void read_row(const typename Kernel::Case& c, const typename Kernel::Sample* row, int count, StrobeSample* out) {
  for (int k = 0; k < count; ++k) {
    if (k > 0) out[k] = out[k - 1];  // the fields to_strobe leaves keep the last sample's values
    Kernel::to_strobe(c, row[k], out[k]);
  }
}

}  // namespace vibro
