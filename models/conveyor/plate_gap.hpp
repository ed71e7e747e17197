#pragma once
// The gap between the part in free flight and the plate, relative to the event that began the
// flight (the paper's Eq. 19). Subtracting absolute positions loses everything in a microthrow sequence
// (flights of 1e-8 rad, gaps of 1e-19 m); this form keeps full relative precision.
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/core/reproducible_trig.hpp"
#include "engine/roots/certified_first_root.hpp"

namespace vibro::conveyor {

// y - sin(y) below kSeriesBelow, where the subtraction cancels: y^3/3! - y^5/5! + ... up to y^13 (enough
// for double precision at |y| < 0.2). It needs no sine, so a caller may take it before the sine.
constexpr double kSeriesBelow = 0.2;
VIBRO_HD inline double y_minus_sin_series(double y) {
  const double y2 = y * y;
  double term = y * y2 / 6.0, sum = 0;
  for (int k = 4; k <= 14; k += 2) {
    sum += term;
    term *= -y2 / (k * (k + 1));
  }
  return sum;
}

// y - sin(y), accurate for small y where the subtraction cancels.
VIBRO_HD inline double y_minus_sin(double y, double sin_y) {
  return std::fabs(y) >= kSeriesBelow ? y - sin_y : y_minus_sin_series(y);
}

struct PlateGap {
  double h_a;          // gap at the start, m
  double u_a_phase;    // relative normal velocity at the start / omega, m/rad
  double G;            // gravity / omega^2, m
  double A_sin, A_cos; // A sin(theta_a), A cos(theta_a), m

  VIBRO_HD Derivs operator()(double y) const {
    // y - sin y as y_minus_sin gives it. On a GPU its series (six divisions) is taken before the sine, so
    // that neither's values are held across the other's (fewer registers, ptxas's figures in
    // bench/README.md); on a CPU after it, which measured faster there. The same arithmetic either way.
    constexpr bool kSeriesFirst = VIBRO_DEVICE_PASS;
    const bool series = std::fabs(y) < kSeriesBelow;
    double series_value = 0;
    if (kSeriesFirst && series) series_value = y_minus_sin_series(y);
    const reproducible::SinCos half = reproducible::sincos(0.5 * y);
    const double s2 = half.sin, c2 = half.cos;
    const double sin_y = 2 * s2 * c2;
    const double one_minus_cos = 2 * s2 * s2;
    if (!kSeriesFirst && series) series_value = y_minus_sin_series(y);
    const double y_minus_sin_y = series ? series_value : y - sin_y;
    const double h = h_a + u_a_phase * y - 0.5 * G * y * y + A_sin * one_minus_cos + A_cos * y_minus_sin_y;
    const double h1 = u_a_phase - G * y + A_sin * sin_y + A_cos * one_minus_cos;
    const double h2 = -G + A_sin * (1 - one_minus_cos) + A_cos * sin_y;
    return {h, h1, h2};
  }

  // The first root of the gap on [y0, y_max] (certified_first_root): |h'''| <= A, -h'' <= G + A,
  // h'' <= A - G, with A the plate's amplitude.
  VIBRO_HD RootResult first_root(double y0, double y_max, double A, double rtol) const {
    RootSettings settings;
    settings.rtol = rtol;
    return certified_first_root(*this, y0, y_max, RootBounds{A, G + A, A - G}, settings);
  }
};

}  // namespace vibro::conveyor
