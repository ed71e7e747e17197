#include "models/dimer/dimer_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/core/case_budget.hpp"
#include "engine/impulse/velocity_contact_solver.hpp"
#include "models/dimer/dimer_impact.hpp"
#include "models/dimer/dimer_trace_row.hpp"

namespace vibro::dimer {

using impulse::LocalMatrix;
using impulse::LocalVector;

void describe_dimer_layout(StrobeLayout& layout, const std::string& contact_unit) {
  layout.state_units = {"m", "rad", "m/s", "m/s", "rad/s"};
  layout.drift_unit = "m";
  layout.drift_meaning = "X, the horizontal position of the dimer's centre";
  layout.counter_meanings = {"impacts of tip 1 (left ball) on the plate", "impacts of tip 2 (right ball) on the plate",
                             "impacts where both tips take an impulse at once",
                             contact_unit + " with tip 1 carrying a contact force",
                             contact_unit + " with tip 2 carrying a contact force", contact_unit + " in all"};
  layout.mode_meanings = {"no tip touches the plate", "tip 1 carries a contact force", "tip 2 carries a contact force",
                          "both tips carry a contact force"};
}

DimerSimulation::DimerSimulation(const DimerConstants& constants) : c_(constants) {
  const DimerBody& b = c_.body;
  inv_mass_ = {1 / b.m, 1 / b.m, 1 / b.I};
  h_ = c_.time_step();
  // The velocity-level law lets a closed contact's gap drift by O(h^2 acceleration) per step; a
  // few of those still count as closed (micro-hops are four orders of magnitude higher).
  gap_tol_ = 10 * h_ * h_ * (c_.g + c_.A * c_.omega * c_.omega);
  const double velocity_scale = c_.A > 0 ? c_.A * c_.omega : c_.g / c_.omega;
  slip_tol_ = 1e-6 * velocity_scale;
  layout_.state_names = {"Y", "theta", "Xdot", "Ydot", "thetadot"};
  const double length_scale = c_.A > 0 ? c_.A : 1e-6;
  layout_.state_scales = {length_scale, length_scale / b.l, velocity_scale, velocity_scale, velocity_scale / b.l};
  layout_.drift_scale = velocity_scale;
  layout_.period = c_.period;
  layout_.counter_names = {"impacts_tip1", "impacts_tip2", "double_impacts", "contact_steps_tip1",
                           "contact_steps_tip2", "steps"};
  layout_.mode_names = {"flight", "contact_tip1", "contact_tip2", "contact_both"};
  describe_dimer_layout(layout_, "time steps");
  // Released at rest with the lower tip at h0 (the report gives no initial plate phase; we take rest at t = 0); plate at its mean position at t = 0.
  sample_.aux[kMaxGapTip1] = sample_.aux[kMaxGapTip2] = -1e300;
  q_ = {0, c_.h0 + b.r + 0.5 * b.l * std::abs(std::sin(c_.theta0)), c_.theta0};
}

TraceLayout DimerSimulation::trace_layout() const { return dimer_trace_layout(); }

void DimerSimulation::attach_trace(TraceSink* sink) {
  sink_ = sink;
  if (sink) sink->skip_to((static_cast<double>(period_) + static_cast<double>(step_) / c_.steps_per_period) * c_.period);
}

// Grid times up to t get the current state: each one the state at the step boundary nearest it (the
// scheme has no dense output between steps).
void DimerSimulation::trace_to(double t) {
  sink_->fill_to(t, contact_mode(), [&](double, double* out) { dimer_trace_row(q_, v_, out); });
}

int DimerSimulation::contact_mode() const {
  return closed_[0] ? (closed_[1] ? kContactBoth : kContactTip1) : (closed_[1] ? kContactTip2 : kFlight);
}

int DimerSimulation::preferred_slip(double slip_velocity) const {
  if (std::abs(slip_velocity) <= slip_tol_) return 0;
  return slip_velocity > 0 ? 1 : -1;
}

// Impact on the active set at time t (engine/impulse through resolve_dimer_impact).
void DimerSimulation::impact_step(const int* tips, int count, double theta, double t) {
  const Eigen::Vector3d v_before = v_;
  const auto counted = sample_.counters;
  const DimerImpact impact = resolve_dimer_impact(c_, v_, theta, c_.plate_velocity(t), tips, count, stuck_);
  v_ += impact.velocity_jump;
  int loaded = 0;
  for (int a = 0; a < count; ++a) {
    point_.impact_impulse[tips[a]] = impact.normal_impulse[tips[a]];
    if (impact.approach[tips[a]] < -c_.closure_velocity)
      ++sample_.counters[static_cast<std::size_t>(tips[a] == 0 ? kImpactsTip1 : kImpactsTip2)];
    if (impact.normal_impulse[tips[a]] > 0) ++loaded;
  }
  if (loaded > 1) ++sample_.counters[kDoubleImpacts];
  if (sink_) {  // at the midpoint, where the scheme applies the impulse
    const std::string kind = counted_event_kind(layout_.counter_names, counted.data(), sample_.counters.data());
    const Eigen::Vector3d q_mid = q_ + 0.5 * h_ * v_before;
    double before[6], after[6];
    dimer_trace_row(q_mid, v_before, before);
    dimer_trace_row(q_mid, v_, after);
    sink_->on_event(t, kind.empty() ? "impact" : kind, before, after);
  }
  charge_events();
  if (++impacts_this_period_ > c_.impact_cap)
    throw CaseFailure("more than " + std::to_string(c_.impact_cap) + " impacts in one period at t = " + std::to_string(t));
}

// Gravity over the step plus the velocity-level contact impulses of the active tips (restitution
// 0: a closed contact keeps zero normal velocity; stick while |P_t| <= mu_s P_n, else slip at mu_c).
void DimerSimulation::contact_step(const int* tips, int count, const Jacobian& J, double t_end) {
  v_(1) -= c_.g * h_;
  closed_[0] = closed_[1] = false;
  stuck_[0] = stuck_[1] = false;
  if (count == 0) return;
  const LocalMatrix W = delassus(c_.body, J, tips, count);
  LocalVector u(2 * count);
  std::vector<impulse::VelocityContactLaw> laws;
  for (int a = 0; a < count; ++a) {
    u(a) = J.row(tips[a]).dot(v_) - c_.plate_velocity(t_end);
    u(count + a) = J.row(2 + tips[a]).dot(v_);
    laws.push_back({c_.mu_c, c_.mu_s, 0.0, preferred_slip(u(count + a))});
  }
  const impulse::VelocityContactSolution s = impulse::solve_velocity_contacts(W, u, laws);
  for (int a = 0; a < count; ++a) {
    v_ += inv_mass_.cwiseProduct(J.row(tips[a]).transpose() * s.impulse(a) +
                                 J.row(2 + tips[a]).transpose() * s.impulse(count + a));
    point_.contact_impulse[tips[a]] = s.impulse(a);
    if (s.impulse(a) > 0) {
      closed_[tips[a]] = true;
      stuck_[tips[a]] = s.status[static_cast<std::size_t>(a)] == impulse::ContactStatus::Stick;
      ++sample_.counters[static_cast<std::size_t>(tips[a] == 0 ? kContactStepsTip1 : kContactStepsTip2)];
    }
  }
}

void DimerSimulation::step() {
  charge_step();
  const double t = (static_cast<double>(period_) + static_cast<double>(step_) / c_.steps_per_period) * c_.period;
  const double t_mid = t + 0.5 * h_, t_end = t + h_;
  if (sink_) trace_to(t_mid);
  const Eigen::Vector3d q_mid = q_ + 0.5 * h_ * v_;
  const Eigen::Vector2d gaps = tip_heights(c_.body, q_mid(1), q_mid(2)).array() - c_.plate_height(t_mid);
  point_ = DimerTracePoint{};
  int tips[2];
  int count = 0;
  for (int i = 0; i < 2; ++i)
    if (gaps(i) <= gap_tol_) tips[count++] = i;
  // Both tips on the plate means theta = 0 up to the penetration of one step: take the contact
  // geometry at theta = 0 (the report leaves this superstatic split open; the symmetric split is the one that keeps the motion symmetric), where both tips slip together and a double stick is
  // superstatic, instead of a nearly singular geometry whose tiny tilt decides the stick test.
  const Jacobian J = contact_jacobian(c_.body, count == 2 ? 0.0 : q_mid(2));
  for (int a = 0; a < count; ++a) {
    if (J.row(tips[a]).dot(v_) - c_.plate_velocity(t_mid) < -c_.closure_velocity) {
      impact_step(tips, count, q_mid(2), t_mid);
      break;
    }
  }
  contact_step(tips, count, J, t_end);
  q_ = q_mid + 0.5 * h_ * v_;
  if (!std::isfinite(q_.sum() + v_.sum())) throw CaseFailure("non-finite state at t = " + std::to_string(t_end));
  // Per-period extremes and the running integral of theta.
  if (sink_) trace_to(t_end);
  ++sample_.counters[kSteps];
  theta_integral_period_ += q_(2) * h_;
  sample_.aux[kMaxAbsTheta] = std::max(sample_.aux[kMaxAbsTheta], std::abs(q_(2)));
  const Eigen::Vector2d heights = tip_heights(c_.body, q_(1), q_(2)).array() - c_.plate_height(t_end);
  sample_.aux[kMaxGapTip1] = std::max(sample_.aux[kMaxGapTip1], heights(0));
  sample_.aux[kMaxGapTip2] = std::max(sample_.aux[kMaxGapTip2], heights(1));
  if (trace_) {
    const Jacobian J_end = contact_jacobian(c_.body, q_(2));
    point_.t = t_end;
    point_.X = q_(0);
    point_.Y = q_(1);
    point_.theta = q_(2);
    for (int i = 0; i < 2; ++i) {
      point_.gap[i] = heights(i);
      point_.slip[i] = J_end.row(2 + i).dot(v_);
    }
    trace_->push_back(point_);
  }
  if (++step_ == c_.steps_per_period) {
    step_ = 0;
    ++period_;
  }
}

StrobeSample DimerSimulation::make_sample() {
  sample_.period = period_;
  sample_.time = static_cast<double>(period_) * c_.period;
  sample_.mode = contact_mode();
  sample_.drift_position = q_(0);
  sample_.state[0] = q_(1);
  sample_.state[1] = q_(2);
  sample_.state[2] = v_(0);
  sample_.state[3] = v_(1);
  sample_.state[4] = v_(2);
  sample_.aux[kThetaIntegral] += theta_integral_period_;
  sample_.aux[kMeanTheta] = theta_integral_period_ / c_.period;
  return sample_;
}

void DimerSimulation::run(StrobeObserver& observer) {
  while (true) {
    do step();
    while (step_ != 0);
    const StrobeSample sample = make_sample();
    if (sink_) trace_to(sample.time);  // the last step ends at k T only up to rounding
    // The next period's extremes start afresh.
    theta_integral_period_ = 0;
    impacts_this_period_ = 0;
    sample_.aux[kMaxAbsTheta] = 0;
    sample_.aux[kMaxGapTip1] = sample_.aux[kMaxGapTip2] = -1e300;
    if (!observer.on_sample(sample)) return;
  }
}

bool DimerSimulation::restart_from(const StrobeSample& sample) {
  const Eigen::Vector3d q(sample.drift_position, sample.state[0], sample.state[1]);
  const Eigen::Vector3d v(sample.state[2], sample.state[3], sample.state[4]);
  if (!std::isfinite(q.sum() + v.sum())) return false;
  const double t = static_cast<double>(sample.period) * c_.period;
  const Eigen::Vector2d gaps = tip_heights(c_.body, q(1), q(2)).array() - c_.plate_height(t);
  if (gaps.minCoeff() < -1e3 * gap_tol_) return false;  // penetrating: not a state of this system
  q_ = q;
  v_ = v;
  period_ = sample.period;
  step_ = 0;
  sample_.counters = sample.counters;
  sample_.aux = sample.aux;
  closed_[0] = sample.mode == kContactTip1 || sample.mode == kContactBoth;
  closed_[1] = sample.mode == kContactTip2 || sample.mode == kContactBoth;
  return true;
}

}  // namespace vibro::dimer
