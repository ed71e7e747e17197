#pragma once
// Newton's impact law on the relative normal velocity of a body against an obstacle of infinite
// mass (Siconos: NewtonImpactNSL). Inputs and outputs are per unit mass.
#include <algorithm>

#include "engine/core/host_device.hpp"

namespace vibro {

struct NormalImpact {
  double u_after;    // relative normal velocity after the impact (>= 0, separating)
  double impulse;    // normal impulse per unit mass S/m (>= 0)
};

// u_before: relative normal velocity just before the impact (<= 0, approaching). A positive value
// from rounding at a tangency is clamped to 0 (zero impulse).
VIBRO_HD inline NormalImpact newton_restitution(double u_before, double restitution) {
  const double u = std::min(u_before, 0.0);
  return {-restitution * u, (1.0 + restitution) * (-u)};
}

}  // namespace vibro
