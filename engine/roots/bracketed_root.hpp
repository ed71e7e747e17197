#pragma once
// The root of a function proved to have exactly one sign change on [lo, hi] (g(lo) > 0 >= g(hi)),
// to a relative accuracy rtol; returns the bracket's upper end (on the far side of zero).
//
// On the CPU this is Boost's TOMS 748 (Alefeld, Potra and Shi, "Algorithm 748: enclosing zeros of
// continuous functions", ACM Trans. Math. Software, 1995), which the CPU results are made with.
// Boost's solver is host-only, so device code brackets with the Illinois variant of regula falsi
// (Dowell and Jarratt, BIT 11, 1971) to the same tolerance: the root is the same to rtol, the last
// bits may differ.
#include <cmath>
#include <cstdint>

#include "engine/core/host_device.hpp"
#if !VIBRO_DEVICE_PASS
#include <boost/math/tools/toms748_solve.hpp>
#endif

namespace vibro {

template <class Value>
VIBRO_HD double bracketed_root_far_side(Value& value, double lo, double hi, double f_lo, double f_hi,
                                        double rtol) {
  const double floor_abs = 1e-300;
  auto close_enough = [&](double a, double b) { return std::fabs(b - a) <= rtol * std::fabs(b) + floor_abs; };
#if !VIBRO_DEVICE_PASS
  std::uintmax_t iterations = 100;
  return boost::math::tools::toms748_solve(value, lo, hi, f_lo, f_hi, close_enough, iterations).second;
#else
  int side = 0;  // which end stayed twice in a row (its value is halved: Illinois)
  for (int i = 0; i < 100 && !close_enough(lo, hi); ++i) {
    double x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    const double fx = value(x);
    if (fx == 0) return x;
    if (fx > 0) {
      lo = x;
      f_lo = fx;
      if (side == -1) f_hi *= 0.5;
      side = -1;
    } else {
      hi = x;
      f_hi = fx;
      if (side == 1) f_lo *= 0.5;
      side = 1;
    }
  }
  return hi;
#endif
}

}  // namespace vibro
