#pragma once
// The first root, inside one integration step, of a guard a . x + b that is affine in the state: on
// the dense output it is a quartic in the step fraction theta, searched with the certified polynomial
// root finder. A root sitting at theta = 0 (the event just handled) is deflated, as often as it is
// multiple (a contact left with zero relative rate and acceleration: p ~ theta^3).
// Host-and-device code (engine/core/host_device.hpp).
#include <algorithm>
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/events/polynomial_first_root.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

inline constexpr double kGuardResolution = 1e-12;  // in theta: about 1e-12 of a step
inline constexpr double kGuardTouch = 1e-14;       // rounding level of a guard, relative to its terms

template <int N>
VIBRO_HD PolynomialRoot first_affine_guard_root(const DenseStep<N>& dense, const typename DenseStep<N>::State& a, double b,
                                       Crossing crossing) {
  double c[5];
  dense.affine_polynomial(a, b, c);
  const double scale = std::fabs(b) + a.cwiseAbs().dot(dense.r1.cwiseAbs());
  double touch = kGuardTouch * scale;
  int low = 0, degree = 4;
  while (degree > 0 && std::fabs(c[low]) <= 10 * touch) {
    ++low;
    --degree;
    touch = 0;
    for (int k = low; k <= 4; ++k) touch = std::max(touch, kGuardTouch * std::fabs(c[k]));
  }
  return polynomial_first_root(c + low, degree, crossing, kGuardResolution, touch);
}

}  // namespace vibro
