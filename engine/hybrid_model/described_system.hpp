#pragma once
// A HybridDescription as the system the engine's HybridIntegrator and VariationalSystem integrate:
// the state (x, cos wt, sin wt), the current mode's vector field and guards, the events' resets with
// their counters, the Jacobian of the vector field by automatic differentiation, and the Jacobian of
// each reset (for the saltation matrices). Modes 0..U-1 are the description's; mode U + g is "resting
// on stop g" (sticking: the bodies across gap g move together, their gap held at 0), whose one guard
// is the release: the contact force that holds the gap shut, affine in the state and forcing,
// falling through zero.
#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/contact/coulomb_impulse.hpp"
#include "engine/contact/newton_restitution.hpp"
#include "engine/core/model.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/hybrid_model/hybrid_description.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"

namespace vibro {

template <int N>
class DescribedSystem {
 public:
  static constexpr int M = N + 2;
  using Description = HybridDescription<N>;
  using State = Eigen::Matrix<double, M, 1>;
  using Matrix = Eigen::Matrix<double, M, M>;
  using Jet = typename Description::Jet;

  DescribedSystem(std::shared_ptr<const Description> description, const HybridFrame& frame)
      : d_(std::move(description)), frame_(frame), omega_(2 * M_PI / d_->period) {
    const int modes = static_cast<int>(d_->modes().size());
    int counted_stops = 0;
    local_.assign(static_cast<std::size_t>(modes), {});
    for (int g = 0; g < static_cast<int>(d_->guards().size()); ++g) {
      const auto& guard = d_->guards()[static_cast<std::size_t>(g)];
      if (guard.mode < 0 || guard.mode >= modes) throw std::invalid_argument("guard '" + guard.name + "' belongs to no mode");
      local_[static_cast<std::size_t>(guard.mode)].push_back(g);
      affine_.push_back(guard.is_stop ? gap_guard(guard) : switch_guard(guard.change));
      contacts_.push_back(guard.is_stop ? contact_of(guard) : Contact{});
      const bool counted = guard.is_stop && guard.gap.counted;
      own_counter_.push_back(counted ? kHybridCounterCount + counted_stops++ : -1);
    }
    if (counted_stops > kMaxCountedStops)
      throw std::invalid_argument(std::to_string(counted_stops) + " stops ask for a counter of their own; at most " +
                                  std::to_string(kMaxCountedStops) + " can have one");
    for (int m = 0; m < modes; ++m)
      if (local_[static_cast<std::size_t>(m)].size() > static_cast<std::size_t>(kMaxGuards))
        throw std::invalid_argument("mode '" + d_->modes()[static_cast<std::size_t>(m)].name + "' has more than " +
                                    std::to_string(kMaxGuards) + " guards");
    mode = d_->initial_mode;
  }

  int mode = 0;
  StrobeSample* sample = nullptr;  // counters and per-period aux go here
  TraceSink* trace = nullptr;      // dense states and events go here (vibro trace); nullptr: none
  std::vector<int> trace_order;    // the trace's components as state indices

  const Description& description() const { return *d_; }
  int user_modes() const { return static_cast<int>(d_->modes().size()); }
  bool stuck() const { return mode >= user_modes(); }
  const GapLaw& stuck_law() const { return guard(mode - user_modes()).gap; }
  double omega() const { return omega_; }

  void rhs(double, const State& y, State& dy) const {
    Eigen::Matrix<double, N, 1> dx;
    field().field(y.template head<N>(), Drive<double>{y[N], y[N + 1]}, dx);
    if (stuck()) hold(stuck_contact(), y[N], y[N + 1], dx);
    dy.template head<N>() = dx;
    dy[N] = -omega_ * y[N + 1];
    dy[N + 1] = omega_ * y[N];
  }

  void jacobian(double, const State& y, Matrix& J) const {
    J.setZero();
    J.template topRows<N>() = field_gradient(y, stuck());
    J(N, N + 1) = -omega_;
    J(N + 1, N) = omega_;
  }

