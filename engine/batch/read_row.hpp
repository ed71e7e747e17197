#pragma once
// CaseBatch::samples for a batch over a kernel (CpuBatch, CudaBatch): a case's kept samples, as the
// kernel stores them one after another in its row, converted by Kernel::to_strobe in one loop.
#include <cstdint>
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

// Whether to[filled, N) and from[filled, N) differ in any bit: an OR of XORs over the words, which the
// compiler unrolls and vectorizes for a bound known when compiling (three memcmp calls a sample cost
// about as much as the copy they spared).
template <int filled, class Array>
std::uint64_t differing_bits(const Array& to, const Array& from) {
  static_assert(sizeof(to[0]) == sizeof(std::uint64_t));
  std::uint64_t bits = 0;
  for (std::size_t i = filled; i < to.size(); ++i) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, &to[i], sizeof x);
    std::memcpy(&y, &from[i], sizeof y);
    bits |= x ^ y;
  }
  return bits;
}

template <int filled, class Array>
void copy_unfilled(Array& to, const Array& from) {
  std::memcpy(to.data() + filled, from.data() + filled, (to.size() - filled) * sizeof(to[0]));
}

template <class Kernel>
void read_row(const typename Kernel::Case& c, const typename Kernel::Sample* row, int count, StrobeSample* out) {
  for (int k = 0; k < count; ++k) {
    // The fields to_strobe leaves keep the last sample's values.
    if constexpr (StatesStrobeFill<Kernel>::value) {
      // Those are out[0]'s all along the row: made so where they differ (a window read case after
      // case into the same memory mostly holds them already), where each sample's copy over the
      // next, 736 bytes, was the larger part of reading a fixed run's windows.
      constexpr StrobeFill fill = Kernel::kStrobeFill;
      static_assert(fill.dims >= 0 && fill.dims <= kMaxStrobeDims && fill.counters >= 0 && fill.counters <= kMaxCounters &&
                    fill.aux >= 0 && fill.aux <= kMaxAux);
      if (k > 0 && (differing_bits<fill.dims>(out[k].state, out[0].state) |
                    differing_bits<fill.counters>(out[k].counters, out[0].counters) |
                    differing_bits<fill.aux>(out[k].aux, out[0].aux)) != 0) {
        copy_unfilled<fill.dims>(out[k].state, out[0].state);
        copy_unfilled<fill.counters>(out[k].counters, out[0].counters);
        copy_unfilled<fill.aux>(out[k].aux, out[0].aux);
      }
    } else if (k > 0) {
      out[k] = out[k - 1];
    }
    Kernel::to_strobe(c, row[k], out[k]);
  }
}

}  // namespace vibro
