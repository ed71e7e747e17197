#pragma once
// Model A as a hybrid system for the engine's event-driven integrator. State (x1, v1, x2, v2, c, s):
// (c, s) = (cos wt, sin wt) are carried as states so that every guard (the gap, the contact force
// of stuck bodies) is affine in the state. Modes: free, in contact (penalty laws), stuck (after a
// chattering sequence of restitution impacts, until the contact force would turn tensile); the
// contact's guards and events are TwoBodyContact's.
#include "engine/core/model.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/two_body_contact.hpp"
#include "models/two_body/two_body_steps.hpp"

namespace vibro::two_body {

enum GapCounter { kImpacts, kStickings, kReleases, kGrazings, kSteps, kRejectedSteps, kGapCounterCount };

class GapOscillatorSystem {
 public:
  using Constants = GapOscillatorConstants;
  using State = TwoBodyState;
  using Matrix = Eigen::Matrix<double, 6, 6>;
  explicit GapOscillatorSystem(const GapOscillatorConstants& c);
  static StrobeFrame strobe_frame(const GapOscillatorConstants& c);
  State start() const;  // throws InfeasibleCase if the bodies interpenetrate
  bool restart(const StrobeSample& from, State& x);

  void rhs(double t, const State& x, State& dx) const;
  void jacobian(double t, const State& x, Matrix& J) const;
  Matrix reset_jacobian(const EventHit& hit, const State& x_before) const;
  int guards(AffineGuard<6>* out) const { return contact_.guards(mode, out); }
  bool on_events(double t, State& x, const EventHit* hits, int count);
  void observe(const DenseStep<6>& step, double theta_end);
  double contact_force(const State& x) const;

  ContactMode mode = kFree;
  StrobeSample* sample = nullptr;  // counters and per-period extremes go here

 private:
  double forcing(const State& x) const;
  double contact_stiffness(const State& x) const;  // dFcon/dz
  GapOscillatorConstants c_;
  TwoBodyContact contact_;
};

using GapOscillatorSimulation = TwoBodySimulation<GapOscillatorSystem>;

}  // namespace vibro::two_body
