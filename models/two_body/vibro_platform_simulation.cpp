#include "models/two_body/vibro_platform_simulation.hpp"

#include <cmath>

#include "engine/contact/penalty_laws.hpp"

namespace vibro::two_body {

namespace {

// Contact force between stuck bodies, N = m2 (a + g) + (c2 + c0') v, as row . x + constant; the
// gap is the clearance y2 - y1 - h = -z.
ContactSetup platform_contact(const VibroPlatformConstants& c) {
  const double r = c.m2 / (c.m1 + c.m2);
  const double c0 = c.relative_damping ? 0.0 : c.c0;  // relative damping is idle when stuck
  ContactSetup setup{c.h, c.m1, c.m2, c.law, c.e, c.v_eps, {}, c.m2 * c.g,
                     {kLandings, kPlatformGrazings, kPlatformStickings, kPlatformReleases}};
  setup.stuck_row << -r * c.k1, -r * (c.c1 + c.c2) + c.c2 + c0, 0, 0, r * c.F0 * std::cos(c.phase),
      -r * c.F0 * std::sin(c.phase);
  return setup;
}

}  // namespace

StrobeFrame VibroPlatformSystem::strobe_frame(const VibroPlatformConstants& c) {
  StrobeLayout layout;
  layout.state_names = {"y1", "v1", "u2", "v2"};
  layout.state_units = {"m", "m/s", "m", "m/s"};
  const double length = 1e-3, velocity = length * c.omega;  // millimetre motions
  layout.state_scales = {length, velocity, length, velocity};
  layout.drift_scale = velocity;
  layout.period = c.period;
  layout.counter_names = {"impacts", "stickings", "releases", "lift_offs", "grazings", "steps", "rejected_steps"};
  layout.counter_meanings = {"landings of the form on the rubber block", "times the form and table began to move together",
                             "times they separated after moving together", "lift-offs of the form from the block",
                             "grazing contacts (zero approach speed)", "accepted integration steps",
                             "rejected integration steps (error control)"};
  layout.mode_names = {"flight", "on_block", "together"};
  layout.mode_meanings = {"the form flies above the rubber block", "the form presses the block (compliant contact)",
                          "form and table move as one body (restitution law, sticking)"};
  return {layout, c.rest_y2(), kPlatformRejected};
}

VibroPlatformSystem::VibroPlatformSystem(const VibroPlatformConstants& c) : c_(c), contact_(platform_contact(c)) {}

double VibroPlatformSystem::forcing(const TwoBodyState& x) const {
  return c_.F0 * (x[4] * std::cos(c_.phase) - x[5] * std::sin(c_.phase));
}

double VibroPlatformSystem::elastic_force(double z) const {
  if (c_.law == ImpactLaw::Hertz) return hertz(z, c_.K);
  return linear_penalty(z, c_.k0);  // the linear law, and the joint phase of a restitution run
}

void VibroPlatformSystem::jacobian(double, const TwoBodyState& x, Matrix& J) const {
  J.setZero();
  J(4, 5) = -c_.omega;
  J(5, 4) = c_.omega;
  J(0, 1) = 1;
  J(2, 3) = 1;
  const double fc = c_.F0 * std::cos(c_.phase), fs = -c_.F0 * std::sin(c_.phase);
  if (mode == kTogether) {
    const double M = c_.m1 + c_.m2;
    for (const int row : {1, 3}) {
      J(row, 0) = -c_.k1 / M;
      J(row, 1) = -(c_.c1 + c_.c2) / M;
      J(row, 4) = fc / M;
      J(row, 5) = fs / M;
    }
    return;
  }
  double kb = 0, c0_v1 = 0, c0_v2 = 0;  // block stiffness dF/dz, damper's dependence on v1 and v2
  if (mode == kOnBlock) {
    const double z = c_.h - (x[2] - x[0]);
    if (z > 0) kb = c_.law == ImpactLaw::Hertz ? 1.5 * c_.K * std::sqrt(z) : c_.k0;
    c0_v2 = c_.c0;
    c0_v1 = c_.relative_damping ? -c_.c0 : 0.0;
  }
  // The block pushes the form up with block(z) - c0 (v2 [- v1]) and the table down with the same.
  J(1, 0) = (-c_.k1 - kb) / c_.m1;
  J(1, 1) = (-c_.c1 + c0_v1) / c_.m1;
  J(1, 2) = kb / c_.m1;
  J(1, 3) = c0_v2 / c_.m1;
  J(1, 4) = fc / c_.m1;
  J(1, 5) = fs / c_.m1;
  J(3, 0) = kb / c_.m2;
  J(3, 1) = -c0_v1 / c_.m2;
  J(3, 2) = -kb / c_.m2;
  J(3, 3) = (-c_.c2 - c0_v2) / c_.m2;
}

double VibroPlatformSystem::block_force(const TwoBodyState& x) const {
  // Elastic and viscous; the damper acts on the form's absolute velocity unless relative_damping.
  return elastic_force(c_.h - (x[2] - x[0])) - c_.c0 * (c_.relative_damping ? x[3] - x[1] : x[3]);
}

void VibroPlatformSystem::rhs(double, const TwoBodyState& x, TwoBodyState& dx) const {
  dx[4] = -c_.omega * x[5];
  dx[5] = c_.omega * x[4];
  const double F = forcing(x);
  if (mode == kTogether) {
    const double a = (-c_.k1 * x[0] - (c_.c1 + c_.c2) * x[1] + F) / (c_.m1 + c_.m2);
    dx[0] = x[1];
    dx[1] = a;
    dx[2] = x[3];
    dx[3] = a;
    return;
  }
  const double block = mode == kOnBlock ? block_force(x) : 0.0;  // the block on the form (up)
  dx[0] = x[1];
  dx[1] = (c_.m2 * c_.g - c_.k1 * x[0] - c_.c1 * x[1] + F - block) / c_.m1;
  dx[2] = x[3];
  dx[3] = (-c_.m2 * c_.g - c_.c2 * x[3] + block) / c_.m2;
}

bool VibroPlatformSystem::on_events(double, TwoBodyState& x, const EventHit* hits, int count) {
  for (int i = 0; i < count; ++i) {
    if (contact_.on_event(hits[i], mode, x, *sample) == ContactEvent::Separation) {  // lift-off
      joint_phase = false;
      ++sample->counters[kLiftOffs];
    }
  }
  return true;
}

void VibroPlatformSystem::observe(const DenseStep<6>& step, double theta_end) {
  ++sample->counters[kPlatformSteps];
  auto force = [this](double z) { return elastic_force(z); };
  track_step_extremes(step, theta_end, {c_.rest_y2(), c_.h}, mode == kOnBlock, mode != kFlight, force, sample->aux);
  if (mode == kOnBlock) track_contact_force(step, theta_end, [this](const TwoBodyState& x) { return block_force(x); }, sample->aux);
}

TwoBodyState VibroPlatformSystem::start() {
  // Static equilibrium plus the requested offsets; the form rests on the block.
  TwoBodyState x;
  x << c_.y1_0, c_.v1_0, c_.rest_y2() + c_.u2_0, c_.v2_0, 1.0, 0.0;
  const bool touching = x[2] - x[0] < c_.h;
  mode = touching ? kOnBlock : kFlight;
  joint_phase = c_.law == ImpactLaw::Restitution && touching;
  return x;
}

bool VibroPlatformSystem::restart(const StrobeSample& from, TwoBodyState& x) {
  x << from.state[0], from.state[1], from.state[2] + c_.rest_y2(), from.state[3], 1.0, 0.0;
  if (!x.allFinite()) return false;
  const bool penetrating = x[2] - x[0] < c_.h;
  if (c_.law == ImpactLaw::Restitution) {
    if (penetrating && from.mode != kOnBlock) x[2] = x[0] + c_.h;
    mode = static_cast<ContactMode>(from.mode);
    joint_phase = from.mode == kOnBlock;
  } else {
    mode = penetrating ? kOnBlock : kFlight;
  }
  return true;
}

}  // namespace vibro::two_body
