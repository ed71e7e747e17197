#pragma once
// A HybridDescription as the system the engine's HybridIntegrator and VariationalSystem integrate:
// the state (x, cos wt, sin wt), the current mode's vector field and guards, the events' resets with
// their counters, the Jacobian of the vector field by automatic differentiation, and the Jacobian of
// each reset (for the saltation matrices). Modes 0..U-1 are the description's; mode U + g is "resting
// on stop g" (sticking: the bodies across gap g move together, their gap held at 0), whose one guard
// is the release: the contact force that holds the gap shut, affine in the state and forcing,
// falling through zero.
//
// The system is plain data (fixed-size arrays, no allocation) whose stepping members are
// host-and-device code, so that the same resets, sticking and releases run in the CPU simulation
// and, through the batched back ends, on a GPU. Only the field differs (a policy): CallableField calls
// the description's callables (and their jets); TapeField runs their traced tapes (field_tape.hpp),
// which give the same bits, and is plain data too.
#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/contact/coulomb_impulse.hpp"
#include "engine/contact/newton_restitution.hpp"
#include "engine/core/host_device.hpp"
#include "engine/core/model.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/hybrid_model/field_tape.hpp"
#include "engine/hybrid_model/hybrid_description.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"

namespace vibro {

// A description's size as the plain-data system holds it.
inline constexpr int kMaxDescribedModes = 12;   // declared modes
inline constexpr int kMaxDescribedGuards = 32;  // guards of all modes together (every counted stop the samples hold)
inline constexpr int kMaxDescribedMaps = 8;     // reset maps that are not affine (the batched back ends' tapes)

// A mode's field through the description's callables: the double callable for values, its jet
// instantiation for the Jacobian. Host only.
template <int N>
class CallableField {
 public:
  static constexpr bool kJets = true;
  using Description = HybridDescription<N>;
  CallableField() = default;
  explicit CallableField(std::shared_ptr<const Description> d) : d_(std::move(d)) {}
  void value(int mode, const Eigen::Matrix<double, N, 1>& x, const Drive<double>& drive,
             Eigen::Matrix<double, N, 1>& dx) const {
    d_->modes()[static_cast<std::size_t>(mode)].field(x, drive, dx);
  }
  void jets(int mode, const typename Description::JetState& x, const Drive<typename Description::Jet>& drive,
            typename Description::JetState& dx) const {
    d_->modes()[static_cast<std::size_t>(mode)].jet_field(x, drive, dx);
  }
  // d field / d (x, cos, sin) at y (N + 2 components); `adjust(cos, sin, dx)` changes the jets of the
  // field before they are read (the held field of a resting system).
  template <class State, class Adjust>
  Eigen::Matrix<double, N, N + 2> gradient(int mode, const State& y, Adjust adjust) const {
    return jacobian_of(d_->modes()[static_cast<std::size_t>(mode)].jet_field, y, adjust);
  }
  template <class State>
  Eigen::Matrix<double, N, N + 2> gradient(int mode, const State& y) const {
    return gradient(mode, y, [](const auto&, const auto&, auto&) {});
  }
  // Reset map k (HybridDescription::reset_map): the state after the event, and its Jacobian in (x, cos, sin).
  void map_value(int k, const Eigen::Matrix<double, N, 1>& x, const Drive<double>& drive, Eigen::Matrix<double, N, 1>& out) const {
    d_->maps()[static_cast<std::size_t>(k)].field(x, drive, out);
  }
  template <class State>
  Eigen::Matrix<double, N, N + 2> map_gradient(int k, const State& y) const {
    return jacobian_of(d_->maps()[static_cast<std::size_t>(k)].jet_field, y, [](const auto&, const auto&, auto&) {});
  }
  std::string guard_name(int g) const { return d_->guards()[static_cast<std::size_t>(g)].name; }
  std::string mode_name(int m) const { return d_->modes()[static_cast<std::size_t>(m)].name; }

