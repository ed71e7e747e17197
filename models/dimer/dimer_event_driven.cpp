#include "models/dimer/dimer_event_driven.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/case_budget.hpp"
#include "engine/events/dense_enclosure.hpp"
#include "engine/interval/interval.hpp"
#include "engine/roots/enclosure_first_root.hpp"
#include "models/dimer/dimer_impact.hpp"
#include "models/dimer/dimer_simulation.hpp"
#include "models/dimer/dimer_trace_row.hpp"

namespace vibro::dimer {

namespace {
// Contact time is counted in ticks of T / 2^20 (the counters are integers).
constexpr double kTicksPerPeriod = 1048576.0;
constexpr int kFlightSamples = 16;  // points per flight for the per-period highest tip
constexpr int kMaxStalledEvents = 1000;

enum Guard { kOtherGap, kDetach, kSlip, kGuards };

bool guard_active(const TipStatus status[2], int guard) {
  const bool both = closed(status[0]) && closed(status[1]);
  if (guard == kOtherGap) return !both;
  if (guard == kSlip) return !(both && status[0] == TipStatus::Stick);
  return true;
}

// The contact phase's event functions at one state (any scalar type): each falls through zero at its
// event. kOtherGap: the open tip's gap; kDetach: the lowest contact force; kSlip: sigma times the slip
// velocity of a slipping tip, or mu_s F_n - |F_t| of a stuck one. Absent guards stay at +1.
template <class T>
void guard_values(const DimerConstants& c, const TipStatus status[2], const T y[6], const T& t, T out[kGuards]) {
  using std::sin;
  const ContactForces<T> f = contact_forces(c, status, y[2], y[5], t);
  for (int g = 0; g < kGuards; ++g) out[g] = T(1.0);
  const double L = 0.5 * c.body.l;
  if (closed(status[0]) && closed(status[1])) {
    // Both forces are positive multiples of their sum (the friction torque ratio r mu_c / (l/2) < 1).
    out[kDetach] = f.normal[0] + f.normal[1];
    if (status[0] != TipStatus::Stick) out[kSlip] = static_cast<double>(slip_sign(status[0])) * y[3];
    return;
  }
  const int i = closed(status[0]) ? 0 : 1, j = 1 - i;
  out[kOtherGap] = y[1] + tip_side(j) * L * sin(y[2]) - c.body.r + c.A * sin(c.omega * t);
  out[kDetach] = f.normal[i];
  if (status[i] == TipStatus::Stick) {
    using vibro::abs;
    using std::abs;
    out[kSlip] = c.mu_s * f.normal[i] - abs(f.tangential[i]);
  } else {
    out[kSlip] = static_cast<double>(slip_sign(status[i])) * (y[3] + (c.body.r - tip_side(i) * L * sin(y[2])) * y[5]);
  }
}
}  // namespace

DimerEventDriven::DimerEventDriven(const DimerConstants& constants) : c_(constants) {
  const DimerBody& b = c_.body;
  const double velocity_scale = c_.A > 0 ? c_.A * c_.omega : c_.g / c_.omega;
  slip_tol_ = 1e-6 * velocity_scale;
  simultaneous_gap_ = 1e-9 * (c_.A > 0 ? c_.A : 1e-6);
  control_.rtol = 1e-10;
  control_.atol = 1e-12;
  control_.h_max = c_.period / 20;
  layout_.state_names = {"Y", "theta", "Xdot", "Ydot", "thetadot"};
  const double length_scale = c_.A > 0 ? c_.A : 1e-6;
  layout_.state_scales = {length_scale, length_scale / b.l, velocity_scale, velocity_scale, velocity_scale / b.l};
  layout_.drift_scale = velocity_scale;
  layout_.period = c_.period;
  layout_.counter_names = {"impacts_tip1", "impacts_tip2", "double_impacts", "contact_ticks_tip1", "contact_ticks_tip2",
                           "ticks"};
  layout_.mode_names = {"flight", "contact_tip1", "contact_tip2", "contact_both"};
  describe_dimer_layout(layout_, "ticks of T / 2^20");
  sample_.aux[kMaxGapTip1] = sample_.aux[kMaxGapTip2] = -1e300;
  // Released at rest with the lower tip at h0; plate at its mean position at t = 0.
  y_(1) = c_.h0 + b.r + 0.5 * b.l * std::abs(std::sin(c_.theta0));
  y_(2) = c_.theta0;
}

double DimerEventDriven::gap(const DimerState& y, double t, int tip) const {
  return y(1) + tip_side(tip) * 0.5 * c_.body.l * std::sin(y(2)) - c_.body.r - c_.plate_height(t);
}
double DimerEventDriven::normal_velocity(const DimerState& y, double t, int tip) const {
  return y(4) + tip_side(tip) * 0.5 * c_.body.l * std::cos(y(2)) * y(5) - c_.plate_velocity(t);
}
double DimerEventDriven::slip_velocity(const DimerState& y, int tip) const {
  return y(3) + (c_.body.r - tip_side(tip) * 0.5 * c_.body.l * std::sin(y(2))) * y(5);
}

int DimerEventDriven::contact_mode() const {
  const bool c0 = closed(status_[0]), c1 = closed(status_[1]);
  return c0 ? (c1 ? kContactBoth : kContactTip1) : (c1 ? kContactTip2 : kFlight);
}

void DimerEventDriven::project(DimerState& y, double t) const {
  const bool both = closed(status_[0]) && closed(status_[1]);
  if (both) {  // theta = 0, thetadot = 0: one body sliding on the plate
    y(2) = y(5) = 0;
    y(1) = c_.plate_height(t) + c_.body.r;
    y(4) = c_.plate_velocity(t);
    if (status_[0] == TipStatus::Stick) y(3) = 0;
    return;
  }
  for (int i = 0; i < 2; ++i) {
    if (!closed(status_[i])) continue;
    y(1) -= gap(y, t, i);
    y(4) -= normal_velocity(y, t, i);
    if (status_[i] == TipStatus::Stick) y(3) -= slip_velocity(y, i);
  }
}

TraceLayout DimerEventDriven::trace_layout() const { return dimer_trace_layout(); }

void DimerEventDriven::attach_trace(TraceSink* sink) {
  sink_ = sink;
  if (sink) sink->skip_to(t_);
}

DimerEventDriven::EventStart DimerEventDriven::event_start() const {
  EventStart start{};
  if (sink_) {
    dimer_trace_row(y_, start.state);
    start.counters = sample_.counters;
  }
  return start;
}

// Impacts are named by the counters they advanced, as in the Moreau-Jean scheme ("impacts_tip1",
// "impacts_tip1+double_impacts"); an event that counted nothing by uncounted_kind.
void DimerEventDriven::report_event(const EventStart& start, const char* uncounted_kind) {
  if (!sink_) return;
  const std::string counted = counted_event_kind(layout_.counter_names, start.counters.data(), sample_.counters.data());
  double after[6];
  dimer_trace_row(y_, after);
  sink_->on_event(t_, counted.empty() ? uncounted_kind : counted, start.state, after);
}

void DimerEventDriven::open_tip(int tip, bool at_rest) {
  status_[tip] = TipStatus::Open;
  anchored_[tip] = true;
  at_rest_[tip] = at_rest;
}

// A closed tip with zero slip sticks when the friction that sticking needs stays below mu_s F_n
// (the correlative coefficient mu_st < mu_s), else slips on the side of that force.
void DimerEventDriven::assign_tangential(int tip) {
  const bool both = closed(status_[0]) && closed(status_[1]);
  const double v = both ? y_(3) : slip_velocity(tip);
  if (std::abs(v) > slip_tol_) {
    const TipStatus s = v > 0 ? TipStatus::SlipPlus : TipStatus::SlipMinus;
    status_[tip] = s;
    if (both) status_[0] = status_[1] = s;
    return;
  }
  if (both) {  // superstatic double stick at theta = 0 needs no friction (mu_st = 0)
    status_[0] = status_[1] = TipStatus::Stick;
    return;
  }
  status_[tip] = TipStatus::Stick;
  const ContactForces<double> f = contact_forces(c_, status_, y_(2), y_(5), t_);
  if (f.normal[tip] > 0 && std::abs(f.tangential[tip]) < c_.mu_s * f.normal[tip]) return;
  status_[tip] = f.tangential[tip] > 0 ? TipStatus::SlipMinus : TipStatus::SlipPlus;
}

// After an impact or a closure: tangential states of the closed tips, projection, then any closed
// tip whose contact force is not positive leaves the plate at rest (its free acceleration is upward).
void DimerEventDriven::settle() {
  for (int i = 0; i < 2; ++i)
    if (closed(status_[i])) assign_tangential(i);
  project();
  if (!closed(status_[0]) && !closed(status_[1])) return;
  const ContactForces<double> f = contact_forces(c_, status_, y_(2), y_(5), t_);
  if (closed(status_[0]) && closed(status_[1])) {
    if (f.normal[0] + f.normal[1] <= 0) open_tip(0, true), open_tip(1, true);
    return;
  }
  for (int i = 0; i < 2; ++i)
    if (closed(status_[i]) && !(f.normal[i] > 0)) open_tip(i, true);
}

void DimerEventDriven::close_tip(int tip) {
  status_[tip] = TipStatus::SlipPlus;  // placeholder until settle() reads the slip
  anchored_[tip] = at_rest_[tip] = false;
  settle();
}

void DimerEventDriven::impact(int tip) {
  int tips[2] = {tip, -1};
  int count = 1;
  const int other = 1 - tip;
  if (closed(status_[other])) tips[count++] = other;
  const bool stuck[2] = {status_[0] == TipStatus::Stick, status_[1] == TipStatus::Stick};
  const Eigen::Vector3d v(y_(3), y_(4), y_(5));
  const DimerImpact result = resolve_dimer_impact(c_, v, y_(2), c_.plate_velocity(t_), tips, count, stuck);
  y_.tail<3>() += result.velocity_jump;
  int loaded = 0;
  for (int a = 0; a < count; ++a) {
    const int i = tips[a];
    if (result.approach[i] < -c_.closure_velocity) ++sample_.counters[static_cast<std::size_t>(i == 0 ? kImpactsTip1 : kImpactsTip2)];
    if (result.normal_impulse[i] > 0) ++loaded;
  }
  if (loaded > 1) ++sample_.counters[kDoubleImpacts];
  charge_events();
  ++impacts_this_period_;
  // Each active tip: leaving faster than the closure speed it is open (and on the plate, its gap
  // exactly 0); slower, the contact closes with zero normal velocity.
  for (int a = 0; a < count; ++a) {
    const int i = tips[a];
    if (normal_velocity(i) >= c_.closure_velocity) open_tip(i, false);
    else status_[i] = TipStatus::SlipPlus, anchored_[i] = at_rest_[i] = false;
  }
  settle();
}

void DimerEventDriven::touch(int tip, bool with_other) {
  const EventStart start = event_start();
  const int other = 1 - tip;
  const bool hits = std::min(normal_velocity(tip), with_other ? normal_velocity(other) : 0.0) < -c_.closure_velocity &&
                    impacts_this_period_ < c_.impact_cap;
  if (hits) {
    if (with_other) status_[other] = TipStatus::SlipPlus, anchored_[other] = at_rest_[other] = false;  // in the set
    impact(tip);
  } else {
    if (with_other) status_[other] = TipStatus::SlipPlus, anchored_[other] = at_rest_[other] = false;
    close_tip(tip);
  }
  report_event(start, hits ? "impact" : "closure");  // an uncounted impact: approach below the closure speed
}

void DimerEventDriven::track_flight(double tau_from, double tau_to) {
  const DimerFlight& f = *flight_;
  const DimerState& s = f.start();
  theta_integral_period_ += (tau_to - tau_from) * (s(2) + 0.5 * s(5) * (tau_to + tau_from));
  for (double tau : {tau_from, tau_to})
    sample_.aux[kMaxAbsTheta] = std::max(sample_.aux[kMaxAbsTheta], std::abs(s(2) + s(5) * tau));
  for (int k = 0; k <= kFlightSamples; ++k) {
    const double tau = tau_from + (tau_to - tau_from) * k / kFlightSamples;
    sample_.aux[kMaxGapTip1] = std::max(sample_.aux[kMaxGapTip1], f.gap(0, tau));
    sample_.aux[kMaxGapTip2] = std::max(sample_.aux[kMaxGapTip2], f.gap(1, tau));
  }
}

void DimerEventDriven::track_step(const DenseStep<6>& step, double theta_end) {
  double c[5];
  step.component_polynomial(2, c);
  double integral = 0, power = theta_end;
  for (int k = 0; k < 5; ++k, power *= theta_end) integral += c[k] * power / (k + 1);
  theta_integral_period_ += integral * step.h;
  const double duration = theta_end * step.h;
  for (int i = 0; i < 2; ++i)
    if (closed(status_[i])) contact_time_period_[i] += duration;
  const DimerState end = step.at(theta_end);
  sample_.aux[kMaxAbsTheta] = std::max(sample_.aux[kMaxAbsTheta], std::abs(end(2)));
  const double t = step.t0 + duration, L = 0.5 * c_.body.l;
  for (int i = 0; i < 2; ++i) {
    const double height = closed(status_[i]) ? 0.0 : end(1) + tip_side(i) * L * std::sin(end(2)) - c_.body.r - c_.plate_height(t);
    double& max_gap = sample_.aux[static_cast<std::size_t>(i == 0 ? kMaxGapTip1 : kMaxGapTip2)];
    max_gap = std::max(max_gap, height);
  }
}

void DimerEventDriven::fly(double t_end) {
  if (!flight_) {
    double gap0[2];
    for (int i = 0; i < 2; ++i) gap0[i] = anchored_[i] ? 0.0 : std::max(gap(i), 0.0);
    flight_.emplace(c_, t_, y_, gap0, at_rest_);
    flight_tau_ = 0;
    anchored_[0] = anchored_[1] = at_rest_[0] = at_rest_[1] = false;
  }
  const double tau_end = t_end - flight_->t0();
  const FlightEvent event = flight_->first_contact(flight_tau_, tau_end);
  const double tau = event.kind == FlightEnd::None ? tau_end : event.tau;
  track_flight(flight_tau_, tau);
  if (sink_)  // grid times up to the flight's end or contact, exact from the closed form
    sink_->fill_to(flight_->t0() + tau, contact_mode(), [&](double t, double* out) {
      dimer_trace_row(flight_->state_at(t - flight_->t0()), out);
    });
  y_ = flight_->state_at(tau);
  if (event.kind == FlightEnd::None) {
    flight_tau_ = tau_end;
    t_ = t_end;
    return;
  }
  t_ = flight_->t0() + tau;
  if (flight_log_) flight_log_->on_flight(*flight_, tau);
  // A flat flight (after both tips left the plate together, theta = thetadot = 0) lands on both tips
  // at once: their gaps are the same function. That is one double impact, not two single impacts in
  // turn (which would kick the tilt and rock the dimer).
  const int other = 1 - event.tip;
  const bool both = std::abs(flight_->gap(other, tau)) <= simultaneous_gap_ && flight_->gap_rate(other, tau) < 0;
  flight_.reset();
  if (both) y_(2) = 0;
  y_(1) -= gap(event.tip);  // on the plate exactly (the root is at or just past the zero)
  touch(event.tip, both);
}

void DimerEventDriven::contact_phase(double t_end) {
  auto rhs = [this](double t, const DimerState& y, DimerState& dy) {
    const ContactForces<double> f = contact_forces(c_, status_, y(2), y(5), t);
    if (!(f.normal_stiffness > 0))
      throw CaseFailure("Painleve configuration (A - mu sigma B <= 0) at t = " + std::to_string(t));
    dy.head<3>() = y.tail<3>();
    for (int k = 0; k < 3; ++k) dy(3 + k) = f.acceleration[k];
  };
  DimerState k1, y_new, k_new;
  rhs(t_, y_, k1);
  if (h_ <= 0) h_ = c_.period / 200;
  while (t_ < t_end) {
    const double room = t_end - t_;
    const bool last = h_ >= room;
    const double h = last ? room : h_;
    DenseStep<6> step;
    double h_next = h;
    int evaluations = 0;
    if (!stepper_.attempt(rhs, t_, y_, k1, h, control_, y_new, k_new, step, h_next, evaluations)) {
      h_ = h_next;
      if (h_ < control_.h_min * std::max(1.0, std::fabs(t_))) throw CaseFailure("step size underflow at t = " + std::to_string(t_));
      continue;
    }
    if (!last || h_next < h_) h_ = h_next;
    // The first event of each guard on this step, by enclosures of the guard over parts of it.
    double first = 2;
    int which = -1;
    for (int g = 0; g < kGuards; ++g) {
      if (!guard_active(status_, g)) continue;
      auto value = [&](double theta) {
        const DimerState x = step.at(theta);
        double out[kGuards];
        guard_values<double>(c_, status_, x.data(), step.t0 + theta * step.h, out);
        return out[g];
      };
      auto enclose = [&](double a, double b) {
        const DenseBox<6> box = enclose_dense(step, a, b);
        DualInterval x[6];
        for (int k = 0; k < 6; ++k) x[k] = DualInterval(Interval(box.lo[k], box.hi[k]), Interval(box.slope_lo[k], box.slope_hi[k]));
        const DualInterval t(Interval(step.t0 + a * step.h, step.t0 + b * step.h), Interval(step.h));
        DualInterval out[kGuards];
        guard_values<DualInterval>(c_, status_, x, t, out);
        return GuardEnclosure{out[g].v, out[g].d};
      };
      const EnclosedRoot root = enclosure_first_root(value, enclose, 1e-12);
      if (root.exhausted) throw CaseFailure("contact-phase events could not be bounded on the step at t = " + std::to_string(t_));
      if (root.found && root.theta < first) first = root.theta, which = g;
    }
    if (which < 0) {
      track_step(step, 1.0);
      t_ = last ? t_end : t_ + h;
      y_ = y_new;
      project();
      if (sink_) trace_step(step);
      rhs(t_, y_, k1);
      continue;
    }
    track_step(step, first);
    y_ = step.at(first);
    t_ = step.t0 + first * step.h;
    project();
    if (sink_) trace_step(step);
    on_contact_event(which);
    return;  // a new mode (or a flight) follows
  }
}

// Grid times of the step up to t_ (where the step was cut): the dense output projected as the step's
// end is; t_ itself is the state the phase goes on from.
void DimerEventDriven::trace_step(const DenseStep<6>& step) {
  sink_->fill_to(t_, contact_mode(), [&](double t, double* out) {
    if (t >= t_) return dimer_trace_row(y_, out);
    DimerState x = step.at((t - step.t0) / step.h);
    project(x, t);
    dimer_trace_row(x, out);
  });
}

void DimerEventDriven::on_contact_event(int guard) {
  charge_events();
  const bool both = closed(status_[0]) && closed(status_[1]);
  if (guard == kOtherGap) {
    const int j = closed(status_[0]) ? 1 : 0;
    // Both tips on the plate: theta = 0 exactly.
    y_(2) = 0;
    y_(1) = c_.plate_height(t_) + c_.body.r;
    touch(j, false);
    return;
  }
  const EventStart start = event_start();
  if (guard == kDetach) {
    for (int i = 0; i < 2; ++i)
      if (closed(status_[i])) open_tip(i, true);
    report_event(start, "detachment");
    return;
  }
  // kSlip: the slip velocity reached zero (stick test), or a stuck tip's friction reached mu_s F_n.
  const int first_closed = closed(status_[0]) ? 0 : 1;
  const TipStatus was = status_[first_closed];
  for (int i = 0; i < 2; ++i) {
    if (!closed(status_[i])) continue;
    if (status_[i] == TipStatus::Stick) {
      const ContactForces<double> f = contact_forces(c_, status_, y_(2), y_(5), t_);
      status_[i] = f.tangential[i] > 0 ? TipStatus::SlipMinus : TipStatus::SlipPlus;
    } else {
      if (both) y_(3) = 0;
      else y_(3) -= slip_velocity(i);
      status_[i] = TipStatus::Stick;
      assign_tangential(i);
    }
    if (both) break;
  }
  if (both) status_[1] = status_[0];
  project();
  const TipStatus now = status_[first_closed];
  report_event(start, was == TipStatus::Stick    ? "stick_to_slip"
                      : now == TipStatus::Stick ? "slip_to_stick"
                      : now != was              ? "slip_reversal"
                                                : "slip_resumed");  // slip speed touched zero, same side
}

void DimerEventDriven::advance(double t_end) {
  int stalled = 0;  // events in a row without time advancing (an unresolved accumulation)
  while (t_ < t_end) {
    const double t_before = t_;
    if (!closed(status_[0]) && !closed(status_[1])) fly(t_end);
    else contact_phase(t_end);
    if (!std::isfinite(y_.sum())) throw CaseFailure("non-finite state at t = " + std::to_string(t_));
    stalled = t_ > t_before ? 0 : stalled + 1;
    if (stalled > kMaxStalledEvents) throw CaseFailure("events repeat without time advancing at t = " + std::to_string(t_));
  }
}

StrobeSample DimerEventDriven::make_sample() {
  sample_.period = period_;
  sample_.time = static_cast<double>(period_) * c_.period;
  sample_.mode = contact_mode();
  sample_.drift_position = y_(0);
  for (int k = 0; k < 5; ++k) sample_.state[static_cast<std::size_t>(k)] = y_(1 + k);
  sample_.aux[kThetaIntegral] += theta_integral_period_;
  sample_.aux[kMeanTheta] = theta_integral_period_ / c_.period;
  for (int i = 0; i < 2; ++i)
    sample_.counters[static_cast<std::size_t>(i == 0 ? kContactStepsTip1 : kContactStepsTip2)] +=
        std::llround(contact_time_period_[i] / c_.period * kTicksPerPeriod);
  sample_.counters[kSteps] += static_cast<std::int64_t>(kTicksPerPeriod);
  return sample_;
}

void DimerEventDriven::run(StrobeObserver& observer) {
  while (true) {
    advance(static_cast<double>(period_ + 1) * c_.period);
    ++period_;
    const StrobeSample sample = make_sample();
    theta_integral_period_ = 0;
    contact_time_period_[0] = contact_time_period_[1] = 0;
    impacts_this_period_ = 0;
    sample_.aux[kMaxAbsTheta] = 0;
    sample_.aux[kMaxGapTip1] = sample_.aux[kMaxGapTip2] = -1e300;
    if (!observer.on_sample(sample)) return;
  }
}

bool DimerEventDriven::restart_from(const StrobeSample& sample) {
  DimerState y;
  y << sample.drift_position, sample.state[0], sample.state[1], sample.state[2], sample.state[3], sample.state[4];
  if (!std::isfinite(y.sum())) return false;
  const DimerState saved_y = y_;
  const double saved_t = t_;
  y_ = y;
  t_ = static_cast<double>(sample.period) * c_.period;
  const double tolerance = 1e-9 * std::max(c_.A, 1e-6);
  if (std::min(gap(0), gap(1)) < -tolerance * 1e3) {
    y_ = saved_y, t_ = saved_t;
    return false;  // penetrating: not a state of this system
  }
  period_ = sample.period;
  sample_.counters = sample.counters;
  sample_.aux = sample.aux;
  flight_.reset();
  h_ = 0;
  const bool c0 = sample.mode == kContactTip1 || sample.mode == kContactBoth;
  const bool c1 = sample.mode == kContactTip2 || sample.mode == kContactBoth;
  status_[0] = c0 ? TipStatus::SlipPlus : TipStatus::Open;
  status_[1] = c1 ? TipStatus::SlipPlus : TipStatus::Open;
  anchored_[0] = anchored_[1] = at_rest_[0] = at_rest_[1] = false;
  settle();
  return true;
}

}  // namespace vibro::dimer
