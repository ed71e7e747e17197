#pragma once
// The first downward zero crossing in (0, 1] of a smooth scalar function f(theta) that is not a
// polynomial in the state (a contact force or a friction margin evaluated on the dense output of
// an accelerated step): sampled on a uniform grid (a function that dips below zero and back within
// one sample spacing is missed: choose the spacing against the step size), then bracketed by the
// Illinois variant of regula falsi to `resolution`. A value <= 0 at theta = 0 is not a crossing.
#include <cmath>

namespace vibro {

struct SampledRoot {
  bool found = false;
  double theta = 1;
};

template <class F>
SampledRoot sampled_first_root(F&& f, double f0, int samples, double resolution = 1e-13) {
  double lo = 0, f_lo = f0;
  for (int k = 1; k <= samples; ++k) {
    const double hi = static_cast<double>(k) / samples;
    double f_hi = f(hi);
    if (f_lo > 0 && f_hi <= 0) {
      double a = lo, fa = f_lo, b = hi, fb = f_hi;
      int side = 0;
      for (int iteration = 0; iteration < 200 && b - a > resolution; ++iteration) {
        const double c = (fa * b - fb * a) / (fa - fb);
        const double fc = f(c);
        if (fc > 0) {
          a = c, fa = fc;
          if (side == +1) fb *= 0.5;
          side = +1;
        } else {
          b = c, fb = fc;
          if (side == -1) fa *= 0.5;
          side = -1;
        }
        if (fc == 0) break;
      }
      return {true, b};  // the end on or past the crossing: the event state has f <= 0 (to rounding)
    }
    lo = hi;
    f_lo = f_hi;
  }
  return {};
}

}  // namespace vibro
