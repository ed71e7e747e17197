#pragma once
// Bit-for-bit comparisons of values and stroboscopic samples, for tests that check a path gives
// exactly what another gives (a -0.0 or a NaN payload counts).
#include <cstring>

#include "engine/core/strobe_sample.hpp"

namespace vibro::testing {

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Field by field (a sample's padding bytes are not part of it).
inline bool same_sample(const StrobeSample& a, const StrobeSample& b) {
  return same_bits(a.time, b.time) && a.period == b.period && a.mode == b.mode &&
         same_bits(a.drift_position, b.drift_position) && same_bits(a.state, b.state) && a.counters == b.counters &&
         same_bits(a.aux, b.aux);
}

}  // namespace vibro::testing