  int guards(AffineGuard<M>* out) const {
    if (stuck()) {
      out[0].a = release_a_;
      out[0].b = release_b_;
      out[0].crossing = Crossing::Falling;  // pressing acceleration turns away from the stop
      out[0].id = 0;
      return 1;
    }
    const auto& mine = local_[static_cast<std::size_t>(mode)];
    for (std::size_t i = 0; i < mine.size(); ++i) {
      out[i] = affine_[static_cast<std::size_t>(mine[i])];
      out[i].id = static_cast<int>(i);
    }
    return static_cast<int>(mine.size());
  }

  bool on_events(double t, State& y, const EventHit* hits, int count) {
    for (int i = 0; i < count; ++i) {
      if (!trace) {
        apply(t, hits[i], y);
        continue;
      }
      const State before = y;
      const char* kind = apply(t, hits[i], y);
      std::vector<double> a(trace_order.size()), b(trace_order.size());
      trace_state(before, a.data());
      trace_state(y, b.data());
      trace->on_event(t, kind, a.data(), b.data());
    }
    return true;
  }
  void trace_state(const State& y, double* out) const {
    for (std::size_t i = 0; i < trace_order.size(); ++i) out[i] = y[trace_order[i]];
  }

  // d(state after) / d(state before) of the event `hit` (identity where nothing jumps).
  Matrix reset_jacobian(const EventHit& hit, const State& y) const {
    Matrix R = Matrix::Identity();
    if (stuck()) return R;
    const int g = global(hit.id);
    if (!guard(g).is_stop) return R;
    const GapLaw& law = guard(g).gap;
    const Contact& c = contact(g);
    State after = y;
    const Outcome outcome = impact(g, after);
    // Newton: y += push (1 + e) (-rate . y).
    R -= (1 + law.restitution) * c.push * c.rate.transpose();
    if (law.tangential >= 0) {
      R.row(law.tangential).setZero();
      if (!outcome.clamped) {  // v_t -= sign(v_t) mu (normal impulse), impulse = (1 + e) (-rate . y)
        R(law.tangential, law.tangential) = 1;
        R.row(law.tangential) += (y[law.tangential] > 0 ? 1 : -1) * law.mu * (1 + law.restitution) * c.rate.transpose();
      }
    }
    if (outcome.sticks) R = (Matrix::Identity() - c.push * c.rate.transpose()) * R;  // then the plastic impact
    return R;
  }

  // Per accepted step (up to theta_end): the step count and the tracked components' extremes.
  void observe(const DenseStep<M>& step, double theta_end) {
    ++sample->counters[kHybridSteps];
    if (trace)
      trace->fill_to(step.t0 + theta_end * step.h, mode, [&](double t, double* out) { trace_state(step.at((t - step.t0) / step.h), out); });
    if (frame_.tracked.empty()) return;
    const State start = step.at(0), end = step.at(theta_end);  // once for all tracked components
    for (std::size_t k = 0; k < frame_.tracked.size(); ++k) {
      const int c = frame_.tracked[k];
      double& hi = sample->aux[kAuxFirstExtreme + 2 * k];
      double& lo = sample->aux[kAuxFirstExtreme + 2 * k + 1];
      auto track = [&](double v) {
        hi = std::max(hi, v);
        lo = std::min(lo, v);
      };
      track(start[c]);
      track(end[c]);
      // The step's first stationary point (h_max allows one per step), a root of the derivative.
      State row = State::Zero();
      row[c] = 1;
      double p[5], dp[4];
      step.affine_polynomial(row, 0, p);
      for (int j = 0; j < 4; ++j) dp[j] = (j + 1) * p[j + 1];
      const PolynomialRoot root = polynomial_first_root(dp, 3, Crossing::Either);
      if (root.found && root.theta <= theta_end) track(step.at(root.theta)[c]);
    }
  }

  // Puts the system in `new_mode` at state y (a restart): a resting mode gets its release guard.
  // False when y is not a state of that mode (a gap closed beyond rounding).
  bool enter(int new_mode, State& y) {
    if (new_mode < 0 || new_mode >= user_modes() + static_cast<int>(d_->guards().size())) return false;
    mode = new_mode;
    if (stuck()) {
      if (!guard(mode - user_modes()).is_stop) return false;
      const Contact& c = stuck_contact();
      shut(c, y);
      y += c.push * (-c.rate.dot(y));  // moving together
      set_release_guard(y);
      return true;
    }
    settle(y);
    for (const int g : local_[static_cast<std::size_t>(mode)]) {
      if (!guard(g).is_stop) continue;
      const double gap = contact(g).normal.dot(y) + contact(g).offset;
      if (gap < -1e-9 * contact(g).scale) return false;
      if (gap < 0) shut(contact(g), y);
    }
    return true;
  }

