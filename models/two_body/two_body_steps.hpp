#pragma once
// What Models A and B share as two bodies on a line with a contact between them, both carried as
// the state (x1, v1, x2, v2, cos wt, sin wt): per-step tracking of the window extremes (exact, at
// the roots of the velocities on the step's dense output), the period loop that samples the
// stroboscopic map at t = k T, and the Simulation around a hybrid system that runs it.
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
#include "models/two_body/two_body_trace.hpp"

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
void track_step_extremes(const DenseStep<6>& step, double theta_end, const StepGeometry& geometry, bool in_contact,
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
void track_contact_force(const DenseStep<6>& step, double theta_end, ContactForce&& force_of_state,
                         StrobeAux& aux) {
  for (int i = 0; i <= 8; ++i) aux[kMinContactForce] = std::min(aux[kMinContactForce], force_of_state(step.at(theta_end * i / 8)));
}

inline void reset_period_extremes(StrobeAux& aux) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  aux[kMaxX1] = aux[kMaxU2] = -inf;
  aux[kMinX1] = aux[kMinU2] = aux[kMinContactForce] = inf;
  aux[kMaxForce] = aux[kMaxPenetration] = aux[kContactTime] = 0;
}

// How a two-body model's samples are read and taken: the layout, body 2's rest coordinate (the
// sampled u2 = x2 - rest2) and the counter of rejected steps.
struct StrobeFrame {
  StrobeLayout layout;
  double rest2;
  int rejected_counter;
};

// Integrates period after period, sampling (x1, v1, u2, v2) and the mode at t = k T, until the
// observer says stop. `periods` is the number of samples emitted so far. With a trace, the system
// runs wrapped so that its dense output and events reach the sink.
template <class System>
void run_periods(HybridIntegrator<6>& integrator, System& system, TwoBodyState& x, std::int64_t& periods,
                 double period, const StrobeFrame& frame, StrobeSample& sample, StrobeObserver& observer,
                 TraceSink* trace) {
  const double rest2 = frame.rest2;
  double t = static_cast<double>(periods) * period;
  while (true) {
    const double t_next = static_cast<double>(periods + 1) * period;
    try {
      if (trace) {
        TracedTwoBody<System> traced(system, *trace, frame.layout, rest2);
        integrator.advance(traced, t, x, t_next);
        // The last step ends at t_next only up to rounding: the sample's grid time gets the sample.
        trace->fill_to(t_next, static_cast<int>(system.mode), [&](double, double* out) { two_body_trace_state(x, rest2, out); });
      } else {
        integrator.advance(system, t, x, t_next);
      }
    } catch (const StepFailure& failure) {
      throw CaseFailure(failure.what());
    }
    // Re-anchor the forcing oscillator exactly at phase 0 (no drift of cos^2 + sin^2 over a run).
    x[4] = 1.0;
    x[5] = 0.0;
    t = t_next;
    ++periods;
    sample.period = periods;
    sample.time = t;
    sample.mode = system.mode;
    sample.drift_position = 0;  // no transport in these models
    sample.state[0] = x[0];
    sample.state[1] = x[1];
    sample.state[2] = x[2] - rest2;
    sample.state[3] = x[3];
    sample.counters[static_cast<std::size_t>(frame.rejected_counter)] = integrator.stats().rejected;
    if (!x.allFinite()) throw CaseFailure("non-finite state at t = " + std::to_string(t));
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
    if (!system_.restart(sample, x_)) return false;
    periods_ = sample.period;
    sample_.counters = sample.counters;
    integrator_.reset_step();
    return true;
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