 private:
  template <class State, class Adjust>
  static Eigen::Matrix<double, N, N + 2> jacobian_of(const typename Description::JetField& f, const State& y, Adjust adjust) {
    using Jet = typename Description::Jet;
    typename Description::JetState x, dx;
    for (int i = 0; i < N; ++i) x[i] = Jet(y[i], N + 2, i);
    const Jet cos(y[N], N + 2, N), sin(y[N + 1], N + 2, N + 1);
    f(x, Drive<Jet>{cos, sin}, dx);
    adjust(cos, sin, dx);
    Eigen::Matrix<double, N, N + 2> J;
    for (int i = 0; i < N; ++i) J.row(i) = dx[i].derivatives().transpose();
    return J;
  }
  std::shared_ptr<const Description> d_;
};

// A mode's field as its traced tape, plain data: host-and-device. Its gradient runs one input
// direction at a time (little memory a GPU thread); each gives the jets' bits.
template <int N>
class TapeField {
 public:
  static constexpr bool kJets = false;
  static constexpr int kMaxOps = 256;  // all modes' tapes together
  TapeField() = default;
  // Host: traces every mode; throws UntraceableField (naming the mode) when a field cannot be traced
  // or the tapes do not fit.
  explicit TapeField(const HybridDescription<N>& d) {
    if (d.maps().size() > static_cast<std::size_t>(kMaxDescribedMaps))
      throw UntraceableField(std::to_string(d.maps().size()) + " reset maps; at most " + std::to_string(kMaxDescribedMaps) +
                             " fit a case of the batched back ends");
    int used = 0;
    // Slots 0..modes-1: the modes' fields; kMaxDescribedModes + k: reset map k.
    const auto keep = [&](const typename HybridDescription<N>::Mode& m, int slot, const std::string& what) {
      FieldTape tape;
      try {
        tape = m.trace();
      } catch (const UntraceableField& e) {
        throw UntraceableField(what + " cannot be traced: " + e.what());
      }
      const int count = static_cast<int>(tape.ops.size());
      if (used + count > kMaxOps)
        throw UntraceableField("the vector fields and reset maps take " + std::to_string(used + count) + " operations; at most " +
                               std::to_string(kMaxOps) + " fit a case of the batched back ends");
      begin_[slot] = used;
      count_[slot] = count;
      for (int k = 0; k < count; ++k) ops_[used + k] = tape.ops[static_cast<std::size_t>(k)];
      for (int i = 0; i < N; ++i) outputs_[slot][i] = tape.outputs[static_cast<std::size_t>(i)];
      used += count;
    };
    for (std::size_t m = 0; m < d.modes().size(); ++m)
      keep(d.modes()[m], static_cast<int>(m), "the vector field of mode '" + d.modes()[m].name + "'");
    for (std::size_t k = 0; k < d.maps().size(); ++k) keep(d.maps()[k], kMaxDescribedModes + static_cast<int>(k), d.maps()[k].name);
    for (std::size_t g = 0; g < d.guards().size() && g < static_cast<std::size_t>(kMaxDescribedGuards); ++g)
      keep_name(d.guards()[g].name, names_[g]);  // for the host's failure messages, as the cpu path names it
    for (std::size_t m = 0; m < d.modes().size() && m < static_cast<std::size_t>(kMaxDescribedModes); ++m)
      keep_name(d.modes()[m].name, mode_names_[m]);
  }
  template <class X, class DX>
  VIBRO_HD void value(int mode, const X& x, const Drive<double>& drive, DX& dx) const {
    double inputs[N + 2], slots[kMaxOps];
    for (int i = 0; i < N; ++i) inputs[i] = x[i];
    inputs[N] = drive.cos;
    inputs[N + 1] = drive.sin;
    run_tape(ops_ + begin_[mode], count_[mode], inputs, slots);
    for (int i = 0; i < N; ++i) dx[i] = slots[outputs_[mode][i]];
  }
  template <class X, class DX>
  VIBRO_HD void map_value(int k, const X& x, const Drive<double>& drive, DX& out) const {
    value(kMaxDescribedModes + k, x, drive, out);
  }
  template <class State>
  VIBRO_HD Eigen::Matrix<double, N, N + 2> gradient(int mode, const State& y) const {
    double inputs[N + 2], values[kMaxOps], derivatives[kMaxOps];
    for (int i = 0; i < N + 2; ++i) inputs[i] = y[i];
    Eigen::Matrix<double, N, N + 2> J;
    for (int j = 0; j < N + 2; ++j) {
      run_tape_with_derivatives<1>(ops_ + begin_[mode], count_[mode], inputs, j, values, derivatives);
      for (int i = 0; i < N; ++i) J(i, j) = derivatives[outputs_[mode][i]];
    }
    return J;
  }
  std::string guard_name(int g) const { return names_[g]; }
  std::string mode_name(int m) const { return mode_names_[m]; }

 private:
  static constexpr std::size_t kNameChars = 32;  // a guard's name, cut to 28 characters and "..." beyond
  static void keep_name(const std::string& name, char* out) {
    const std::size_t kept = name.size() < kNameChars ? name.size() : kNameChars - 4;
    name.copy(out, kept);
    if (kept < name.size()) std::string("...").copy(out + kept, 3);
  }
  TapeOp ops_[kMaxOps];
  char names_[kMaxDescribedGuards][kNameChars] = {};
  char mode_names_[kMaxDescribedModes][kNameChars] = {};
  int begin_[kMaxDescribedModes + kMaxDescribedMaps] = {};
  int count_[kMaxDescribedModes + kMaxDescribedMaps] = {};
  int outputs_[kMaxDescribedModes + kMaxDescribedMaps][N] = {};
};

template <int N, class Field>
class BasicDescribedSystem {
 public:
  static constexpr int M = N + 2;
  using Description = HybridDescription<N>;
  using State = Eigen::Matrix<double, M, 1>;
  using Matrix = Eigen::Matrix<double, M, M>;
  using Jet = typename Description::Jet;

