#pragma once
// Coulomb friction integrated over an instantaneous impact: the tangential velocity moves towards
// the obstacle's by at most mu * S/m and may not overshoot it (the "stick clamp"), because friction
// cannot drive the relative velocity through zero. Conveyor paper Eq. 22 (cases a-d).
#include <algorithm>

#include "engine/core/host_device.hpp"

namespace vibro {

VIBRO_HD inline double coulomb_impulse(double v_before, double v_obstacle, double mu, double normal_impulse) {
  const double dv = mu * normal_impulse;
  if (v_before < v_obstacle) return std::min(v_before + dv, v_obstacle);
  if (v_before > v_obstacle) return std::max(v_before - dv, v_obstacle);
  return v_before;  // no relative motion, no friction
}

}  // namespace vibro
