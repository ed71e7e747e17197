#pragma once
// The root of a function proved to have exactly one sign change on [lo, hi] (g(lo) > 0 >= g(hi)),
// to a relative accuracy rtol; returns the bracket's upper end (on the far side of zero).
//
// TOMS 748 (engine/roots/toms748.hpp: Boost's algorithm, host-and-device), on the CPU and the GPU.
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/roots/toms748.hpp"

namespace vibro {

template <class Value>
VIBRO_HD double bracketed_root_far_side(Value& value, double lo, double hi, double f_lo, double f_hi,
                                        double rtol) {
  const double floor_abs = 1e-300;
  auto close_enough = [&](double a, double b) { return std::fabs(b - a) <= rtol * std::fabs(b) + floor_abs; };
  unsigned long long iterations = 100;
  return toms748_solve(value, lo, hi, f_lo, f_hi, close_enough, iterations).b;
}

}  // namespace vibro