  BasicDescribedSystem() = default;  // no modes (a batch's case before it is made)
  // Host: checks the description and lays it out; the field comes from it (Field's constructor).
  BasicDescribedSystem(std::shared_ptr<const Description> description, const HybridFrame& frame)
      : BasicDescribedSystem(*description, frame, field_of(description)) {}
  BasicDescribedSystem(const Description& d, const HybridFrame& frame, Field field)
      : field_(std::move(field)), omega_(2 * M_PI / d.period), v_eps_(frame.numerics.v_eps) {
    const int modes = static_cast<int>(d.modes().size());
    const int guards = static_cast<int>(d.guards().size());
    if (modes > kMaxDescribedModes)
      throw std::invalid_argument(std::to_string(modes) + " modes declared; at most " + std::to_string(kMaxDescribedModes));
    if (guards > kMaxDescribedGuards)
      throw std::invalid_argument(std::to_string(guards) + " guards declared; at most " + std::to_string(kMaxDescribedGuards));
    user_modes_ = modes;
    guard_count_ = guards;
    for (int i = 0; i < N; ++i) scales_[i] = d.scales[static_cast<std::size_t>(i)];
    if (frame.tracked.size() > static_cast<std::size_t>(kMaxTrackedComponents))
      throw std::invalid_argument("more than " + std::to_string(kMaxTrackedComponents) + " tracked components");
    tracked_count_ = static_cast<int>(frame.tracked.size());
    for (int k = 0; k < tracked_count_; ++k) tracked_[k] = frame.tracked[static_cast<std::size_t>(k)];
    int counted_stops = 0;
    for (int g = 0; g < guards; ++g) {
      const auto& guard = d.guards()[static_cast<std::size_t>(g)];
      if (guard.mode < 0 || guard.mode >= modes) throw std::invalid_argument("guard '" + guard.name + "' belongs to no mode");
      if (local_count_[guard.mode] == kMaxGuards)
        throw std::invalid_argument("mode '" + d.modes()[static_cast<std::size_t>(guard.mode)].name + "' has more than " +
                                    std::to_string(kMaxGuards) + " guards");
      local_[guard.mode][local_count_[guard.mode]++] = g;
      Guard& mine = guards_[g];
      mine.mode = guard.mode;
      mine.is_stop = guard.is_stop;
      mine.law = {guard.gap.restitution, guard.gap.sticks, guard.gap.tangential, guard.gap.mu};
      mine.change = guard.change;
      mine.affine = guard.is_stop ? gap_guard(guard.gap) : switch_guard(guard.change);
      if (guard.is_stop) mine.contact = contact_of(guard);
      mine.jumps = !guard.is_stop && (guard.change.map >= 0 || guard.change.jump != Eigen::Matrix<double, N, N>::Identity() ||
                                      guard.change.shift != Eigen::Matrix<double, N, 1>::Zero());
      mine.impact = guard.is_stop || guard.change.impact;
      if (!guard.is_stop && (guard.change.map < -1 || guard.change.map >= static_cast<int>(d.maps().size())))
        throw std::invalid_argument("switch '" + guard.name + "' names a reset map that is not registered");
      mine.rests = !guard.is_stop && guard.change.rest_velocity >= 0;
      if (mine.rests) mine.contact = surface_of(guard);
      // settle() judges a switch on entering its mode unless it is an impact, has a reset, is a surface
      // the state may rest on or crosses either way: the event locator judges those at a start.
      mine.affine.judged_at_start = mine.impact || mine.jumps || mine.rests || guard.change.crossing == Crossing::Either;
      if (!guard.is_stop && (guard.change.target < 0 || guard.change.target >= modes))
        throw std::invalid_argument("switch '" + guard.name + "' enters no declared mode (target " + std::to_string(guard.change.target) + ")");
      for (const auto& other : d.guards()) mine.rank += other.name < guard.name ? 1 : 0;
      const bool counted = Description::counted(guard);
      mine.own_counter = counted ? kHybridCounterCount + counted_stops++ : -1;
    }
    if (counted_stops > kMaxCountedStops)
      throw std::invalid_argument(std::to_string(counted_stops) + " stops ask for a counter of their own; at most " +
                                  std::to_string(kMaxCountedStops) + " can have one");
    mode = d.initial_mode;
  }

  int mode = 0;
  StrobeSample* sample = nullptr;  // counters and per-period aux go here
  // Switches made at once by settle() after a located switch (counted in kHybridSwitches too): modes
  // passed through without time spent in them (MapStep::switches leaves them out).
  long long passed_through = 0;
  TraceSink* trace = nullptr;      // dense states and events go here (vibro trace); nullptr: none (host only)

  // The trace's components as state indices (host only).
  void set_trace_order(const std::vector<int>& order) {
    trace_components_ = static_cast<int>(order.size());
    for (int i = 0; i < trace_components_; ++i) trace_order_[i] = order[static_cast<std::size_t>(i)];
  }
  VIBRO_HD int user_modes() const { return user_modes_; }
  VIBRO_HD bool stuck() const { return mode >= user_modes(); }
  VIBRO_HD double omega() const { return omega_; }

  VIBRO_HD void rhs(double, const State& y, State& dy) const {
    Eigen::Matrix<double, N, 1> dx;
    field_.value(field_mode(), y.template head<N>(), Drive<double>{y[N], y[N + 1]}, dx);
    if (stuck()) hold(stuck_contact(), y[N], y[N + 1], dx);
    dy.template head<N>() = dx;
    dy[N] = -omega_ * y[N + 1];
    dy[N + 1] = omega_ * y[N];
  }