 private:
  struct Outcome {
    bool sticks = false, clamped = false;
    double approach = 0;  // closing speed of the gap before the hit
  };
  // A stop's gap in the state (x, cos, sin): its rate (gap' = rate . y), how an impulse moves the
  // state (y += push du changes the gap's rate by du, momentum-weighted over the bodies), which
  // position and velocity are solved from the gap when it is shut, and its size at the model's scales.
  struct Contact {
    State normal = State::Zero();  // gap = normal . y + offset
    double offset = 0;
    State rate = State::Zero(), push = State::Zero();
    int position = 0, velocity = 0;
    double coefficient = 1, scale = 1;
  };
  const typename Description::Guard& guard(int g) const { return d_->guards()[static_cast<std::size_t>(g)]; }
  int global(int local_id) const { return local_[static_cast<std::size_t>(mode)][static_cast<std::size_t>(local_id)]; }
  const typename Description::Mode& field() const {
    return d_->modes()[static_cast<std::size_t>(stuck() ? guard(mode - user_modes()).mode : mode)];
  }
  const Contact& contact(int g) const { return contacts_[static_cast<std::size_t>(g)]; }
  const Contact& stuck_contact() const { return contact(mode - user_modes()); }

  static AffineGuard<M> switch_guard(const SwitchGuard<N>& c) {
    AffineGuard<M> o;
    o.a.template head<N>() = c.a;
    o.a[N] = c.a_cos;
    o.a[N + 1] = c.a_sin;
    o.b = c.b;
    o.crossing = c.crossing;
    return o;
  }
  static AffineGuard<M> gap_guard(const typename Description::Guard& guard) {
    const GapLaw& law = guard.gap;
    AffineGuard<M> o;
    o.a.setZero();
    for (const GapTerm& t : law.terms) o.a[t.position] += t.coefficient;
    o.a[N] = law.a_cos;
    o.a[N + 1] = law.a_sin;
    o.b = law.b;
    o.crossing = Crossing::Falling;  // the gap closes
    return o;
  }
  Contact contact_of(const typename Description::Guard& guard) const {
    const GapLaw& law = guard.gap;
    if (law.terms.empty()) throw std::invalid_argument("stop '" + guard.name + "' has a gap with no body in it");
    Contact c;
    c.normal = gap_guard(guard).a;
    c.offset = law.b;
    double effective = 0;  // gap rate change per unit impulse
    for (const GapTerm& t : law.terms) {
      if (t.position < 0 || t.position >= N || t.velocity < 0 || t.velocity >= N || !(t.mass > 0) || t.coefficient == 0)
        throw std::invalid_argument("stop '" + guard.name + "': a gap term needs components in the state, a nonzero "
                                    "coefficient and a positive mass");
      c.rate[t.velocity] += t.coefficient;
      c.push[t.velocity] += t.coefficient / t.mass;
      effective += t.coefficient * t.coefficient / t.mass;
      c.scale += std::fabs(t.coefficient) * d_->scales[static_cast<std::size_t>(t.position)];
    }
    c.scale -= 1;
    if (law.tangential >= 0 && (law.terms.size() != 1 || law.terms[0].mass != 1))
      throw std::invalid_argument("stop '" + guard.name + "': a Coulomb impulse needs a one-body stop of unit mass");
    c.push /= effective;
    c.rate[N] = omega_ * law.a_sin;  // the obstacle's own motion: d/dt (a_cos cos wt + a_sin sin wt)
    c.rate[N + 1] = -omega_ * law.a_cos;
    c.position = law.terms.back().position;
    c.velocity = law.terms.back().velocity;
    c.coefficient = law.terms.back().coefficient;
    return c;
  }

  // Puts the state exactly on the shut gap: the last term's position and velocity solved from gap = 0
  // and gap' = 0 (its velocity only for resting; an impact sets the rate itself).
  static void shut(const Contact& c, State& y, bool rate_too = true) {
    y[c.position] = 0;
    y[c.position] = -(c.normal.dot(y) + c.offset) / c.coefficient;
    if (!rate_too) return;
    y[c.velocity] = 0;
    y[c.velocity] = -c.rate.dot(y) / c.coefficient;
  }

