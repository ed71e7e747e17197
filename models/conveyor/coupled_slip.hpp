#pragma once
// Closed forms of the tangential motion while the part rides the plate (derived from the paper's Eq. 61): a slip arc
// with fixed friction sign s from (theta_A, v_A, x_A), and the function whose first root ends it.
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/core/reproducible_trig.hpp"
#include "engine/roots/certified_first_root.hpp"
#include "models/conveyor/plate_gap.hpp"

namespace vibro::conveyor {

struct SlipArc {
  double s;                   // friction direction on the part, +1 or -1
  double sin_a, cos_a;        // sin(theta_A), cos(theta_A)
  double v_a, x_a;
  double omega, g, A, B, mu;

  VIBRO_HD double velocity(double y) const {
    const double s2 = reproducible::sin(0.5 * y);
    return v_a + s * mu * (g / omega * y - A * omega * (sin_a * reproducible::sin(y) + cos_a * 2 * s2 * s2));
  }
  VIBRO_HD double position(double y) const {
    const double s2 = reproducible::sin(0.5 * y);
    const double G = g / (omega * omega);
    return x_a + v_a * y / omega +
           s * mu * (0.5 * G * y * y - 2 * A * sin_a * s2 * s2 - A * cos_a * y_minus_sin(y, reproducible::sin(y)));
  }
  // f(y) = s (plate velocity - part velocity): positive while slipping in direction s.
  VIBRO_HD Derivs operator()(double y) const {
    const reproducible::SinCos at_y = reproducible::sincos(y);
    const double sy = at_y.sin, cy = at_y.cos;
    const double sin_t = sin_a * cy + cos_a * sy, cos_t = cos_a * cy - sin_a * sy;
    const double f = s * (B * omega * cos_t - velocity(y));
    const double f1 = -s * B * omega * sin_t - mu * (g / omega - A * omega * sin_t);
    const double f2 = -(s * B - mu * A) * omega * cos_t;
    return {f, f1, f2};
  }
  VIBRO_HD RootBounds bounds() const {
    const double k = (B + mu * A) * omega;
    return {k, k, k};
  }
};

}  // namespace vibro::conveyor