  // Host only, with the jets of a CallableField (the variational equations).
  void jacobian(double, const State& y, Matrix& J) const {
    J.setZero();
    J.template topRows<N>() = held_gradient(y);
    J(N, N + 1) = -omega_;
    J(N + 1, N) = omega_;
  }

  VIBRO_HD int guards(AffineGuard<M>* out) const {
    if (stuck()) {  // release into the stop's mode (id 0) and, on a shared surface, into the other side's (id 1)
      for (int k = 0; k < release_count_; ++k) {
        out[k].a = release_a_[k];
        out[k].b = release_b_[k];
        out[k].crossing = Crossing::Falling;  // pressing acceleration turns away from the surface
        out[k].id = k;
        out[k].judged_at_start = true;  // a restart on a surface the force is about to leave
      }
      return release_count_;
    }
    for (int i = 0; i < local_count_[mode]; ++i) {
      out[i] = guards_[local_[mode][i]].affine;
      out[i].id = i;
    }
    return local_count_[mode];
  }

  // Simultaneous events (the integrator's group, within its simultaneity window) follow one rule that
  // does not depend on the order of declaration: stops before switches, each kind in time order, exact
  // ties by the guard's name; an event whose guard no longer crosses after the earlier ones (a stop's
  // gap opening again, a switch function turned back) is skipped; and the first event that changes the
  // mode ends the group (the others were located on the old mode's guards; the new mode's are searched
  // from there, and any already past is crossed at once, settle()).
  VIBRO_HD void order_events(EventHit* hits, int count) const {
    for (int i = 1; i < count; ++i)
      for (int j = i; j > 0 && comes_before(hits[j], hits[j - 1]); --j) {
        const EventHit earlier = hits[j];
        hits[j] = hits[j - 1];
        hits[j - 1] = earlier;
      }
  }
  VIBRO_HD bool event_applies(const EventHit& hit, const State& y, int group_mode) const {
    if (mode != group_mode) return false;
    if (stuck()) return true;
    const Guard& g = guards_[global(hit.id)];
    State dy;
    rhs(0, y, dy);
    const double rate = g.affine.a.dot(dy);
    if (g.is_stop || g.affine.crossing == Crossing::Falling) return rate < 0;
    return g.affine.crossing == Crossing::Rising ? rate > 0 : true;
  }

  VIBRO_HD bool on_events(double t, State& y, const EventHit* given, int count) {
    EventHit hits[kMaxGuards];
    for (int i = 0; i < count; ++i) hits[i] = given[i];
    order_events(hits, count);
    const int group_mode = mode;
    for (int i = 0; i < count; ++i) {
      if (i > 0 && !event_applies(hits[i], y, group_mode)) continue;
#if !VIBRO_DEVICE_PASS
      if (trace) {
        const State before = y;
        std::string kind = apply(t, hits[i], y);
        if (kind == "switch" || kind == "release" || kind == "switch+sticking") kind += " to " + mode_name(mode);
        std::vector<double> a(static_cast<std::size_t>(trace_components_)), b(a.size());
        trace_state(before, a.data());
        trace_state(y, b.data());
        trace->on_event(t, kind, a.data(), b.data());
        continue;
      }
#endif
      apply(t, hits[i], y);
      if (failure_ != Failure::None) return false;  // device code only: the host threw
    }
    return true;
  }
  // A mode's name as the result files give it (host only).
  std::string mode_name(int m) const {
    return m < user_modes() ? field_.mode_name(m) : "resting on " + field_.guard_name(m - user_modes());
  }
  VIBRO_HD void trace_state(const State& y, double* out) const {
    for (int i = 0; i < trace_components_; ++i) out[i] = y[trace_order_[i]];
  }