  // The field of bodies held together across a shut gap: the contact force that keeps the gap's
  // acceleration at 0, i.e. dx += push (-gap''), for doubles and for the automatic-differentiation jets.
  template <class S, class V>
  void hold(const Contact& c, const S& cos, const S& sin, V& dx) const {
    S accel = c.rate[N] * (-omega_ * sin) + c.rate[N + 1] * (omega_ * cos);
    for (int i = 0; i < N; ++i)
      if (c.rate[i] != 0) accel += c.rate[i] * dx[i];
    for (int i = 0; i < N; ++i)
      if (c.push[i] != 0) dx[i] -= c.push[i] * accel;
    // The solved body's acceleration from the others', so that the held gap's rate stays exactly 0
    // (rounding left in it would make the bodies touch again just after the release).
    S others = c.rate[N] * (-omega_ * sin) + c.rate[N + 1] * (omega_ * cos);
    for (int i = 0; i < N; ++i)
      if (i != c.velocity && c.rate[i] != 0) others += c.rate[i] * dx[i];
    dx[c.velocity] = -others / c.coefficient;
  }

  // Rows 0..N-1 of the vector field's Jacobian in (x, cos, sin), by forward automatic differentiation.
  // With `held`, the field of bodies held together on the stop the system rests on.
  Eigen::Matrix<double, N, M> field_gradient(const State& y, bool held) const {
    typename Description::JetState x, dx;
    for (int i = 0; i < N; ++i) x[i] = Jet(y[i], M, i);
    const Jet cos(y[N], M, N), sin(y[N + 1], M, N + 1);
    field().jet_field(x, Drive<Jet>{cos, sin}, dx);
    if (held) hold(stuck_contact(), cos, sin, dx);
    Eigen::Matrix<double, N, M> J;
    for (int i = 0; i < N; ++i) J.row(i) = dx[i].derivatives().transpose();
    return J;
  }
  // How hard the free field closes the gap: -gap'' (> 0: the bodies press together).
  double pressing(const Contact& c, const State& y) const {
    Eigen::Matrix<double, N, 1> dx;
    field().field(y.template head<N>(), Drive<double>{y[N], y[N + 1]}, dx);
    return -(c.rate.template head<N>().dot(dx) + c.rate[N] * (-omega_ * y[N + 1]) + c.rate[N + 1] * (omega_ * y[N]));
  }

  // A mode entered where one of its switch guards is already past its crossing (a sticking mode
  // entered where the applied force exceeds the friction limit) is left at once through that guard,
  // which the event locator, searching for crossings only, would never report. Returns the switches.
  static constexpr double kSettleTolerance = 1e-9;  // relative to the guard's terms at the model's scales
  int settle(const State& y) {
    for (int chain = 0; chain <= kMaxGuards; ++chain) {
      int next = -1;
      for (const int g : local_[static_cast<std::size_t>(mode)]) {
        const auto& c = guard(g).change;
        if (guard(g).is_stop || c.crossing == Crossing::Either) continue;
        const double value = c.a.dot(y.template head<N>()) + c.a_cos * y[N] + c.a_sin * y[N + 1] + c.b;
        // Beyond the rounding of an event located on a guard (the state sits on it up to that).
        double scale = std::fabs(c.b) + std::fabs(c.a_cos) + std::fabs(c.a_sin);
        for (int i = 0; i < N; ++i) scale += std::fabs(c.a[i]) * d_->scales[static_cast<std::size_t>(i)];
        const double past = c.crossing == Crossing::Falling ? -value : value;
        if (past > kSettleTolerance * scale) {
          next = c.target;
          break;
        }
      }
      if (next < 0) return chain;
      mode = next;
    }
    throw CaseFailure("mode switches do not settle: every mode entered is already past one of its guards");
  }

