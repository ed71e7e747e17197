#include "models/two_body/gap_oscillator_simulation.hpp"

#include <cmath>

#include "engine/contact/penalty_laws.hpp"

namespace vibro::two_body {

namespace {

// Contact force of stuck bodies, N = m2 a - k2 D, as row . x + constant (affine: a guard).
ContactSetup gap_contact(const GapOscillatorConstants& c) {
  const double r = c.m2 / (c.m1 + c.m2);
  ContactSetup setup{0.0, c.m1, c.m2, c.law, c.e, c.v_eps, {}, -c.k2 * c.D,
                     {kImpacts, kGrazings, kStickings, kReleases}};
  setup.stuck_row << -r * c.k1, -r * c.c1, 0, 0, r * c.lambda * c.F0 * std::cos(c.phase),
      -r * c.lambda * c.F0 * std::sin(c.phase);
  return setup;
}

}  // namespace

StrobeFrame GapOscillatorSystem::strobe_frame(const GapOscillatorConstants& c) {
  StrobeLayout layout;
  layout.state_names = {"x1", "v1", "u2", "v2"};
  layout.state_units = {"m", "m/s", "m", "m/s"};
  const double length = c.D > 0 ? c.D : 1.0, velocity = length * c.omega;
  layout.state_scales = {length, velocity, length, velocity};
  layout.drift_scale = velocity;
  layout.period = c.period;
  layout.counter_names = {"impacts", "stickings", "releases", "grazings", "steps", "rejected_steps"};
  layout.counter_meanings = {"impacts of the bodies across the gap", "times the bodies began to move together",
                             "times they separated after moving together", "grazing contacts (zero approach speed)",
                             "accepted integration steps", "rejected integration steps (error control)"};
  layout.mode_names = {"free", "contact", "stuck"};
  layout.mode_meanings = {"the gap is open", "the bodies are in compliant contact",
                          "the bodies move as one (restitution law, sticking)"};
  return {layout, c.D, kRejectedSteps};
}

GapOscillatorSystem::GapOscillatorSystem(const GapOscillatorConstants& c) : c_(c), contact_(gap_contact(c)) {}

double GapOscillatorSystem::contact_stiffness(const State& x) const {
  const double z = x[0] - x[2];
  if (mode != kContact || z <= 0) return 0;
  return c_.law == ImpactLaw::Linear ? c_.k0 : 1.5 * c_.K * std::sqrt(z);
}

void GapOscillatorSystem::jacobian(double, const State& x, Matrix& J) const {
  J.setZero();
  J(4, 5) = -c_.omega;
  J(5, 4) = c_.omega;
  J(0, 1) = 1;
  J(2, 3) = 1;
  const double fc = c_.lambda * c_.F0 * std::cos(c_.phase), fs = -c_.lambda * c_.F0 * std::sin(c_.phase);
  if (mode == kStuck) {
    const double M = c_.m1 + c_.m2;
    for (const int row : {1, 3}) {
      J(row, 0) = -c_.k1 / M;
      J(row, 1) = -c_.c1 / M;
      J(row, 4) = fc / M;
      J(row, 5) = fs / M;
    }
    return;
  }
  const double kc = contact_stiffness(x);
  J(1, 0) = (-c_.k1 - c_.k2 - kc) / c_.m1;
  J(1, 1) = (-c_.c1 - c_.c2) / c_.m1;
  J(1, 2) = (c_.k2 + kc) / c_.m1;
  J(1, 3) = c_.c2 / c_.m1;
  J(1, 4) = fc / c_.m1;
  J(1, 5) = fs / c_.m1;
  J(3, 0) = (c_.k2 + kc) / c_.m2;
  J(3, 1) = c_.c2 / c_.m2;
  J(3, 2) = (-c_.k2 - kc) / c_.m2;
  J(3, 3) = -c_.c2 / c_.m2;
}

GapOscillatorSystem::Matrix GapOscillatorSystem::reset_jacobian(const EventHit& hit, const State& x) const {
  return contact_.reset_jacobian(hit, mode, x);
}

GapOscillatorSystem::State GapOscillatorSystem::start() const {
  if (c_.x1_0 - c_.x2_0 > 0) throw InfeasibleCase("initial state has the bodies interpenetrating (x1 > x2)");
  State x;
  x << c_.x1_0, c_.v1_0, c_.x2_0, c_.v2_0, 1.0, 0.0;
  return x;
}

bool GapOscillatorSystem::restart(const StrobeSample& from, State& x) {
  x << from.state[0], from.state[1], from.state[2] + c_.D, from.state[3], 1.0, 0.0;
  if (!x.allFinite()) return false;
  const bool compliant = c_.law != ImpactLaw::Restitution;
  const bool penetrating = x[0] > x[2];
  if (compliant) {
    mode = penetrating ? kContact : kFree;  // the law decides from the penetration alone
  } else {
    // Rigid bodies: stuck ones resume stuck (if still pressed together the release guard says so),
    // a penetration beyond rounding is not a state of this law.
    if (penetrating && x[0] - x[2] > 1e-9 * c_.D) return false;
    if (penetrating) x[2] = x[0];
    mode = from.mode == kStuck ? kStuck : kFree;
  }
  return true;
}

}  // namespace vibro::two_body
