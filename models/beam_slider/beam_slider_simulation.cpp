#include "models/beam_slider/beam_slider_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace vibro::beam_slider {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

int steps_per_period(const BeamSliderConstants& c, const BeamAxis& axis) {
  const double dt_max = 2 * kPi / (c.steps_per_mode * axis.omega(axis.modes() - 1));
  return static_cast<int>(std::ceil(c.period() / dt_max - 1e-9));
}

StrobeLayout beam_slider_layout(const BeamSliderSystem& system) {
  StrobeLayout layout;
  const int N = system.axis().modes();
  for (int n = 0; n < N; ++n) {
    layout.state_names.push_back("q_B" + std::to_string(n + 1));
    layout.state_scales.push_back(1e-6);  // kg^(1/2) m: w ~ 1e-4 m
  }
  for (const char* name : {"x_C", "z_C"}) {
    layout.state_names.push_back(name);
    layout.state_scales.push_back(1e-4);
  }
  layout.state_names.push_back("phi");
  layout.state_scales.push_back(1e-3);
  for (int n = 0; n < N; ++n) {
    layout.state_names.push_back("u_B" + std::to_string(n + 1));
    layout.state_scales.push_back(1e-3);
  }
  for (const char* name : {"v_x", "v_z"}) {
    layout.state_names.push_back(name);
    layout.state_scales.push_back(1e-2);
  }
  layout.state_names.push_back("phi_dot");
  layout.state_scales.push_back(1.0);
  layout.drift_scale = 1e-3;
  layout.period = system.constants().period();
  layout.counter_names = {"steps",        "closed_P1",     "closed_P2",   "closed_P3", "closed_P4",
                          "contact_steps", "solver_sweeps", "unconverged_steps"};
  layout.mode_names = {"open", "one_contact", "two_contacts", "three_contacts", "four_contacts"};
  // Spec 3.4's steady-state test (run.steady_state = means): window means of x_C within 0.005 l and of
  // the mechanical energy within 5 %.
  layout.settled_means = {{kIntX, 0.005 * system.constants().length, false}, {kIntEnergy, 0.05, true}};
  return layout;
}

BeamSliderSimulation::BeamSliderSimulation(const BeamSliderConstants& constants)
    : system_(constants), stepper_(system_, constants.solver), layout_(beam_slider_layout(system_)),
      steps_per_period_(steps_per_period(constants, system_.axis())),
      dt_(constants.period() / steps_per_period_) {
  system_.initial_state(q_, u_);
}

double BeamSliderSimulation::time_at_step() const {
  // Whole periods plus steps: no accumulated round-off over long runs.
  return (static_cast<double>(period_) + static_cast<double>(step_in_period_) / steps_per_period_) *
         system_.constants().period();
}

TraceLayout BeamSliderSimulation::trace_layout() const {
  TraceLayout out;
  out.components = layout_.state_names;
  const int N = system_.axis().modes();
  for (int n = 0; n < N; ++n) out.units.push_back("kg^(1/2) m");  // modal coordinates
  for (const char* unit : {"m", "m", "rad"}) out.units.push_back(unit);
  for (int n = 0; n < N; ++n) out.units.push_back("kg^(1/2) m/s");
  for (const char* unit : {"m/s", "m/s", "rad/s"}) out.units.push_back(unit);
  return out;
}

void BeamSliderSimulation::attach_trace(TraceSink* sink) {
  sink_ = sink;
  if (sink) sink->skip_to(time_at_step());
}

void BeamSliderSimulation::trace_state(double* out) const {
  const auto dims = static_cast<std::size_t>(q_.size());
  for (std::size_t i = 0; i < dims; ++i) {
    out[i] = q_(static_cast<Eigen::Index>(i));
    out[dims + i] = u_(static_cast<Eigen::Index>(i));
  }
}

// Grid times up to t get the current state: each one the state at the step boundary nearest it (the
// scheme has no dense output between steps).
void BeamSliderSimulation::trace_to(double t) {
  sink_->fill_to(t, stepper_.closed().count, [&](double, double* out) { trace_state(out); });
}