  // Host only: d(state after) / d(state before) of the event `hit` (identity where nothing jumps).
  Matrix reset_jacobian(const EventHit& hit, const State& y) const {
    Matrix R = Matrix::Identity();
    if (stuck()) return R;
    const int g = global(hit.id);
    if (!guards_[g].is_stop) {
      State after = y;
      jump(guards_[g], after);
      if (guards_[g].change.map >= 0) R.template topRows<N>() = field_.map_gradient(guards_[g].change.map, y);
      else if (guards_[g].jumps) R.template topLeftCorner<N, N>() = guards_[g].change.jump;
      const Contact& c = guards_[g].contact;
      if (guards_[g].rests && comes_to_rest(g, after)) R = (Matrix::Identity() - c.push * c.rate.transpose()) * R;
      return R;
    }
    const Law& law = guards_[g].law;
    const Contact& c = guards_[g].contact;
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
  VIBRO_HD void observe(const DenseStep<M>& step, double theta_end) {
    ++sample->counters[kHybridSteps];
#if !VIBRO_DEVICE_PASS
    if (trace)
      trace->fill_to(step.t0 + theta_end * step.h, mode, [&](double t, double* out) { trace_state(step.at((t - step.t0) / step.h), out); });
#endif
    if (tracked_count_ == 0) return;
    const State start = step.at(0), end = step.at(theta_end);  // once for all tracked components
    for (int k = 0; k < tracked_count_; ++k) {
      const int c = tracked_[k];
      double& hi = sample->aux[static_cast<std::size_t>(kAuxFirstExtreme + 2 * k)];
      double& lo = sample->aux[static_cast<std::size_t>(kAuxFirstExtreme + 2 * k + 1)];
      auto track = [&](double v) {
        hi = hi < v ? v : hi;  // std::max(hi, v), in device code too
        lo = v < lo ? v : lo;  // std::min(lo, v)
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
  VIBRO_HD bool enter(int new_mode, State& y) {
    if (new_mode < 0 || new_mode >= user_modes() + guard_count_) return false;
    mode = new_mode;
    if (stuck()) {
      const Guard& on = guards_[mode - user_modes()];
      if (!on.is_stop && !on.rests) return false;
      const Contact& c = stuck_contact();
      shut(c, y);
      y += c.push * (-c.rate.dot(y));  // moving together
      set_release_guard(y);
      return failure_ == Failure::None;
    }
    settle(y);
    if (failure_ != Failure::None) return false;
    land(y);
    if (stuck()) return failure_ == Failure::None;
    for (int i = 0; i < local_count_[mode]; ++i) {
      const int g = local_[mode][i];
      if (!guards_[g].is_stop) continue;
      const double gap = guards_[g].contact.normal.dot(y) + guards_[g].contact.offset;
      if (gap < -1e-9 * guards_[g].contact.scale) return false;
      if (gap < 0) shut(guards_[g].contact, y);
    }
    return true;
  }

  // Why device code stopped a case (host code throws CaseFailure instead); the host names it.
  enum class Failure : int { None, Unsettled, NotAffineRest };
  VIBRO_HD Failure failure() const { return failure_; }
  std::string failure_message() const { return message(failure_, failure_guard_); }

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
  // A stop's impact law (GapLaw's numbers).
  struct Law {
    double restitution = 1;
    bool sticks = true;
    int tangential = -1;
    double mu = 0;
  };
  struct Guard {
    int mode = 0;
    bool is_stop = false;
    Law law;                    // stops
    Contact contact;            // stops, and switches the state may rest on (oriented: its own mode's side > 0)
    SwitchGuard<N> change;      // switches
    bool jumps = false;         // a switch whose reset is not the identity
    bool impact = false;        // a stop, or a switch whose events are impacts (SwitchGuard::impact)
    bool rests = false;         // a switch the state may rest on (SwitchGuard::rest_velocity)
    AffineGuard<M> affine;      // its affine function (id set per mode)
    int own_counter = -1;       // its counter slot (counted stops), else -1
    int rank = 0;               // its name's place in alphabetical order (simultaneous events)
  };

  static Field field_of(const std::shared_ptr<const Description>& d) {
    if constexpr (Field::kJets) return Field(d);
    else return Field(*d);
  }
  VIBRO_HD int global(int local_id) const { return local_[mode][local_id]; }
  // The mode whose field applies: a resting mode's is its stop's free mode's.
  VIBRO_HD int field_mode() const { return stuck() ? guards_[mode - user_modes()].mode : mode; }
  VIBRO_HD const Contact& stuck_contact() const { return guards_[mode - user_modes()].contact; }

  static AffineGuard<M> switch_guard(const SwitchGuard<N>& c) {
    AffineGuard<M> o;
    o.a.template head<N>() = c.a;
    o.a[N] = c.a_cos;
    o.a[N + 1] = c.a_sin;
    o.b = c.b;
    o.crossing = c.crossing;
    return o;
  }
  static AffineGuard<M> gap_guard(const GapLaw& law) {
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
    c.normal = gap_guard(law).a;
    c.offset = law.b;
    double effective = 0;  // gap rate change per unit impulse
    for (const GapTerm& t : law.terms) {
      if (t.position < 0 || t.position >= N || t.velocity < 0 || t.velocity >= N || !(t.mass > 0) || t.coefficient == 0)
        throw std::invalid_argument("stop '" + guard.name + "': a gap term needs components in the state, a nonzero "
                                    "coefficient and a positive mass");
      c.rate[t.velocity] += t.coefficient;
      c.push[t.velocity] += t.coefficient / t.mass;
      effective += t.coefficient * t.coefficient / t.mass;
      c.scale += std::fabs(t.coefficient) * scales_[t.position];
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

  // A switch guard the state may rest on, as a contact of unit mass oriented so that the guard's own
  // mode lies on its positive side.
  Contact surface_of(const typename Description::Guard& guard) const {
    const SwitchGuard<N>& s = guard.change;
    int position = -1, read = 0;
    for (int i = 0; i < N; ++i)
      if (s.a[i] != 0) {
        position = i;
        ++read;
      }
    if (read != 1 || s.rest_velocity >= N || s.crossing == Crossing::Either)
      throw std::invalid_argument("switch '" + guard.name + "': a surface the state rests on reads one state component, "
                                  "has a crossing direction and a velocity component in the state");
    const double side = s.crossing == Crossing::Falling ? 1.0 : -1.0;
    Contact c;
    c.normal = side * switch_guard(s).a;
    c.offset = side * s.b;
    c.coefficient = side * s.a[position];
    c.position = position;
    c.velocity = s.rest_velocity;
    c.rate[c.velocity] = c.coefficient;
    c.push[c.velocity] = 1 / c.coefficient;
    c.rate[N] = omega_ * side * s.a_sin;
    c.rate[N + 1] = -omega_ * side * s.a_cos;
    c.scale = std::fabs(c.coefficient) * scales_[position];
    return c;
  }

  // Puts the state exactly on the shut gap: the last term's position and velocity solved from gap = 0
  // and gap' = 0 (its velocity only for resting; an impact sets the rate itself).
  VIBRO_HD static void shut(const Contact& c, State& y, bool rate_too = true) {
    y[c.position] = 0;
    y[c.position] = -(c.normal.dot(y) + c.offset) / c.coefficient;
    if (!rate_too) return;
    y[c.velocity] = 0;
    y[c.velocity] = -c.rate.dot(y) / c.coefficient;
  }

  // The field of bodies held together across a shut gap: the contact force that keeps the gap's
  // acceleration at 0, i.e. dx += push (-gap''), for doubles and for the automatic-differentiation jets.
  template <class S, class V>
  VIBRO_HD void hold(const Contact& c, const S& cos, const S& sin, V& dx) const {
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

  // Rows 0..N-1 of the field's Jacobian in (x, cos, sin), the held field's while resting (host only:
  // the jets run through hold()).
  Eigen::Matrix<double, N, M> held_gradient(const State& y) const {
    static_assert(Field::kJets, "the variational equations need the field's jets");
    if (!stuck()) return field_.gradient(field_mode(), y);
    return field_.gradient(field_mode(), y, [this](const Jet& cos, const Jet& sin, auto& dx) { hold(stuck_contact(), cos, sin, dx); });
  }
  // How hard the free field closes the gap: -gap'' (> 0: the bodies press together).
  VIBRO_HD double pressing(const Contact& c, const State& y) const { return pressing(c, y, field_mode()); }
  VIBRO_HD double pressing(const Contact& c, const State& y, int field) const {
    Eigen::Matrix<double, N, 1> dx;
    field_.value(field, y.template head<N>(), Drive<double>{y[N], y[N + 1]}, dx);
    return -(c.rate.template head<N>().dot(dx) + c.rate[N] * (-omega_ * y[N + 1]) + c.rate[N + 1] * (omega_ * y[N]));
  }

  // Stops the case: host code throws (the one-case and the batched CPU paths), device code records
  // why and the guard, and the stepping returns at once.
  VIBRO_HD void fail(Failure why, int guard) {
    failure_ = why;
    failure_guard_ = guard;
#if !VIBRO_DEVICE_PASS
    throw CaseFailure(message(why, guard));
#endif
  }
  std::string message(Failure why, int guard) const {
    if (why == Failure::Unsettled) return "mode switches do not settle: every mode entered is already past one of its guards";
    if (why == Failure::NotAffineRest)
      return "resting on stop '" + field_.guard_name(guard) +
             "' needs a contact force affine in the state and forcing; it is not";
    return "";
  }

  // A mode entered where one of its switch guards is already past its crossing (a sticking mode
  // entered where the applied force exceeds the friction limit) is left at once through that guard,
  // which the event locator, searching for crossings only, would never report. A guard that sits on
  // its crossing, within the tolerance (an event just located on it, a start on the friction limit), is
  // judged by where the mode's field moves it (crossed_by_motion): left when it moves across. A chain
  // that comes back by that judgement to a mode it passed through ends in that mode: the fields on
  // either side push the state onto the guard (a sticking mode entered at a halt, whose slipping mode
  // turns the velocity back: it stays stuck) instead of switching without end. Returns the switches.
  static constexpr double kSettleTolerance = kGuardMotionTolerance;  // relative to the guard's terms at the model's scales (the event locator's too)
  VIBRO_HD int settle(const State& y) {
    unsigned visited = 1u << mode;
    for (int chain = 0; chain <= kMaxGuards; ++chain) {
      int next = -1, moving = -1;
      bool by_motion = false;
      for (int i = 0; i < local_count_[mode]; ++i) {
        const Guard& g = guards_[local_[mode][i]];
        const SwitchGuard<N>& c = g.change;
        if (g.impact || c.crossing == Crossing::Either) continue;  // an obstacle is hit, not entered past
        const double value = g.affine.a.dot(y) + c.b;
        // Beyond the rounding of an event located on a guard (the state sits on it up to that).
        const double scale = guard_scale(c);
        const double past = c.crossing == Crossing::Falling ? -value : value;
        if (past > kSettleTolerance * scale) {
          next = c.target;
          by_motion = false;
          break;
        }
        // Judged by motion; of several crossed so, the first by name (the rule of simultaneous events).
        if (past < -kSettleTolerance * scale) continue;
        if ((moving < 0 || g.rank < guards_[moving].rank) && crossed_by_motion(g, y, scale)) {
          next = c.target;
          moving = local_[mode][i];
          by_motion = true;
        }
      }
      // A guard with a reset is not passed through here (the passage would apply none), nor a surface
      // the state may rest on (land() and comes_to_rest() decide those).
      if (by_motion && (guards_[moving].jumps || guards_[moving].rests)) next = -1;
      if (next < 0) return chain;
      mode = next;
      if (by_motion && (visited & (1u << next))) return chain + 1;
      visited |= 1u << next;
    }
    fail(Failure::Unsettled, -1);
    return 0;
  }
  // A switch guard's size: its terms at the model's scales.
  VIBRO_HD double guard_scale(const SwitchGuard<N>& c) const {
    double scale = std::fabs(c.b) + std::fabs(c.a_cos) + std::fabs(c.a_sin);
    for (int j = 0; j < N; ++j) scale += std::fabs(c.a[j]) * scales_[j];
    return scale;
  }
  // Whether the current mode's field moves guard g, on which y sits, across its crossing: by the sign of
  // its first time derivative, or of its second where the first is 0 within the tolerance (a force
  // at an extremum on the friction limit); the second from the field's Jacobian (automatic
  // differentiation, or the traced tape's derivatives). Where both are 0 the event locator decides.
  // The tolerances take the field's rate: its Jacobian's largest row sum at the model's scales, or
  // the forcing frequency if larger.
  VIBRO_HD bool crossed_by_motion(const Guard& g, const State& y, double scale) const {
    const AffineGuard<M>& a = g.affine;
    const double sense = a.crossing == Crossing::Falling ? -1.0 : 1.0;
    State dy;
    rhs(0, y, dy);
    const Eigen::Matrix<double, N, M> J = field_.gradient(mode, y);
    double rate = omega_;
    for (int i = 0; i < N; ++i) {
      double row = 0;
      for (int j = 0; j < M; ++j) row += std::fabs(J(i, j)) * (j < N ? scales_[j] : 1.0);
      row /= scales_[i];
      rate = row > rate ? row : rate;
    }
    const double first = a.a.dot(dy);
    if (std::fabs(first) > kSettleTolerance * scale * rate) return sense * first > 0;
    State ddy;  // d/dt of the field along itself
    ddy.template head<N>() = J * dy;
    ddy[N] = -omega_ * dy[N + 1];
    ddy[N + 1] = omega_ * dy[N];
    const double second = a.a.dot(ddy);
    if (std::fabs(second) > kSettleTolerance * scale * rate * rate) return sense * second > 0;
    return false;
  }

  // A switch's reset applied to y: its map, or its affine jump (none: y unchanged).
  VIBRO_HD void jump(const Guard& gd, State& y) const {
    if (gd.change.map >= 0) {
      Eigen::Matrix<double, N, 1> after;
      field_.map_value(gd.change.map, y.template head<N>(), Drive<double>{y[N], y[N + 1]}, after);
      y.template head<N>() = after;
    } else if (gd.jumps) {
      y.template head<N>() = gd.change.jump * y.template head<N>() + gd.change.shift;
    }
  }

  // Newton restitution (and the Coulomb impulse) of a hit on stop g's gap, applied to y; whether the
  // chatter has run out and the bodies rest together (after a plastic impact).
  VIBRO_HD Outcome impact(int g, State& y) const {
    const Law& law = guards_[g].law;
    const Contact& c = guards_[g].contact;
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
    if (law.sticks && hit.u_after < v_eps_) {
      State resting = y;
      resting += c.push * (-c.rate.dot(resting));
      outcome.sticks = pressing(c, resting) > 0;
      if (outcome.sticks) y = resting;
    }
    return outcome;
  }

  // Returns the event's kind (the trace's name for it).
  VIBRO_HD const char* apply(double t, const EventHit& hit, State& y) {
    if (stuck()) {
      shut(stuck_contact(), y);  // leaves with the gap and its rate at 0 up to rounding
      const Guard& on = guards_[mode - user_modes()];
      mode = hit.id == 0 ? on.mode : on.change.target;  // release guard 1: into the surface's other side
      ++sample->counters[kHybridReleases];
      return "release";
    }
    const int g = global(hit.id);
    const Guard& gd = guards_[g];
    if (!gd.is_stop) {
      if (gd.impact) {  // an impact on an obstacle the guard states: counted as a stop's
        ++sample->counters[hit.grazing ? kHybridGrazings : kHybridImpacts];
        if (!hit.grazing && gd.own_counter >= 0) ++sample->counters[static_cast<std::size_t>(gd.own_counter)];
        sample->aux[kAuxImpactPhase] = std::fmod(omega_ * t, 2 * M_PI);
        State dy;
        rhs(t, y, dy);
        sample->aux[kAuxImpactSpeed] = -gd.affine.a.dot(dy);
      }
      jump(gd, y);
      if (gd.rests && comes_to_rest(g, y)) {
        mode = user_modes() + g;
        ++sample->counters[kHybridStickings];
        set_release_guard(y);
        return "switch+sticking";  // chatter across the surface has run out: the state rests on it
      }
      const bool switches = !gd.impact || gd.change.target != gd.mode;
      mode = gd.change.target;
      if (switches) ++sample->counters[kHybridSwitches];
      const int chained = settle(y);
      sample->counters[kHybridSwitches] += chained;
      passed_through += chained;
      if (!switches) return hit.grazing ? "grazing" : "impact";
      return "switch";
    }
    ++sample->counters[hit.grazing ? kHybridGrazings : kHybridImpacts];
    if (!hit.grazing && gd.own_counter >= 0) ++sample->counters[static_cast<std::size_t>(gd.own_counter)];
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
  VIBRO_HD void set_release_guard(const State& y) {
    const Guard& on = guards_[mode - user_modes()];
    const Contact& c = stuck_contact();  // field_mode() is the free mode's while resting
    release_count_ = 1;
    bool affine = release_function(c, field_mode(), 1.0, y, release_a_[0], release_b_[0]);
    if (on.rests && on.change.target != on.mode) {  // a shared surface: the other side's field may pull it off
      release_count_ = 2;
      affine = release_function(c, on.change.target, -1.0, y, release_a_[1], release_b_[1]) && affine;
    }
    if (!affine) fail(Failure::NotAffineRest, mode - user_modes());
  }
  // The pressing acceleration of mode `field`'s field on the shut contact, seen from the side `side`
  // (+1: the contact's own side, -1: the other), as an affine function a . y + b; false when a second
  // point shows it is not affine.
  VIBRO_HD bool release_function(const Contact& c, int field, double side, const State& y, State& a, double& b) const {
    const Eigen::Matrix<double, N, M> J = field_.gradient(field, y);
    a = -(J.transpose() * c.rate.template head<N>());
    a[N + 1] += c.rate[N] * omega_;
    a[N] -= c.rate[N + 1] * omega_;
    // Solved components: position = -(guard without it) / coefficient, velocity likewise from the rate.
    State solved_position = -c.normal / c.coefficient;
    State solved_velocity = -c.rate / c.coefficient;
    solved_position[c.position] = solved_velocity[c.velocity] = 0;
    a += a[c.position] * solved_position + a[c.velocity] * solved_velocity;
    a[c.position] = a[c.velocity] = 0;
    a *= side;
    b = side * pressing(c, y, field) - a.dot(y);
    State probe = y;
    for (int i = 0; i < M; ++i)
      if (i != c.position && i != c.velocity) probe[i] += 0.37 * (1 + std::fabs(y[i]));
    shut(c, probe);
    const double predicted = a.dot(probe) + b, actual = side * pressing(c, probe, field);
    return std::fabs(predicted - actual) <= 1e-8 * (1 + std::fabs(actual));
  }

  // A state entered (the start, a restart) on a surface it may rest on, at rest across it: it rests
  // there while both sides' fields press it on, else it goes to the side that pulls it off (the event
  // locator, which skips a root at the step's start, would not see it leave).
  VIBRO_HD void land(State& y) {
    for (int i = 0; i < local_count_[mode]; ++i) {
      const int g = local_[mode][i];
      const Guard& gd = guards_[g];
      if (!gd.rests) continue;
      const Contact& c = gd.contact;
      if (!(std::fabs(c.normal.dot(y) + c.offset) <= 1e-12 * c.scale && std::fabs(c.rate.dot(y)) < v_eps_)) continue;
      State resting = y;
      shut(c, resting);
      const bool a_presses = pressing(c, resting, gd.mode) > 0, b_presses = -pressing(c, resting, gd.change.target) > 0;
      if (a_presses && b_presses) {
        y = resting;
        mode = user_modes() + g;
        set_release_guard(y);
      } else if (a_presses) {
        y = resting;
        mode = gd.change.target;
      }
      return;
    }
  }

  // After a switch across a surface the state may rest on (its reset applied): whether the crossing
  // is slower than v_eps and neither side's field pulls the state off the surface; if so, y is put
  // on the surface at rest.
  VIBRO_HD bool comes_to_rest(int g, State& y) const {
    const Guard& gd = guards_[g];
    const Contact& c = gd.contact;
    if (!(std::fabs(c.rate.dot(y)) < v_eps_)) return false;
    State resting = y;
    shut(c, resting);
    if (!(pressing(c, resting, gd.mode) > 0 && -pressing(c, resting, gd.change.target) > 0)) return false;
    y = resting;
    return true;
  }

  // The rule of simultaneous events (on_events): stops first, then time, then the guard's name.
  VIBRO_HD bool comes_before(const EventHit& x, const EventHit& y) const {
    if (stuck()) return x.t < y.t || (x.t == y.t && x.id < y.id);
    const Guard& gx = guards_[global(x.id)];
    const Guard& gy = guards_[global(y.id)];
    if (gx.impact != gy.impact) return gx.impact;
    if (x.t != y.t) return x.t < y.t;
    return gx.rank < gy.rank;
  }

  Field field_;
  double omega_ = 1;
  double v_eps_ = 0;
  int user_modes_ = 0;
  int guard_count_ = 0;
  double scales_[N] = {};
  int tracked_[kMaxTrackedComponents] = {};
  int tracked_count_ = 0;
  int local_[kMaxDescribedModes][kMaxGuards] = {};  // per mode: its guards (global indices), ids = positions here
  int local_count_[kMaxDescribedModes] = {};
  Guard guards_[kMaxDescribedGuards];
  int trace_order_[M] = {};
  int trace_components_ = 0;
  State release_a_[2] = {State::Zero(), State::Zero()};  // while resting: release into the stop's mode, the other side's
  double release_b_[2] = {0, 0};
  int release_count_ = 1;
  Failure failure_ = Failure::None;
  int failure_guard_ = -1;
};

// The CPU simulation's system: the description's own callables.
template <int N>
using DescribedSystem = BasicDescribedSystem<N, CallableField<N>>;

}  // namespace vibro
