#pragma once
// What Models A and B share as two bodies on a line with a contact between them, both carried as
// the state (x1, v1, x2, v2, cos wt, sin wt): the period loop that samples the stroboscopic map at
// t = k T (each period through step_period, two_body_period.hpp) and the Simulation around a hybrid
// system that runs it.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "engine/core/model.hpp"
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/hybrid/variational_system.hpp"
#include "models/two_body/two_body_extremes.hpp"
#include "models/two_body/two_body_period.hpp"
#include "models/two_body/two_body_trace.hpp"

namespace vibro::two_body {

// Integrates period after period, sampling (x1, v1, u2, v2) and the mode at t = k T, until the
// observer says stop. `periods` is the number of samples emitted so far. With a trace, the system
// runs wrapped so that its dense output and events reach the sink.
template <class System>
void run_periods(HybridIntegrator<6>& integrator, System& system, TwoBodyState& x, std::int64_t& periods,
                 double period, const StrobeFrame& frame, StrobeSample& sample, StrobeObserver& observer,
                 TraceSink* trace) {
  const double rest2 = frame.rest2;
  while (true) {
    PeriodOutcome outcome;
    if (trace) {
      TracedTwoBody<System> traced(system, *trace, frame.layout, rest2);
      outcome = step_period(integrator, traced, system, x, periods, period, rest2, frame.rejected_counter, sample);
      // The last step ends at the sample only up to rounding: the sample's grid time gets the sample.
      if (outcome.stop != PeriodStop::StepFailed)
        trace->fill_to(outcome.t, static_cast<int>(system.mode), [&](double, double* out) { two_body_trace_state(x, rest2, out); });
    } else {
      outcome = step_period(integrator, system, system, x, periods, period, rest2, frame.rejected_counter, sample);
    }
    if (outcome.stop == PeriodStop::StepFailed) throw CaseFailure(hybrid_failure_message(outcome.step));
    if (outcome.stop == PeriodStop::NonFinite) throw CaseFailure("non-finite state at t = " + std::to_string(outcome.t));
    const bool go_on = observer.on_sample(sample);
    reset_period_extremes(sample.aux);
    if (!go_on) return;
  }
}

// The Simulation of a two-body hybrid system: the system, its state and the integrator, run period
// after period by run_periods. Beyond the hybrid-system requirements, System provides
//   using Constants = ...;                                      // with period and control
//   explicit System(const Constants& c);
//   static StrobeFrame strobe_frame(const Constants& c);
//   TwoBodyState start();                                       // initial state and mode (or InfeasibleCase)
//   bool restart(const StrobeSample& from, TwoBodyState& x);    // state and mode; false: not admissible
//   StrobeSample* sample;                                       // where counters and extremes go
template <class System>
class TwoBodySimulation final : public Simulation {
 public:
  explicit TwoBodySimulation(const typename System::Constants& c)
      : frame_(System::strobe_frame(c)), period_(c.period), control_(c.control), system_(c), integrator_(c.control) {
    x_ = system_.start();
    system_.sample = &sample_;
    reset_period_extremes(sample_.aux);
  }
  // A copy runs on its own: its system writes into the copy's sample, not the original's.
  TwoBodySimulation(const TwoBodySimulation& other)
      : frame_(other.frame_), period_(other.period_), control_(other.control_), system_(other.system_),
        integrator_(other.integrator_), x_(other.x_), periods_(other.periods_), sample_(other.sample_) {
    system_.sample = &sample_;
  }
  TwoBodySimulation& operator=(const TwoBodySimulation&) = delete;
  const StrobeLayout& layout() const override { return frame_.layout; }
  void run(StrobeObserver& observer) override {
    run_periods(integrator_, system_, x_, periods_, period_, frame_, sample_, observer, trace_);
  }
  // (x1, v1, u2, v2) as sampled (y1 for Model B's platform).
  TraceLayout trace_layout() const override { return {frame_.layout.state_names, {"m", "m/s", "m", "m/s"}}; }
  void attach_trace(TraceSink* sink) override {
    trace_ = sink;
    if (sink) sink->skip_to(static_cast<double>(periods_) * period_);
  }
  bool restart_from(const StrobeSample& sample) override {
    return restart_two_body(system_, integrator_, x_, periods_, sample_, sample);
  }
  bool stroboscopic_map(const StrobeSample& from, int periods, MapStep& step) override {
    System system = system_;
    TwoBodyState x = x_;
    if (!system.restart(from, x)) return false;
    StrobeSample scratch = sample_;
    TangentFlow flow(system, x, static_cast<double>(from.period) * period_, period_, control_, scratch);
    const auto impacts_before = flow.impacts();
    step.jacobian = flow.advance(Eigen::Matrix4d::Identity(), periods);
    step.events = flow.impacts() - impacts_before;
    step.image = from;
    const TwoBodyState& end = flow.state();
    step.image.state[0] = end[0];
    step.image.state[1] = end[1];
    step.image.state[2] = end[2] - frame_.rest2;
    step.image.state[3] = end[3];
    step.image.mode = flow.mode();
    step.image.period = from.period + periods;
    return end.allFinite();
  }
  Admissibility admissibility(const StrobeSample& from, int periods) override {
    // A copy runs the orbit; every sample carries its period's smallest contact force.
    TwoBodySimulation copy(*this);
    reset_period_extremes(copy.sample_.aux);
    Admissibility result;
    result.measured = true;
    if (!copy.restart_from(from)) return result;
    struct Least : StrobeObserver {
      int left;
      double force = std::numeric_limits<double>::infinity();
      bool on_sample(const StrobeSample& s) override {
        force = std::min(force, s.aux[kMinContactForce]);
        return --left > 0;
      }
    } least;
    least.left = periods;
    copy.run(least);
    if (std::isinf(least.force)) return result;  // no compliant contact phase
    result.min_contact_force = least.force;
    if (least.force < 0) {
      result.admissible = false;
      result.violation = "the contact pulls with " + std::to_string(-least.force) + " N before separating";
    }
    return result;
  }
  std::vector<std::complex<double>> floquet_multipliers(int periods) override {
    TangentFlow flow(*this);
    const Eigen::Matrix4d M = flow.advance(Eigen::Matrix4d::Identity(), periods);
    const Eigen::EigenSolver<Eigen::Matrix4d> solver(M, false);
    std::vector<std::complex<double>> mu;
    for (int i = 0; i < 4; ++i) mu.push_back(solver.eigenvalues()[i]);
    return mu;
  }

