#pragma once
// Per-step tracking of the window extremes of the two-body models, exact at the roots of the
// velocities on the step's dense output. Host-and-device code (engine/core/host_device.hpp).
#include <cmath>
#include <limits>

#include "engine/core/host_device.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/events/polynomial_first_root.hpp"
#include "engine/ode/dormand_prince5.hpp"
#include "models/two_body/two_body_state.hpp"

namespace vibro::two_body {

// Per-period extremes carried in StrobeSample::aux (reset at every sample). kMinContactForce: the
// smallest force the contact transmits (elastic plus contact damping; < 0: it pulls), +inf without contact.
enum GapAux { kMaxX1, kMinX1, kMaxU2, kMinU2, kMaxForce, kMaxPenetration, kContactTime, kMinContactForce };

struct StepGeometry {
  double rest2;     // body 2's rest coordinate: u2 = x2 - rest2
  double z_offset;  // penetration z = x1 - x2 + z_offset
};

// Updates aux with the extremes of x1, u2 and (in contact) the penetration over the step's first
// theta_end; force_of(z) gives the elastic contact force of a penetration.
template <class Force>
VIBRO_HD void track_step_extremes(const DenseStep<6>& step, double theta_end, const StepGeometry& geometry, bool in_contact,
                         bool touching, Force&& force_of, StrobeAux& aux) {
  auto extremum_inside = [&](const TwoBodyState& velocity_row, double& theta) {
    double c[5];
    step.affine_polynomial(velocity_row, 0, c);
    const PolynomialRoot root = polynomial_first_root(c, 4, Crossing::Either);
    theta = root.theta;
    return root.found && root.theta <= theta_end;
  };
  auto track = [](double value, double& maximum, double& minimum) {
    maximum = std::max(maximum, value);
    minimum = std::min(minimum, value);
  };
  auto penetration = [&](double theta) {
    const TwoBodyState y = step.at(theta);
    return y[0] - y[2] + geometry.z_offset;
  };
  TwoBodyState row;
  double theta = 0;
  for (const double end : {0.0, theta_end}) {
    const TwoBodyState y = step.at(end);
    track(y[0], aux[kMaxX1], aux[kMinX1]);
    track(y[2] - geometry.rest2, aux[kMaxU2], aux[kMinU2]);
  }
  row << 0, 1, 0, 0, 0, 0;
  if (extremum_inside(row, theta)) track(step.at(theta)[0], aux[kMaxX1], aux[kMinX1]);
  row << 0, 0, 0, 1, 0, 0;
  if (extremum_inside(row, theta)) track(step.at(theta)[2] - geometry.rest2, aux[kMaxU2], aux[kMinU2]);
  if (touching) aux[kContactTime] += theta_end * step.h;
  if (!in_contact) return;
  double z_max = std::max(penetration(0), penetration(theta_end));
  row << 0, 1, 0, -1, 0, 0;
  if (extremum_inside(row, theta)) z_max = std::max(z_max, penetration(theta));
  if (z_max > aux[kMaxPenetration]) {
    aux[kMaxPenetration] = z_max;
    aux[kMaxForce] = force_of(z_max);
  }
}

// Updates aux[kMinContactForce] with the contact force over the step's first theta_end, sampled at
// 9 points (a tensile dip shorter than an eighth of a step may be missed; it is a flag, not an event).
template <class ContactForce>
VIBRO_HD void track_contact_force(const DenseStep<6>& step, double theta_end, ContactForce&& force_of_state,
                         StrobeAux& aux) {
  for (int i = 0; i <= 8; ++i) aux[kMinContactForce] = std::min(aux[kMinContactForce], force_of_state(step.at(theta_end * i / 8)));
}

VIBRO_HD inline void reset_period_extremes(StrobeAux& aux) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  aux[kMaxX1] = aux[kMaxU2] = -inf;
  aux[kMinX1] = aux[kMinU2] = aux[kMinContactForce] = inf;
  aux[kMaxForce] = aux[kMaxPenetration] = aux[kContactTime] = 0;
}

}  // namespace vibro::two_body
