#pragma once
// CaseBatch::samples for a batch over a kernel (CpuBatch, CudaBatch): a case's kept samples, as the
// kernel stores them one after another in its row, converted by Kernel::to_strobe in one loop.
#include <cstring>
#include <type_traits>

#include "engine/batch/strobe_fill.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

// A kernel that states what its to_strobe writes: `static constexpr StrobeFill kStrobeFill`.
template <class Kernel, class = void>
struct StatesStrobeFill : std::false_type {};
template <class Kernel>
struct StatesStrobeFill<Kernel, std::void_t<decltype(Kernel::kStrobeFill)>> : std::true_type {};

// Gives to[filled, N) from's values, writing only where they differ.
template <class Array>
void keep_unfilled(Array& to, const Array& from, int filled) {
  const std::size_t first = static_cast<std::size_t>(filled), bytes = (to.size() - first) * sizeof(to[0]);
  if (bytes > 0 && std::memcmp(to.data() + first, from.data() + first, bytes) != 0)
    std::memcpy(to.data() + first, from.data() + first, bytes);
}

template <class Kernel>
void read_row(const typename Kernel::Case& c, const typename Kernel::Sample* row, int count, StrobeSample* out) {
  for (int k = 0; k < count; ++k) {
    // The fields to_strobe leaves keep the last sample's values.
    if constexpr (StatesStrobeFill<Kernel>::value) {
      // Those are out[0]'s all along the row: made so where they differ (a window read case after
      // case into the same memory mostly holds them already), where each sample's copy over the
      // next, 736 bytes, was the larger part of reading a fixed run's windows.
      if (k > 0) {
        constexpr StrobeFill fill = Kernel::kStrobeFill;
        keep_unfilled(out[k].state, out[0].state, fill.dims);
        keep_unfilled(out[k].counters, out[0].counters, fill.counters);
        keep_unfilled(out[k].aux, out[0].aux, fill.aux);
      }
    } else if (k > 0) {
      out[k] = out[k - 1];
    }
    Kernel::to_strobe(c, row[k], out[k]);
  }
}

}  // namespace vibro
