#pragma once
// The gap between the part in free flight and the plate, relative to the event that began the
// flight (the paper's Eq. 19). Subtracting absolute positions loses everything in a microthrow sequence
// (flights of 1e-8 rad, gaps of 1e-19 m); this form keeps full relative precision.
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/core/reproducible_trig.hpp"
#include "engine/roots/certified_first_root.hpp"

namespace vibro::conveyor {

// y - sin(y), accurate for small y where the subtraction cancels.
VIBRO_HD inline double y_minus_sin(double y, double sin_y) {
  if (std::fabs(y) >= 0.2) return y - sin_y;
  const double y2 = y * y;
  // y^3/3! - y^5/5! + ... up to y^13 (enough for double precision at |y| < 0.2).
  double term = y * y2 / 6.0, sum = 0;
  for (int k = 4; k <= 14; k += 2) {
    sum += term;
    term *= -y2 / (k * (k + 1));
  }
  return sum;
}

struct PlateGap {
  double h_a;          // gap at the start, m
  double u_a_phase;    // relative normal velocity at the start / omega, m/rad
  double G;            // gravity / omega^2, m
  double A_sin, A_cos; // A sin(theta_a), A cos(theta_a), m

  VIBRO_HD Derivs operator()(double y) const {
    const reproducible::SinCos half = reproducible::sincos(0.5 * y);
    const double s2 = half.sin, c2 = half.cos;
    const double sin_y = 2 * s2 * c2;
    const double one_minus_cos = 2 * s2 * s2;
    const double h = h_a + u_a_phase * y - 0.5 * G * y * y + A_sin * one_minus_cos + A_cos * y_minus_sin(y, sin_y);
    const double h1 = u_a_phase - G * y + A_sin * sin_y + A_cos * one_minus_cos;
    const double h2 = -G + A_sin * (1 - one_minus_cos) + A_cos * sin_y;
    return {h, h1, h2};
  }
};

}  // namespace vibro::conveyor
