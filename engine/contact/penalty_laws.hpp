#pragma once
// Compliant contact forces of the penetration z (contact for z >= 0): the linear penalty
// k0 z H(z) and Hertz K (z H(z))^{3/2}. Both vanish for z <= 0; contact onset and offset are events
// of the caller, because the contact damping switches there. The laws are host-and-device code.
#include <cmath>

#include "engine/core/host_device.hpp"

namespace vibro {

VIBRO_HD inline double linear_penalty(double z, double k0) { return z > 0 ? k0 * z : 0.0; }
VIBRO_HD inline double hertz(double z, double K) { return z > 0 ? K * z * std::sqrt(z) : 0.0; }

// Hertz constant K = (4/3) q / ((delta1 + delta2) sqrt(A + B)), delta_i = (1 - mu_i^2) / (pi E_i),
// for equal principal curvatures A = B (q(1) = 0.318, Hertz's elliptic-integral factor).
inline double hertz_constant(double E1, double mu1, double E2, double mu2, double A, double q = 0.318) {
  const double pi = 3.14159265358979323846;
  const double delta = (1 - mu1 * mu1) / (pi * E1) + (1 - mu2 * mu2) / (pi * E2);
  return 4.0 / 3.0 * q / (delta * std::sqrt(2 * A));
}

}  // namespace vibro
