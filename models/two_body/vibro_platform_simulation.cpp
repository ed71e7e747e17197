#include "models/two_body/vibro_platform_simulation.hpp"

#include <cmath>

#include "engine/contact/penalty_laws.hpp"
#include "engine/contact/two_body_restitution.hpp"

namespace vibro::two_body {

namespace {
enum Guard { kGap = 0, kRelease = 1 };
}

StrobeLayout vibro_platform_layout(const VibroPlatformConstants& c) {
  StrobeLayout layout;
  layout.state_names = {"y1", "v1", "u2", "v2"};
  const double length = 1e-3, velocity = length * c.omega;  // millimetre motions
  layout.state_scales = {length, velocity, length, velocity};
  layout.drift_scale = velocity;
  layout.period = c.period;
  layout.counter_names = {"impacts", "stickings", "releases", "lift_offs", "grazings", "steps", "rejected_steps"};
  layout.mode_names = {"flight", "on_block", "together"};
  return layout;
}

double VibroPlatformSystem::forcing(const TwoBodyState& x) const {
  return c_.F0 * (x[4] * std::cos(c_.phase) - x[5] * std::sin(c_.phase));
}

double VibroPlatformSystem::elastic_force(double z) const {
  if (c_.law == ImpactLaw::Hertz) return hertz(z, c_.K);
  return linear_penalty(z, c_.k0);  // the linear law, and the joint phase of a restitution run
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
  double block = 0, damper = 0;  // elastic and viscous forces of the block on the form (up)
  if (mode == kOnBlock) {
    block = elastic_force(c_.h - (x[2] - x[0]));
    damper = -c_.c0 * (c_.relative_damping ? x[3] - x[1] : x[3]);
  }
  dx[0] = x[1];
  dx[1] = (c_.m2 * c_.g - c_.k1 * x[0] - c_.c1 * x[1] + F - block - damper) / c_.m1;
  dx[2] = x[3];
  dx[3] = (-c_.m2 * c_.g - c_.c2 * x[3] + block + damper) / c_.m2;
}

// Contact force between stuck bodies, N = m2 (a + g) + (c2 + c0') v, as row . x + constant.
TwoBodyState VibroPlatformSystem::stuck_force_row(double& constant) const {
  const double r = c_.m2 / (c_.m1 + c_.m2);
  const double c0 = c_.relative_damping ? 0.0 : c_.c0;  // relative damping is idle when stuck
  TwoBodyState row;
  row << -r * c_.k1, -r * (c_.c1 + c_.c2) + c_.c2 + c0, 0, 0, r * c_.F0 * std::cos(c_.phase),
      -r * c_.F0 * std::sin(c_.phase);
  constant = c_.m2 * c_.g;
  return row;
}

int VibroPlatformSystem::guards(AffineGuard<6>* out) const {
  if (mode == kTogether) {
    out[0].a = stuck_force_row(out[0].b);
    out[0].crossing = Crossing::Falling;
    out[0].id = kRelease;
    return 1;
  }
  out[0].a << -1, 0, 1, 0, 0, 0;  // clearance y2 - y1 - h = -z
  out[0].b = -c_.h;
  out[0].crossing = mode == kFlight ? Crossing::Falling : Crossing::Rising;
  out[0].id = kGap;
  return 1;
}

bool VibroPlatformSystem::on_events(double, TwoBodyState& x, const EventHit* hits, int count) {
  for (int i = 0; i < count; ++i) {
    const EventHit& hit = hits[i];
    if (hit.id == kRelease) {
      mode = kFlight;
      ++sample->counters[kPlatformReleases];
      continue;
    }
    if (mode == kOnBlock) {  // lift-off
      mode = kFlight;
      joint_phase = false;
      ++sample->counters[kLiftOffs];
      continue;
    }
    ++sample->counters[hit.grazing ? kPlatformGrazings : kLandings];
    if (c_.law != ImpactLaw::Restitution) {
      mode = kOnBlock;
      continue;
    }
    x[2] = x[0] + c_.h;  // exactly on the undeformed block
    const double approach = x[1] - x[3];
    const TwoBodyVelocities after = two_body_restitution(x[1], x[3], c_.chi(), c_.e);
    x[1] = after.v1;
    x[3] = after.v2;
    double constant = 0;
    const double N = stuck_force_row(constant).dot(x) + constant;
    if (c_.e * std::max(approach, 0.0) < c_.v_eps && N > 0) {
      const double v = (c_.m1 * x[1] + c_.m2 * x[3]) / (c_.m1 + c_.m2);
      x[1] = x[3] = v;
      mode = kTogether;
      ++sample->counters[kPlatformStickings];
    }
  }
  return true;
}

void VibroPlatformSystem::observe(const DenseStep<6>& step, double theta_end) {
  ++sample->counters[kPlatformSteps];
  auto force = [this](double z) { return elastic_force(z); };
  track_step_extremes(step, theta_end, {c_.rest_y2(), c_.h}, mode == kOnBlock, mode != kFlight, force, sample->aux);
}

VibroPlatformSimulation::VibroPlatformSimulation(const VibroPlatformConstants& constants)
    : c_(constants), layout_(vibro_platform_layout(constants)), system_(constants), integrator_(constants.control) {
  // Static equilibrium (spec 2.5) plus the requested offsets; the form rests on the block.
  x_ << c_.y1_0, c_.v1_0, c_.rest_y2() + c_.u2_0, c_.v2_0, 1.0, 0.0;
  const bool touching = x_[2] - x_[0] < c_.h;
  system_.mode = touching ? kOnBlock : kFlight;
  system_.joint_phase = c_.law == ImpactLaw::Restitution && touching;
  system_.sample = &sample_;
  reset_period_extremes(sample_.aux);
}

bool VibroPlatformSimulation::restart_from(const StrobeSample& sample) {
  x_ << sample.state[0], sample.state[1], sample.state[2] + c_.rest_y2(), sample.state[3], 1.0, 0.0;
  if (!x_.allFinite()) return false;
  const bool penetrating = x_[2] - x_[0] < c_.h;
  if (c_.law == ImpactLaw::Restitution) {
    if (penetrating && sample.mode != kOnBlock) x_[2] = x_[0] + c_.h;
    system_.mode = static_cast<PlatformMode>(sample.mode);
    system_.joint_phase = sample.mode == kOnBlock;
  } else {
    system_.mode = penetrating ? kOnBlock : kFlight;
  }
  periods_ = sample.period;
  sample_.counters = sample.counters;
  integrator_.reset_step();
  return true;
}

void VibroPlatformSimulation::run(StrobeObserver& observer) {
  run_periods(integrator_, system_, x_, periods_, c_.period, c_.rest_y2(), kPlatformRejected, sample_, observer);
}

}  // namespace vibro::two_body
