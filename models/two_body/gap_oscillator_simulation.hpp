#pragma once
// Model A as a hybrid system for the engine's event-driven integrator. State (x1, v1, x2, v2, c, s):
// (c, s) = (cos wt, sin wt) are carried as states so that every guard (the gap, the contact force
// of stuck bodies) is affine in the state. Modes: free, in contact (penalty laws), stuck (after a
// chattering sequence of restitution impacts, until the contact force would turn tensile).
#include <cstdint>

#include "engine/core/model.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/two_body_steps.hpp"

namespace vibro::two_body {

enum GapCounter { kImpacts, kStickings, kReleases, kGrazings, kSteps, kRejectedSteps, kGapCounterCount };
enum GapMode { kFree = 0, kContact = 1, kStuck = 2 };

StrobeLayout gap_oscillator_layout(const GapOscillatorConstants& c);

class GapOscillatorSystem {
 public:
  using State = Eigen::Matrix<double, 6, 1>;
  explicit GapOscillatorSystem(const GapOscillatorConstants& c) : c_(c) {}

  using Matrix = Eigen::Matrix<double, 6, 6>;
  void rhs(double t, const State& x, State& dx) const;
  void jacobian(double t, const State& x, Matrix& J) const;
  Matrix reset_jacobian(const EventHit& hit, const State& x_before) const;
  int guards(AffineGuard<6>* out) const;
  bool on_events(double t, State& x, const EventHit* hits, int count);
  void observe(const DenseStep<6>& step, double theta_end);

  double contact_force(const State& x) const;
  GapMode mode = kFree;
  StrobeSample* sample = nullptr;  // counters and per-period extremes go here

 private:
  double forcing(const State& x) const;
  double contact_stiffness(const State& x) const;  // dFcon/dz
  Eigen::Matrix<double, 6, 1> stuck_force_row(double& constant) const;
  bool sticks(double approach, const State& x_after) const;  // chatter has run out
  GapOscillatorConstants c_;
};

class GapOscillatorSimulation : public Simulation {
 public:
  explicit GapOscillatorSimulation(const GapOscillatorConstants& constants);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;

 private:
  GapOscillatorConstants c_;
  StrobeLayout layout_;
  GapOscillatorSystem system_;
  HybridIntegrator<6> integrator_;
  GapOscillatorSystem::State x_;
  std::int64_t periods_ = 0;
  StrobeSample sample_{};
};

}  // namespace vibro::two_body