  // Newton restitution (and the Coulomb impulse) of a hit on stop g's gap, applied to y; whether the
  // chatter has run out and the bodies rest together (after a plastic impact).
  Outcome impact(int g, State& y) const {
    const GapLaw& law = guard(g).gap;
    const Contact& c = contact(g);
    Outcome outcome;
    const double rate = c.rate.dot(y);
    outcome.approach = -rate;
    const NormalImpact hit = newton_restitution(rate, law.restitution);
    shut(c, y, false);  // exactly on the gap, so the handled root is deflated
    y += c.push * hit.impulse;
    if (law.tangential >= 0) {
      y[law.tangential] = coulomb_impulse(y[law.tangential], 0.0, law.mu, hit.impulse);
      outcome.clamped = y[law.tangential] == 0;
    }
    if (law.sticks && hit.u_after < frame_.numerics.v_eps) {
      State resting = y;
      resting += c.push * (-c.rate.dot(resting));
      outcome.sticks = pressing(c, resting) > 0;
      if (outcome.sticks) y = resting;
    }
    return outcome;
  }

  // Returns the event's kind (the trace's name for it).
  const char* apply(double t, const EventHit& hit, State& y) {
    if (stuck()) {
      shut(stuck_contact(), y);  // leaves with the gap and its rate at 0 up to rounding
      mode = guard(mode - user_modes()).mode;
      ++sample->counters[kHybridReleases];
      return "release";
    }
    const int g = global(hit.id);
    const auto& gd = guard(g);
    if (!gd.is_stop) {
      mode = gd.change.target;
      ++sample->counters[kHybridSwitches];
      sample->counters[kHybridSwitches] += settle(y);
      return "switch";
    }
    ++sample->counters[hit.grazing ? kHybridGrazings : kHybridImpacts];
    if (!hit.grazing && own_counter_[static_cast<std::size_t>(g)] >= 0) ++sample->counters[own_counter_[static_cast<std::size_t>(g)]];
    sample->aux[kAuxImpactPhase] = std::fmod(omega_ * t, 2 * M_PI);
    const Outcome outcome = impact(g, y);
    sample->aux[kAuxImpactSpeed] = outcome.approach;
    if (outcome.sticks) {
      mode = user_modes() + g;
      ++sample->counters[kHybridStickings];
      set_release_guard(y);
      return "impact+sticking";  // a plastic last impact: the bodies rest together from here
    }
    return hit.grazing ? "grazing" : "impact";
  }

  // The contact force holding the gap shut (as the free field's -gap'') as an affine function of the
  // state and forcing on the shut gap, with the solved position and velocity eliminated: its value
  // and gradient here, checked at a second point so that a non-affine one fails the case loudly
  // instead of releasing at the wrong time.
  void set_release_guard(const State& y) {
    const Contact& c = stuck_contact();  // field() is the free mode's while resting
    const Eigen::Matrix<double, N, M> J = field_gradient(y, false);
    State a = -(J.transpose() * c.rate.template head<N>());
    a[N + 1] += c.rate[N] * omega_;
    a[N] -= c.rate[N + 1] * omega_;
    // Solved components: position = -(guard without it) / coefficient, velocity likewise from the rate.
    State solved_position = -c.normal / c.coefficient;
    State solved_velocity = -c.rate / c.coefficient;
    solved_position[c.position] = solved_velocity[c.velocity] = 0;
    a += a[c.position] * solved_position + a[c.velocity] * solved_velocity;
    a[c.position] = a[c.velocity] = 0;
    release_a_ = a;
    release_b_ = pressing(c, y) - release_a_.dot(y);
    State probe = y;
    for (int i = 0; i < M; ++i)
      if (i != c.position && i != c.velocity) probe[i] += 0.37 * (1 + std::fabs(y[i]));
    shut(c, probe);
    const double predicted = release_a_.dot(probe) + release_b_, actual = pressing(c, probe);
    if (std::fabs(predicted - actual) > 1e-8 * (1 + std::fabs(actual)))
      throw CaseFailure("resting on stop '" + guard(mode - user_modes()).name +
                        "' needs a contact force affine in the state and forcing; it is not");
  }

  std::shared_ptr<const Description> d_;
  HybridFrame frame_;
  double omega_;
  std::vector<std::vector<int>> local_;  // per mode: its guards (global indices), ids = positions here
  std::vector<AffineGuard<M>> affine_;   // per guard: its affine function (id set per mode)
  std::vector<Contact> contacts_;        // per guard: its gap's rate and impulse (stops only)
  std::vector<int> own_counter_;         // per guard: its counter slot (counted stops), else -1
  State release_a_ = State::Zero();
  double release_b_ = 0;
};

}  // namespace vibro
