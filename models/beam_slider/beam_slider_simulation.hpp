#pragma once
// Runs the beam with the slider by Moreau midpoint steps (engine/timestepping), a whole number of
// steps per excitation period so that the stroboscopic samples fall exactly on t = k T. Running
// sums carried in the samples (time integrals of x_C and the energies, contact-active step counts,
// the x impulse) let any window of samples give its time averages (spec 3.5).
#include <cstdint>
#include <memory>

#include "engine/core/model.hpp"
#include "engine/timestepping/moreau_midpoint.hpp"
#include "models/beam_slider/beam_slider_system.hpp"

namespace vibro::beam_slider {

enum CounterIndex {
  kSteps, kClosedP1, kClosedP2, kClosedP3, kClosedP4, kContactSteps, kSolverSweeps, kUnconverged, kCounterCount
};
enum AuxIndex { kIntX = 0, kIntEnergy = 1, kIntRotEnergy = 2, kImpulseX = 3, kMaxSweeps = 4, kIntAxialEnergy = 5 };

StrobeLayout beam_slider_layout(const BeamSliderSystem& system);

// Steps per excitation period: the fewest with dt <= 2 pi / (steps_per_mode omega_max).
int steps_per_period(const BeamSliderConstants& c, const BeamAxis& axis);

class BeamSliderSimulation : public Simulation {
 public:
  explicit BeamSliderSimulation(const BeamSliderConstants& constants);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;

  const BeamSliderSystem& system() const { return system_; }
  double time_step() const { return dt_; }
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& u() const { return u_; }
  // One time step (for tests and time signals); returns what the contact solver did.
  timestepping::StepReport step();
  const timestepping::MoreauMidpoint& stepper() const { return stepper_; }
  // The section (modal and slider coordinates, then their rates) at the step boundaries nearest
  // the grid times; a change of the number of closed contacts over a step is an event, with the
  // states at the step's start and end.
  TraceLayout trace_layout() const override;
  void attach_trace(TraceSink* sink) override;

 private:
  void fill_sample();
  void trace_to(double t);
  void trace_state(double* out) const;
  double time_at_step() const;

  BeamSliderSystem system_;
  timestepping::MoreauMidpoint stepper_;
  StrobeLayout layout_;
  int steps_per_period_;
  double dt_;
  Eigen::VectorXd q_, u_;
  std::int64_t period_ = 0;   // whole periods done
  int step_in_period_ = 0;
  StrobeSample sample_{};     // running sums live here between samples
  TraceSink* sink_ = nullptr;
};

}  // namespace vibro::beam_slider