 private:
  // The tangent flow of the stroboscopic map along the trajectory from where run() stopped; the
  // section is t = k T, where the forcing states (cos, sin) are fixed, so the map acts on
  // (x1, v1, x2, v2). A copy of the system carries the mode; the simulation's own state is untouched.
  class TangentFlow {
   public:
    explicit TangentFlow(const TwoBodySimulation& s)
        : TangentFlow(s.system_, s.x_, static_cast<double>(s.periods_) * s.period_, s.period_, s.control_, s.sample_) {}
    TangentFlow(const System& system, const TwoBodyState& x, double t, double period, const StepControl& control,
                const StrobeSample& sample)
        : system_(system), scratch_(sample), integrator_(control), x_(x), t_(t), period_(period) {
      system_.sample = &scratch_;
    }
    const TwoBodyState& state() const { return x_; }
    int mode() const { return system_.mode; }
    std::int64_t impacts() const { return scratch_.counters[0]; }  // counter 0 of both models: "impacts"
    // Maps the frame `frame` over `periods` periods and moves along the trajectory.
    Eigen::Matrix4d advance(const Eigen::Matrix4d& frame, int periods) {
      Eigen::Matrix<double, 6, 6> phi = Eigen::Matrix<double, 6, 6>::Identity();
      phi.template topLeftCorner<4, 4>() = frame;
      VariationalSystem<6, System> variational(system_);
      auto y = VariationalSystem<6, System>::pack(x_, phi);
      integrator_.advance(variational, t_, y, t_ + periods * period_);
      x_ = VariationalSystem<6, System>::state(y);
      x_[4] = 1.0;  // re-anchor the forcing phase, as the simulation does at every sample
      x_[5] = 0.0;
      return VariationalSystem<6, System>::phi(y).template topLeftCorner<4, 4>();
    }

   private:
    System system_;
    StrobeSample scratch_{};
    HybridIntegrator<VariationalSystem<6, System>::kSize> integrator_;
    TwoBodyState x_;
    double t_, period_;
  };

  StrobeFrame frame_;
  double period_;
  StepControl control_;
  System system_;
  HybridIntegrator<6> integrator_;
  TwoBodyState x_;
  std::int64_t periods_ = 0;
  StrobeSample sample_{};
  TraceSink* trace_ = nullptr;
};

}  // namespace vibro::two_body
