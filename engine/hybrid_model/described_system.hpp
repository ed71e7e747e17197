#pragma once
// A HybridDescription as the system the engine's HybridIntegrator and VariationalSystem integrate:
// the state (x, cos wt, sin wt), the current mode's vector field and guards, the events' resets with
// their counters, the Jacobian of the vector field by automatic differentiation, and the Jacobian of
// each reset (for the saltation matrices). Modes 0..U-1 are the description's; mode U + g is "resting
// on stop g" (sticking), whose one guard is the release: the free field's pressing acceleration,
// affine in the state and forcing, falling through zero.
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
    local_.assign(static_cast<std::size_t>(modes), {});
    for (int g = 0; g < static_cast<int>(d_->guards().size()); ++g) {
      const auto& guard = d_->guards()[static_cast<std::size_t>(g)];
      if (guard.mode < 0 || guard.mode >= modes) throw std::invalid_argument("guard '" + guard.name + "' belongs to no mode");
      local_[static_cast<std::size_t>(guard.mode)].push_back(g);
    }
    for (int m = 0; m < modes; ++m)
      if (local_[static_cast<std::size_t>(m)].size() > static_cast<std::size_t>(kMaxGuards))
        throw std::invalid_argument("mode '" + d_->modes()[static_cast<std::size_t>(m)].name + "' has more than " +
                                    std::to_string(kMaxGuards) + " guards");
    mode = d_->initial_mode;
  }

  int mode = 0;
  StrobeSample* sample = nullptr;  // counters and per-period aux go here

  const Description& description() const { return *d_; }
  int user_modes() const { return static_cast<int>(d_->modes().size()); }
  bool stuck() const { return mode >= user_modes(); }
  const StopLaw& stuck_law() const { return guard(mode - user_modes()).stop; }
  double omega() const { return omega_; }

  void rhs(double, const State& y, State& dy) const {
    Eigen::Matrix<double, N, 1> dx;
    field().field(y.template head<N>(), Drive<double>{y[N], y[N + 1]}, dx);
    dy.template head<N>() = dx;
    if (stuck()) dy[stuck_law().position] = dy[stuck_law().velocity] = 0;
    dy[N] = -omega_ * y[N + 1];
    dy[N + 1] = omega_ * y[N];
  }

  void jacobian(double, const State& y, Matrix& J) const {
    J.setZero();
    J.template topRows<N>() = field_gradient(y);
    if (stuck()) J.row(stuck_law().position).setZero(), J.row(stuck_law().velocity).setZero();
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
      const auto& g = guard(mine[i]);
      AffineGuard<M>& o = out[i];
      o.id = static_cast<int>(i);
      o.a.setZero();
      if (g.is_stop) {
        o.a[g.stop.position] = 1;
        o.b = -g.stop.at;
        o.crossing = g.stop.stop_above ? Crossing::Rising : Crossing::Falling;
      } else {
        o.a.template head<N>() = g.change.a;
        o.a[N] = g.change.a_cos;
        o.a[N + 1] = g.change.a_sin;
        o.b = g.change.b;
        o.crossing = g.change.crossing;
      }
    }
    return static_cast<int>(mine.size());
  }

  bool on_events(double t, State& y, const EventHit* hits, int count) {
    for (int i = 0; i < count; ++i) apply(t, hits[i], y);
    return true;
  }

  // d(state after) / d(state before) of the event `hit` (identity where nothing jumps).
  Matrix reset_jacobian(const EventHit& hit, const State& y) const {
    Matrix R = Matrix::Identity();
    if (stuck()) return R;
    const auto& g = guard(global(hit.id));
    if (!g.is_stop) return R;
    const StopLaw& law = g.stop;
    State after = y;
    const Outcome outcome = impact(law, after);
    R(law.velocity, law.velocity) = -law.restitution;
    if (law.tangential >= 0) {
      R.row(law.tangential).setZero();
      if (!outcome.clamped) {  // v_t -= sign(v_t) mu (1 + r) (approach speed), approach = s v
        R(law.tangential, law.tangential) = 1;
        R(law.tangential, law.velocity) = -(y[law.tangential] > 0 ? 1 : -1) * law.mu * (1 + law.restitution) * side(law);
      }
    }
    if (outcome.sticks) R.row(law.velocity).setZero();
    return R;
  }

  // Per accepted step (up to theta_end): the step count and the tracked components' extremes.
  void observe(const DenseStep<M>& step, double theta_end) {
    ++sample->counters[kHybridSteps];
    for (std::size_t k = 0; k < frame_.tracked.size(); ++k) {
      const int c = frame_.tracked[k];
      double& hi = sample->aux[kAuxFirstExtreme + 2 * k];
      double& lo = sample->aux[kAuxFirstExtreme + 2 * k + 1];
      auto track = [&](double theta) {
        const double v = step.at(theta)[c];
        hi = std::max(hi, v);
        lo = std::min(lo, v);
      };
      track(0);
      track(theta_end);
      // The step's first stationary point (h_max allows one per step), a root of the derivative.
      State row = State::Zero();
      row[c] = 1;
      double p[5], dp[4];
      step.affine_polynomial(row, 0, p);
      for (int j = 0; j < 4; ++j) dp[j] = (j + 1) * p[j + 1];
      const PolynomialRoot root = polynomial_first_root(dp, 3, Crossing::Either);
      if (root.found && root.theta <= theta_end) track(root.theta);
    }
  }

  // Puts the system in `new_mode` at state y (a restart): a resting mode gets its release guard.
  // False when y is not a state of that mode (a stop penetrated beyond rounding).
  bool enter(int new_mode, State& y) {
    if (new_mode < 0 || new_mode >= user_modes() + static_cast<int>(d_->guards().size())) return false;
    mode = new_mode;
    if (stuck()) {
      const StopLaw& law = stuck_law();
      if (!guard(mode - user_modes()).is_stop) return false;
      y[law.position] = law.at;
      y[law.velocity] = 0;
      set_release_guard(y);
      return true;
    }
    settle(y);
    for (const int g : local_[static_cast<std::size_t>(mode)]) {
      const auto& gd = guard(g);
      if (!gd.is_stop) continue;
      const double inside = side(gd.stop) * (y[gd.stop.position] - gd.stop.at);  // > 0: through the stop
      const double scale = d_->scales[static_cast<std::size_t>(gd.stop.position)];
      if (inside > 1e-9 * scale) return false;
      if (inside > 0) y[gd.stop.position] = gd.stop.at;
    }
    return true;
  }

 private:
  struct Outcome {
    bool sticks = false, clamped = false;
  };
  const typename Description::Guard& guard(int g) const { return d_->guards()[static_cast<std::size_t>(g)]; }
  int global(int local_id) const { return local_[static_cast<std::size_t>(mode)][static_cast<std::size_t>(local_id)]; }
  const typename Description::Mode& field() const {
    return d_->modes()[static_cast<std::size_t>(stuck() ? guard(mode - user_modes()).mode : mode)];
  }
  static double side(const StopLaw& law) { return law.stop_above ? 1.0 : -1.0; }

  // Rows 0..N-1 of the vector field's Jacobian in (x, cos, sin), by forward automatic differentiation.
  Eigen::Matrix<double, N, M> field_gradient(const State& y) const {
    typename Description::JetState x, dx;
    for (int i = 0; i < N; ++i) x[i] = Jet(y[i], M, i);
    field().jet_field(x, Drive<Jet>{Jet(y[N], M, N), Jet(y[N + 1], M, N + 1)}, dx);
    Eigen::Matrix<double, N, M> J;
    for (int i = 0; i < N; ++i) J.row(i) = dx[i].derivatives().transpose();
    return J;
  }
  double pressing(const StopLaw& law, const State& y) const {
    Eigen::Matrix<double, N, 1> dx;
    field().field(y.template head<N>(), Drive<double>{y[N], y[N + 1]}, dx);
    return side(law) * dx[law.velocity];
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

  // Newton restitution (and the Coulomb impulse) of a hit on `law`'s stop, applied to y; whether the
  // chatter has run out and the body rests on the stop.
  Outcome impact(const StopLaw& law, State& y) const {
    Outcome outcome;
    const double approach = side(law) * y[law.velocity];
    const NormalImpact hit = newton_restitution(-approach, law.restitution);
    y[law.position] = law.at;  // exactly on the stop, so the handled root is deflated
    y[law.velocity] = -side(law) * hit.u_after;
    if (law.tangential >= 0) {
      y[law.tangential] = coulomb_impulse(y[law.tangential], 0.0, law.mu, hit.impulse);
      outcome.clamped = y[law.tangential] == 0;
    }
    if (law.sticks && hit.u_after < frame_.numerics.v_eps) {
      State resting = y;
      resting[law.velocity] = 0;
      outcome.sticks = pressing(law, resting) > 0;
    }
    if (outcome.sticks) y[law.velocity] = 0;
    return outcome;
  }

  void apply(double t, const EventHit& hit, State& y) {
    if (stuck()) {
      mode = guard(mode - user_modes()).mode;
      ++sample->counters[kHybridReleases];
      return;
    }
    const int g = global(hit.id);
    const auto& gd = guard(g);
    if (!gd.is_stop) {
      mode = gd.change.target;
      ++sample->counters[kHybridSwitches];
      sample->counters[kHybridSwitches] += settle(y);
      return;
    }
    ++sample->counters[hit.grazing ? kHybridGrazings : kHybridImpacts];
    sample->aux[kAuxImpactPhase] = std::fmod(omega_ * t, 2 * M_PI);
    sample->aux[kAuxImpactSpeed] = side(gd.stop) * y[gd.stop.velocity];
    if (impact(gd.stop, y).sticks) {
      mode = user_modes() + g;
      ++sample->counters[kHybridStickings];
      set_release_guard(y);
    }
  }

  // The pressing acceleration of the resting body as an affine function of (x, cos, sin): its value
  // and gradient here, checked at a second point so that a non-affine one fails the case loudly
  // instead of releasing at the wrong time.
  void set_release_guard(const State& y) {
    const StopLaw& law = stuck_law();  // field() is the free mode's while resting
    const Eigen::Matrix<double, N, M> J = field_gradient(y);
    release_a_ = side(law) * J.row(law.velocity).transpose();
    release_a_[law.position] = release_a_[law.velocity] = 0;  // held on the stop
    release_b_ = pressing(law, y) - release_a_.dot(y);
    State probe = y;
    for (int i = 0; i < M; ++i)
      if (i != law.position && i != law.velocity) probe[i] += 0.37 * (1 + std::fabs(y[i]));
    const double predicted = release_a_.dot(probe) + release_b_, actual = pressing(law, probe);
    if (std::fabs(predicted - actual) > 1e-8 * (1 + std::fabs(actual)))
      throw CaseFailure("resting on stop '" + guard(mode - user_modes()).name +
                        "' needs a pressing acceleration affine in the state and forcing; it is not");
  }

  std::shared_ptr<const Description> d_;
  HybridFrame frame_;
  double omega_;
  std::vector<std::vector<int>> local_;  // per mode: its guards (global indices), ids = positions here
  State release_a_ = State::Zero();
  double release_b_ = 0;
};

}  // namespace vibro
