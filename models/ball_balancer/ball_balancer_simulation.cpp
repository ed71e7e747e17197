#include "models/ball_balancer/ball_balancer_simulation.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/core/case_budget.hpp"
#include "engine/events/affine_guard_root.hpp"
#include "engine/ring_contact/ring_impulse.hpp"
#include "engine/events/dense_enclosure.hpp"
#include "engine/roots/enclosure_first_root.hpp"

namespace vibro::ball_balancer {

namespace {
constexpr double kTwoPi = 6.283185307179586;
constexpr double kTouchGap = 1e-9;      // rad: neighbours this close count as touching at an impact
constexpr int kMaxStalledEvents = 1000;

State start_state(const BallBalancerConstants& c) {
  State y = State::Zero();
  y[kX] = c.x0;
  y[kY] = c.y_eq() + c.y0;
  y[kRate + kX] = c.vx0;
  y[kRate + kY] = c.vy0;
  for (int i = 0; i < c.n; ++i) {
    y[kTheta + i] = c.theta1_0 + i * c.spacing;
    y[kRate + kTheta + i] = c.theta_dot0;
  }
  return y;
}

StrobeLayout make_layout(const BallBalancerConstants& c) {
  StrobeLayout layout;
  const double v = c.R * c.spin;
  layout.state_names = {"x", "y"};
  layout.state_scales = {c.R, c.R};
  for (int i = 0; i < c.n; ++i) {
    layout.state_names.push_back("psi_" + std::to_string(i + 1));
    layout.state_scales.push_back(1.0);
  }
  layout.state_names.insert(layout.state_names.end(), {"vx", "vy"});
  layout.state_scales.insert(layout.state_scales.end(), {v, v});
  for (int i = 0; i < c.n; ++i) {
    layout.state_names.push_back("psi_dot_" + std::to_string(i + 1));
    layout.state_scales.push_back(c.spin);
  }
  layout.angular.assign(layout.state_names.size(), false);
  for (int i = 0; i < c.n; ++i) layout.angular[static_cast<std::size_t>(2 + i)] = true;  // psi_i, modulo 2 pi
  layout.period = c.period;
  layout.drift_scale = v;
  layout.counter_names = {"impacts", "trains_formed", "separations", "sticks", "slip_reversals", "steps", "rejected_steps"};
  layout.mode_names = {"rolling"};
  return layout;
}
}  // namespace

BallBalancerSimulation::BallBalancerSimulation(const BallBalancerConstants& c) : BallBalancerSimulation(c, start_state(c)) {}

BallBalancerSimulation::BallBalancerSimulation(const BallBalancerConstants& c, const State& y0)
    : c_(c), dynamics_(c), layout_(make_layout(c)), y_(y0) {
  initialise();
}

void BallBalancerSimulation::initialise() {
  topology_.slip.fill(1);
  topology_.nu.fill(1);
  const int n = c_.n;
  if (c_.alpha > 0 && n >= 2) {
    for (int k = 0; k < n; ++k)
      if (dynamics_.gap(y_, k) < -kTouchGap)
        throw InfeasibleCase("finite-radius balls overlap at the start (pair " + std::to_string(k + 1) + ")");
    std::vector<bool> touching(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) touching[static_cast<std::size_t>(k)] = std::fabs(dynamics_.gap(y_, k)) <= kTouchGap;
    Eigen::MatrixXd minv = dynamics_.mass_matrix(y_).inverse();
    Eigen::VectorXd v = y_.segment(kRate, 2 + n);
    for (const int k : RingImpulse(minv).close_plastic(dynamics_.ring_pairs(), touching, c_.v_stick, v))
      topology_.contact[static_cast<std::size_t>(k)] = true;
    y_.segment(kRate, 2 + n) = v;
    enforce_compression();
  }
  refresh_friction_modes();
  reset_tracking();
}

void BallBalancerSimulation::log(int kind, int k) {
  if (log_) log_->on_event(kind, k, t_, y_);
}

double BallBalancerSimulation::first_affine(const DenseStep<kStateSize>& step, const State& a, double b,
                                            Crossing crossing) const {
  const PolynomialRoot root = first_affine_guard_root(step, a, b, crossing);
  return root.found ? root.theta : 2.0;
}

bool BallBalancerSimulation::has_nonsmooth_guards() const {
  for (int i = 0; i < c_.n; ++i)
    if (topology_.contact[static_cast<std::size_t>(i)] || topology_.stuck[static_cast<std::size_t>(i)]) return true;
  return false;
}

double BallBalancerSimulation::nonsmooth_value(double t, const State& y, int& which) const {
  Topology trial = topology_;
  const Accelerations a = dynamics_.solve(t, y, trial);
  double lowest = 1e300;
  which = -1;
  for (int k = 0; k < c_.n; ++k) {
    const std::size_t ku = static_cast<std::size_t>(k);
    if (topology_.contact[ku] && a.lambda[ku] < lowest) lowest = a.lambda[ku], which = k;
    if (topology_.stuck[ku] && dynamics_.leader(topology_, k) == k && a.margin[ku] < lowest)
      lowest = a.margin[ku], which = kMaxBalls + k;
  }
  return lowest;
}

GuardEnclosure BallBalancerSimulation::nonsmooth_enclosure(const DenseStep<kStateSize>& step, double a, double b) const {
  const DenseBox<kStateSize> dense = enclose_dense(step, a, b);
  StateBox box;
  for (int i = 0; i < kStateSize; ++i)
    box[static_cast<std::size_t>(i)] = DualInterval(Interval(dense.lo[i], dense.hi[i]), Interval(dense.slope_lo[i], dense.slope_hi[i]));
  const DualInterval t(Interval(step.t0 + a * step.h, step.t0 + b * step.h), Interval(step.h));
  const ForceEnclosure forces = dynamics_.enclose_forces(t, box, topology_);
  constexpr double kHuge = 1e300;
  if (!forces.valid) return {Interval(-kHuge, kHuge), Interval(-kHuge, kHuge)};
  // The guards: each train contact force and each stuck group's margin; the lowest of them falls to
  // zero first. Its slope lies among the slopes of the guards that can be the lowest somewhere.
  std::array<const DualInterval*, 2 * kMaxBalls> guards{};
  int count = 0;
  for (int k = 0; k < c_.n; ++k) {
    const std::size_t ku = static_cast<std::size_t>(k);
    if (topology_.contact[ku]) guards[static_cast<std::size_t>(count++)] = &forces.lambda[ku];
    if (topology_.stuck[ku] && dynamics_.leader(topology_, k) == k) guards[static_cast<std::size_t>(count++)] = &forces.margin[ku];
  }
  GuardEnclosure lowest{Interval(kHuge, kHuge), Interval(kHuge, -kHuge)};
  for (int j = 0; j < count; ++j) {
    const Interval& v = guards[static_cast<std::size_t>(j)]->v;
    lowest.value = Interval(std::min(lowest.value.lo, v.lo), std::min(lowest.value.hi, v.hi));
  }
  for (int j = 0; j < count; ++j) {
    const DualInterval& g = *guards[static_cast<std::size_t>(j)];
    if (g.v.lo <= lowest.value.hi) lowest.slope = Interval(std::min(lowest.slope.lo, g.d.lo), std::max(lowest.slope.hi, g.d.hi));
  }
  return lowest;
}

double BallBalancerSimulation::first_nonsmooth(const DenseStep<kStateSize>& step) const {
  int unused = -1;
  const EnclosedRoot root = enclosure_first_root(
      [&](double theta) { return nonsmooth_value(step.t0 + theta * step.h, step.at(theta), unused); },
      [&](double a, double b) { return nonsmooth_enclosure(step, a, b); }, kGuardResolution);
  if (root.exhausted)
    throw CaseFailure("the contact forces and stick margins could not be bounded on the step at t = " + std::to_string(step.t0) +
                      " (ill-conditioned constraint system)");
  return root.found ? root.theta : 2.0;
}

void BallBalancerSimulation::trace_step(const DenseStep<kStateSize>& step, double t_stop) {
  sink_->fill_to(t_stop, 0, [&](double t, double* out) { section_state(t, step.at((t - step.t0) / step.h), out); });
}

void BallBalancerSimulation::advance(double t_end) {
  const int n = c_.n;
  State k1, y_new, k_new;
  auto f = [this](double t, const State& y, State& dy) { dynamics_.rhs(t, y, topology_, dy); };
  bool need_k1 = true;
  if (h_ <= 0) h_ = std::min(c_.control.h_max, 1e-3);
  while (t_ < t_end) {
    if (need_k1) {
      f(t_, y_, k1);
      need_k1 = false;
    }
    const double room = t_end - t_;
    const bool last = h_ >= room;
    const double h = last ? room : h_;
    DenseStep<kStateSize> step;
    double h_next = h;
    int evaluations = 0;
    if (!stepper_.attempt(f, t_, y_, k1, h, c_.control, y_new, k_new, step, h_next, evaluations)) {
      ++counters_[kRejectedSteps];
      h_ = h_next;
      if (h_ < c_.control.h_min * std::max(1.0, std::fabs(t_)))
        throw CaseFailure("step size underflow at t = " + std::to_string(t_));
      continue;
    }
    ++counters_[kSteps];
    if (!last || h_next < h_) h_ = h_next;

    // The first event on the step.
    double first = 2.0;
    Event kind = Event::None;
    int which = -1;
    if (c_.alpha > 0 && n >= 2) {
      for (int k = 0; k < n; ++k) {
        if (topology_.contact[static_cast<std::size_t>(k)]) continue;
        State a = State::Zero();
        const int b = (k + 1) % n;
        a[kTheta + b] += 1;
        a[kTheta + k] -= 1;
        const double theta = first_affine(step, a, -c_.alpha + (b == 0 ? kTwoPi : 0.0), Crossing::Falling);
        if (theta < first) first = theta, kind = Event::Gap, which = k;
      }
    }
    if (c_.mu_R > 0) {
      for (int i = 0; i < n; ++i) {
        const std::size_t iu = static_cast<std::size_t>(i);
        if (topology_.stuck[iu] || dynamics_.leader(topology_, i) != i) continue;
        State a = State::Zero();
        a[kRate + kTheta + i] = 1;
        const double theta = first_affine(step, a, -c_.spin, topology_.slip[iu] > 0 ? Crossing::Rising : Crossing::Falling);
        if (theta < first) first = theta, kind = Event::Reversal, which = i;
      }
    }
    if (has_nonsmooth_guards()) {
      const double theta = first_nonsmooth(step);
      if (theta < first) {
        first = theta, kind = Event::NonSmooth;
        nonsmooth_value(t_ + theta * h, step.at(theta), which);
      }
    }
    if (kind == Event::None) {
      track(step, 1.0);
      if (sink_) trace_step(step, last ? t_end : t_ + h);
      t_ = last ? t_end : t_ + h;
      y_ = y_new;
      k1 = k_new;
      continue;
    }
    track(step, first);
    if (sink_) trace_step(step, std::min(t_ + first * h, t_end));
    y_ = step.at(first);
    stalled_ = first * h <= kGuardResolution * std::max(h, 1e-3) ? stalled_ + 1 : 0;
    if (stalled_ > kMaxStalledEvents)
      throw CaseFailure("events repeat without time advancing at t = " + std::to_string(t_) + " (unresolved accumulation)");
    t_ = std::min(t_ + first * h, t_end);
    charge_events();
    const State before = y_;
    const auto counted = counters_;
    switch (kind) {
      case Event::Gap: on_collision(which); break;
      case Event::Reversal: on_reversal(which); break;
      default: on_nonsmooth(which); break;
    }
    if (sink_) {
      const std::string what = counted_event_kind(layout_.counter_names, counted.data(), counters_.data());
      std::array<double, kMaxStrobeDims + 1> a{}, b{};
      section_state(t_, before, a.data());
      section_state(t_, y_, b.data());
      sink_->on_event(t_, what.empty() ? "event" : what, a.data(), b.data());
    }
    need_k1 = true;
  }
}

void BallBalancerSimulation::on_collision(int pair) {
  const int n = c_.n, D = 2 + n;
  std::vector<bool> touching(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    touching[static_cast<std::size_t>(k)] = topology_.contact[static_cast<std::size_t>(k)] || std::fabs(dynamics_.gap(y_, k)) <= kTouchGap;
  touching[static_cast<std::size_t>(pair)] = true;
  const Eigen::MatrixXd minv = dynamics_.mass_matrix(y_).inverse();
  const RingImpulse impulse(minv);
  const std::vector<RingPair> pairs = dynamics_.ring_pairs();
  Eigen::VectorXd v = y_.segment(kRate, D);
  try {
    counters_[kImpacts] += impulse.sweep(pairs, touching, pair, c_.cor, c_.v_stick, v, 10 * n * n + 10);
  } catch (const std::runtime_error& error) {
    throw CaseFailure(std::string(error.what()) + " at t = " + std::to_string(t_));
  }
  y_.segment(kRate, D) = v;
  log(kImpacts, pair);
  // Train formation (3.6): touching neighbours closing slower than v_stick move on together.
  const std::vector<int> closed = impulse.close_plastic(pairs, touching, c_.v_stick, v);
  y_.segment(kRate, D) = v;
  std::array<bool, kMaxBalls> before = topology_.contact;
  topology_.contact.fill(false);
  for (const int k : closed) topology_.contact[static_cast<std::size_t>(k)] = true;
  enforce_compression();
  for (int k = 0; k < n; ++k)
    if (topology_.contact[static_cast<std::size_t>(k)] && !before[static_cast<std::size_t>(k)]) {
      ++counters_[kTrainsFormed];
      log(kTrainsFormed, k);
    }
  refresh_friction_modes();
}

void BallBalancerSimulation::enforce_compression() {
  for (;;) {
    Topology trial = topology_;
    bool any = false;
    for (int k = 0; k < c_.n; ++k) any = any || trial.contact[static_cast<std::size_t>(k)];
    if (!any) return;
    const Accelerations a = dynamics_.solve(t_, y_, trial);
    int worst = -1;
    for (int k = 0; k < c_.n; ++k)
      if (topology_.contact[static_cast<std::size_t>(k)] && a.lambda[static_cast<std::size_t>(k)] < 0 &&
          (worst < 0 || a.lambda[static_cast<std::size_t>(k)] < a.lambda[static_cast<std::size_t>(worst)]))
        worst = k;
    if (worst < 0) return;
    topology_.contact[static_cast<std::size_t>(worst)] = false;
  }
}

void BallBalancerSimulation::refresh_friction_modes() {
  const int n = c_.n;
  if (c_.mu_R <= 0) {
    topology_.stuck.fill(false);
    return;
  }
  for (int l = 0; l < n; ++l) {
    if (dynamics_.leader(topology_, l) != l) continue;
    bool all_stuck = true;
    for (int i = 0; i < n; ++i)
      if (dynamics_.leader(topology_, i) == l) all_stuck = all_stuck && topology_.stuck[static_cast<std::size_t>(i)];
    const double v = y_[kRate + kTheta + l] - c_.spin;
    if (std::fabs(v) > 1e-12 * std::max(1.0, std::fabs(c_.spin))) {
      for (int i = 0; i < n; ++i)
        if (dynamics_.leader(topology_, i) == l) {
          topology_.stuck[static_cast<std::size_t>(i)] = false;
          topology_.slip[static_cast<std::size_t>(i)] = v < 0 ? 1 : -1;
        }
    } else {
      decide_at_rest(l, all_stuck ? 0 : topology_.slip[static_cast<std::size_t>(l)]);
    }
  }
}

void BallBalancerSimulation::decide_at_rest(int leader, int preferred_slip) {
  const int n = c_.n;
  auto set_group = [&](Topology& tp, bool stuck, int slip) {
    for (int i = 0; i < n; ++i)
      if (dynamics_.leader(tp, i) == leader) {
        tp.stuck[static_cast<std::size_t>(i)] = stuck;
        tp.slip[static_cast<std::size_t>(i)] = slip;
      }
  };
  auto slip_consistent = [&](int s) {
    Topology trial = topology_;
    set_group(trial, false, s);
    const double a = dynamics_.solve(t_, y_, trial).qdd[2 + leader];
    return (s > 0 && a < 0) || (s < 0 && a > 0);
  };
  auto stick_feasible = [&]() {
    Topology trial = topology_;
    set_group(trial, true, topology_.slip[static_cast<std::size_t>(leader)]);
    return dynamics_.solve(t_, y_, trial).margin[static_cast<std::size_t>(leader)] >= 0;
  };
  int choice = 0;  // 0: stick
  if (preferred_slip != 0 && slip_consistent(preferred_slip)) {
    choice = preferred_slip;
  } else if (!stick_feasible()) {
    if (slip_consistent(-preferred_slip != 0 ? -preferred_slip : 1)) choice = preferred_slip != 0 ? -preferred_slip : 1;
    else if (preferred_slip == 0 && slip_consistent(-1)) choice = -1;
  }
  if (choice == 0) {
    set_group(topology_, true, topology_.slip[static_cast<std::size_t>(leader)]);
    for (int i = 0; i < n; ++i)
      if (dynamics_.leader(topology_, i) == leader) y_[kRate + kTheta + i] = c_.spin;  // exactly at rest on the race
    ++counters_[kSticks];
    log(kSticks, leader);
  } else {
    set_group(topology_, false, choice);
  }
}

void BallBalancerSimulation::on_reversal(int leader) {
  ++counters_[kSlipReversals];
  log(kSlipReversals, leader);
  decide_at_rest(leader, -topology_.slip[static_cast<std::size_t>(leader)]);
}

void BallBalancerSimulation::on_nonsmooth(int which) {
  if (which < 0) return;
  if (which < kMaxBalls) {  // a train contact force reached zero: the train splits there
    topology_.contact[static_cast<std::size_t>(which)] = false;
    ++counters_[kSeparations];
    log(kSeparations, which);
    enforce_compression();
    refresh_friction_modes();
    return;
  }
  // A stuck group's friction reached its capacity: it slips the way the needed friction pushed.
  const int leader = which - kMaxBalls;
  Topology trial = topology_;
  const double needed = dynamics_.solve(t_, y_, trial).stick[static_cast<std::size_t>(leader)];
  for (int i = 0; i < c_.n; ++i)
    if (dynamics_.leader(topology_, i) == leader) {
      topology_.stuck[static_cast<std::size_t>(i)] = false;
      topology_.slip[static_cast<std::size_t>(i)] = needed >= 0 ? 1 : -1;
    }
  ++counters_[kSlipReversals];
  log(kSlipReversals, leader);
}

void BallBalancerSimulation::reset_tracking() {
  const double psi = c_.n > 0 ? y_[kTheta] - dynamics_.phi(t_) : 0.0;
  const double beta = c_.n > 1 ? y_[kTheta + 1] - y_[kTheta] : 0.0;
  aux_ = {0, 0, psi, psi, psi, beta, beta, 0};
}

void BallBalancerSimulation::track(const DenseStep<kStateSize>& step, double theta_end) {
  const double y_eq = c_.y_eq();
  for (int j = 1; j <= 8; ++j) {
    const double theta = theta_end * j / 8.0;
    const State y = step.at(theta);
    aux_[kMaxX] = std::max(aux_[kMaxX], std::fabs(y[kX]));
    aux_[kMaxY] = std::max(aux_[kMaxY], std::fabs(y[kY] - y_eq));
    if (c_.n > 0) {
      const double psi = y[kTheta] - dynamics_.phi(step.t0 + theta * step.h);
      aux_[kMinPsi] = std::min(aux_[kMinPsi], psi);
      aux_[kMaxPsi] = std::max(aux_[kMaxPsi], psi);
    }
    if (c_.n > 1) {
      const double beta = y[kTheta + 1] - y[kTheta];
      aux_[kMinBeta] = std::min(aux_[kMinBeta], beta);
      aux_[kMaxBeta] = std::max(aux_[kMaxBeta], beta);
    }
  }
}

void BallBalancerSimulation::section_state(double t, const State& y, double* out) const {
  const int n = c_.n;
  out[0] = y[kX];
  out[1] = y[kY] - c_.y_eq();
  for (int i = 0; i < n; ++i) {
    const double psi = std::fmod(y[kTheta + i] - dynamics_.phi(t), kTwoPi);
    out[2 + i] = psi < 0 ? psi + kTwoPi : psi;
  }
  out[2 + n] = y[kRate + kX];
  out[3 + n] = y[kRate + kY];
  for (int i = 0; i < n; ++i) out[4 + n + i] = y[kRate + kTheta + i] - c_.spin;
  out[4 + 2 * n] = n > 0 ? c_.R * (y[kTheta] - dynamics_.phi(t)) : 0.0;
}

TraceLayout BallBalancerSimulation::trace_layout() const {
  TraceLayout out;
  out.components = layout_.state_names;
  out.components.push_back("s_1");
  const int n = c_.n;
  out.units = {"m", "m"};
  out.units.insert(out.units.end(), static_cast<std::size_t>(n), "rad");
  out.units.insert(out.units.end(), {"m/s", "m/s"});
  out.units.insert(out.units.end(), static_cast<std::size_t>(n), "rad/s");
  out.units.push_back("m");
  return out;
}

void BallBalancerSimulation::attach_trace(TraceSink* sink) {
  sink_ = sink;
  if (sink) sink->skip_to(t_);
}

StrobeSample BallBalancerSimulation::make_sample() const {
  StrobeSample s;
  s.time = t_;
  s.period = period_;
  const int n = c_.n;
  std::array<double, kMaxStrobeDims + 1> section{};
  section_state(t_, y_, section.data());
  std::copy(section.begin(), section.begin() + 4 + 2 * n, s.state.begin());
  s.drift_position = section[static_cast<std::size_t>(4 + 2 * n)];
  for (int k = 0; k < kCounterCount; ++k) s.counters[static_cast<std::size_t>(k)] = counters_[static_cast<std::size_t>(k)];
  s.aux = aux_;
  if (n > 0) s.aux[kPsiAtSample] = y_[kTheta] - dynamics_.phi(t_);
  return s;
}

bool BallBalancerSimulation::restart_from(const StrobeSample& sample) {
  if (sampled_start_) return false;
  const int n = c_.n;
  const double t = static_cast<double>(sample.period) * c_.period, phi = dynamics_.phi(t);
  State y = State::Zero();
  y[kX] = sample.state[0];
  y[kY] = sample.state[1] + c_.y_eq();
  y[kRate + kX] = sample.state[static_cast<std::size_t>(2 + n)];
  y[kRate + kY] = sample.state[static_cast<std::size_t>(3 + n)];
  for (int i = 0; i < n; ++i) {
    const double psi = sample.state[static_cast<std::size_t>(2 + i)];
    if (i > 0 && c_.alpha > 0) {  // finite-radius balls keep their CCW order: theta_i - theta_(i-1) in [0, 2 pi)
      const double step = std::fmod(psi - sample.state[static_cast<std::size_t>(1 + i)], kTwoPi);
      y[kTheta + i] = y[kTheta + i - 1] + (step < 0 ? step + kTwoPi : step);
    } else {
      y[kTheta + i] = psi + phi;
    }
    y[kRate + kTheta + i] = sample.state[static_cast<std::size_t>(4 + n + i)] + c_.spin;
  }
  const State saved_y = y_;
  const Topology saved_topology = topology_;
  const double saved_t = t_;
  try {
    y_ = y;
    t_ = t;
    topology_ = Topology{};
    initialise();
  } catch (const InfeasibleCase&) {
    y_ = saved_y, topology_ = saved_topology, t_ = saved_t;
    return false;
  }
  period_ = sample.period;
  for (int k = 0; k < kCounterCount; ++k) counters_[static_cast<std::size_t>(k)] = sample.counters[static_cast<std::size_t>(k)];
  sampled_start_ = true;
  h_ = 0;
  stalled_ = 0;
  return true;
}

void BallBalancerSimulation::run(StrobeObserver& observer) {
  if (!sampled_start_) {
    sampled_start_ = true;
    const StrobeSample s = make_sample();
    reset_tracking();
    if (!observer.on_sample(s)) return;
  }
  for (;;) {
    advance(static_cast<double>(period_ + 1) * c_.period);
    ++period_;
    if (sink_)  // the last step ends at k T only up to rounding
      sink_->fill_to(t_, 0, [&](double, double* out) { section_state(t_, y_, out); });
    const StrobeSample s = make_sample();
    reset_tracking();
    if (!observer.on_sample(s)) return;
  }
}

}  // namespace vibro::ball_balancer
