#pragma once
// Time integration of the bouncing dimer (Liu, Zhao and Brogliato 2008; the hybrid scheme an
// separate prototype validated against the report's numbers): a Moreau-Jean midpoint step with a velocity-level Signorini-Coulomb law
// (restitution 0, static mu_s, slip mu_c) for persistent contacts and free flight, and, whenever an
// active contact approaches faster than the closure speed A omega / 100, the impulse-domain impact
// solver of engine/impulse (Stronge restitution, incremental Coulomb, LZB for double impacts) on the
// active contact set first. Slower approaches close the contact (inelastic collapse, as in the report's Section 4).
#include <Eigen/Core>
#include <string>
#include <vector>

#include "engine/core/model.hpp"
#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer {

// Counters of the stroboscopic samples (cumulative since t = 0).
enum DimerCounter {
  kImpactsTip1,
  kImpactsTip2,
  kDoubleImpacts,
  kContactStepsTip1,  // time steps with tip 1 carrying a contact force
  kContactStepsTip2,
  kSteps,
  kDimerCounters
};
// Aux fields of a sample: about the period that ends at the sample.
enum DimerAux { kThetaIntegral, kMaxAbsTheta, kMaxGapTip1, kMaxGapTip2, kMeanTheta };
// Mode at a sample: which tips are closed.
enum DimerContactMode { kFlight, kContactTip1, kContactTip2, kContactBoth };

// The units and meanings of the layout both integrators share (state, modes, drift, impact counters);
// `contact_unit` names what the contact counters and the last counter count ("time steps", "ticks of
// T / 2^20").
void describe_dimer_layout(StrobeLayout& layout, const std::string& contact_unit);

// One time step as seen from outside (tests, time-series plots): tip gaps and slip velocities
// relative to the plate, contact and impact normal impulses per tip.
struct DimerTracePoint {
  double t, X, Y, theta;
  double gap[2], slip[2], contact_impulse[2], impact_impulse[2];
};

class DimerSimulation : public Simulation {
 public:
  explicit DimerSimulation(const DimerConstants& constants);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;
  // Records every time step into *trace (nullptr: stop recording).
  void record_trace(std::vector<DimerTracePoint>* trace) { trace_ = trace; }
  // The section (Y, theta, Xdot, Ydot, thetadot) and X, at the time steps nearest the grid times;
  // impacts with the velocities before and after the impulse (at the step's midpoint).
  TraceLayout trace_layout() const override;
  void attach_trace(TraceSink* sink) override;

 private:
  void step();
  void impact_step(const int* tips, int count, double theta, double t);
  void contact_step(const int* tips, int count, const Jacobian& J, double t_end);
  int preferred_slip(double slip_velocity) const;
  StrobeSample make_sample();
  int contact_mode() const;
  void trace_to(double t);

  DimerConstants c_;
  StrobeLayout layout_;
  Eigen::Vector3d q_{0, 0, 0}, v_{0, 0, 0};  // (X, Y, theta) and rates
  Eigen::Vector3d inv_mass_;
  std::int64_t period_ = 0;
  int step_ = 0;  // within the period
  double h_, gap_tol_, slip_tol_;
  StrobeSample sample_{};  // counters and aux accumulate here
  int impacts_this_period_ = 0;
  double theta_integral_period_ = 0;
  bool closed_[2] = {false, false};  // tip carried a contact force in the last step
  bool stuck_[2] = {false, false};   // ... and stuck
  std::vector<DimerTracePoint>* trace_ = nullptr;
  DimerTracePoint point_{};
  TraceSink* sink_ = nullptr;
};

}  // namespace vibro::dimer