timestepping::StepReport BeamSliderSimulation::step() {
  const double t = time_at_step();
  std::vector<double> before;
  const int mode_before = stepper_.closed().count;
  if (sink_) {
    trace_to(t + 0.5 * dt_);
    before.resize(static_cast<std::size_t>(2 * q_.size()));
    trace_state(before.data());
  }
  const timestepping::StepReport report = stepper_.step(q_, u_, t, dt_);
  if (sink_) {
    trace_to(t + dt_);
    if (stepper_.closed().count != mode_before) {
      std::vector<double> after(before.size());
      trace_state(after.data());
      sink_->on_event(t + dt_, mode_switch_kind(layout_.mode_names, mode_before, stepper_.closed().count), before.data(),
                      after.data());
    }
  }
  if (++step_in_period_ == steps_per_period_) {
    step_in_period_ = 0;
    ++period_;
  }
  auto& n = sample_.counters;
  auto& a = sample_.aux;
  ++n[kSteps];
  if (report.contacts > 0) ++n[kContactSteps];
  n[kSolverSweeps] += report.iterations;
  if (!report.converged) ++n[kUnconverged];
  a[kMaxSweeps] = std::max(a[kMaxSweeps], static_cast<double>(report.iterations));
  const auto& closed = stepper_.closed();
  const auto P = stepper_.percussions();
  for (int k = 0; k < closed.count; ++k)
    if (P(2 * k) > 0) ++n[static_cast<std::size_t>(kClosedP1 + closed.id[static_cast<std::size_t>(k)])];
  const int x = system_.x_index();
  a[kImpulseX] += stepper_.contact_impulse()(x);
  a[kIntX] += dt_ * q_(x);
  a[kIntEnergy] += dt_ * system_.mechanical_energy(q_, u_);
  a[kIntRotEnergy] += dt_ * system_.rotational_energy(u_);
  a[kIntAxialEnergy] += dt_ * 0.5 * system_.constants().mass * u_(x) * u_(x);
  return report;
}

void BeamSliderSimulation::fill_sample() {
  sample_.period = period_;
  sample_.time = static_cast<double>(period_) * system_.constants().period();
  sample_.mode = stepper_.closed().count;
  const int x = system_.x_index();
  sample_.drift_position = q_(x);
  const int dims = static_cast<int>(q_.size());
  for (int i = 0; i < dims; ++i) {
    sample_.state[static_cast<std::size_t>(i)] = q_(i);
    sample_.state[static_cast<std::size_t>(dims + i)] = u_(i);
  }
  if (!std::isfinite(q_.sum() + u_.sum()))
    throw CaseFailure("non-finite state at t = " + std::to_string(sample_.time) + " s");
}

void BeamSliderSimulation::run(StrobeObserver& observer) {
  for (;;) {
    do {
      step();
    } while (step_in_period_ != 0);
    fill_sample();
    if (sink_) trace_to(sample_.time);  // the last step ends at k T only up to rounding
    if (!observer.on_sample(sample_)) return;
  }
}

bool BeamSliderSimulation::restart_from(const StrobeSample& sample) {
  const int dims = static_cast<int>(q_.size());
  Eigen::VectorXd q(dims), u(dims);
  for (int i = 0; i < dims; ++i) {
    q(i) = sample.state[static_cast<std::size_t>(i)];
    u(i) = sample.state[static_cast<std::size_t>(dims + i)];
  }
  if (!std::isfinite(q.sum() + u.sum())) return false;
  const int x = system_.x_index();
  if (system_.constants().variant != Variant::Adaptive) {  // the bearing holds x_C where this case puts it
    q(x) = system_.constants().x_start;
    u(x) = 0;
  }
  q_ = q;
  u_ = u;
  period_ = sample.period;
  step_in_period_ = 0;
  sample_.counters = sample.counters;
  sample_.aux = sample.aux;
  stepper_.reset_warm_start();
  return true;
}

}  // namespace vibro::beam_slider
