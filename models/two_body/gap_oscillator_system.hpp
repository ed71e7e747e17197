#pragma once
// Model A as a hybrid system for the engine's event-driven integrator. State (x1, v1, x2, v2, c, s):
// (c, s) = (cos wt, sin wt) are carried as states so that every guard (the gap, the contact force
// of stuck bodies) is affine in the state. Modes: free, in contact (penalty laws), stuck (after a
// chattering sequence of restitution impacts, until the contact force would turn tensile); the
// contact's guards and events are TwoBodyContact's.
// What the integrator calls (rhs, guards, on_events, observe) is host-and-device code: the CPU
// simulation and the batched and GPU kernels step this one system.
#include <cmath>

#include "engine/contact/penalty_laws.hpp"
#include "engine/core/host_device.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/two_body_contact.hpp"
#include "models/two_body/two_body_extremes.hpp"
#include "models/two_body/two_body_period.hpp"

namespace vibro::two_body {

enum GapCounter { kImpacts, kStickings, kReleases, kGrazings, kSteps, kRejectedSteps, kGapCounterCount };

class GapOscillatorSystem {
 public:
  using Constants = GapOscillatorConstants;
  using State = TwoBodyState;
  using Matrix = Eigen::Matrix<double, 6, 6>;
  GapOscillatorSystem() = default;  // a placeholder, assigned before use (a batch's case array)
  explicit GapOscillatorSystem(const GapOscillatorConstants& c);
  static StrobeFrame strobe_frame(const GapOscillatorConstants& c);
  State start() const;  // throws InfeasibleCase if the bodies interpenetrate
  bool restart(const StrobeSample& from, State& x);

  VIBRO_HD void rhs(double, const State& x, State& dx) const {
    dx[4] = -c_.omega * x[5];
    dx[5] = c_.omega * x[4];
    const double F = forcing(x);
    if (mode == kStuck) {  // the bodies move as one (restitution law, the paper's Eq. 6)
      const double a = (-c_.c1 * x[1] - c_.k1 * x[0] + F) / (c_.m1 + c_.m2);
      dx[0] = x[1];
      dx[1] = a;
      dx[2] = x[3];
      dx[3] = a;
      return;
    }
    const double spring = c_.k2 * (x[0] - x[2] + c_.D), damper = c_.c2 * (x[1] - x[3]);
    const double Fcon = contact_force(x);
    dx[0] = x[1];
    dx[1] = (-c_.c1 * x[1] - c_.k1 * x[0] - damper - spring + F - Fcon) / c_.m1;
    dx[2] = x[3];
    dx[3] = (damper + spring + Fcon) / c_.m2;
  }
  void jacobian(double t, const State& x, Matrix& J) const;
  Matrix reset_jacobian(const EventHit& hit, const State& x_before) const;
  VIBRO_HD int guards(AffineGuard<6>* out) const { return contact_.guards(mode, out); }
  VIBRO_HD bool on_events(double, State& x, const EventHit* hits, int count) {
    for (int i = 0; i < count; ++i) contact_.on_event(hits[i], mode, x, *sample);
    return true;
  }
  VIBRO_HD void observe(const DenseStep<6>& step, double theta_end) {
    ++sample->counters[kSteps];
    auto force = [this](double z) { return penalty(z); };
    track_step_extremes(step, theta_end, {c_.D, 0.0}, mode == kContact, mode != kFree, force, sample->aux);
    if (mode == kContact) track_contact_force(step, theta_end, [this](const State& x) { return contact_force(x); }, sample->aux);
  }
  VIBRO_HD double contact_force(const State& x) const {
    const double z = x[0] - x[2];
    if (mode != kContact) return 0;
    return penalty(z);
  }

  ContactMode mode = kFree;
  StrobeSample* sample = nullptr;  // counters and per-period extremes go here

 private:
  VIBRO_HD double forcing(const State& x) const {
    return c_.lambda * c_.F0 * (x[4] * c_.cos_phase - x[5] * c_.sin_phase);
  }
  VIBRO_HD double penalty(double z) const { return c_.law == ImpactLaw::Linear ? linear_penalty(z, c_.k0) : hertz(z, c_.K); }
  double contact_stiffness(const State& x) const;  // dFcon/dz
  GapOscillatorConstants c_{};
  TwoBodyContact contact_;
};

}  // namespace vibro::two_body
