#pragma once
// The ball balancer as an event-driven simulation: DOPRI5 steps with the topology (trains, stuck
// groups, friction signs) frozen, so every step integrates a smooth system; on each accepted step
// the first event along its dense output is located:
//   - a gap between free neighbours closing (affine in the state: polynomial_first_root, never
//     missed, grazing included) -> impact, train impacts, train formation (thesis Chapter VII);
//   - a slipping group's relative rate theta' - phi' reaching zero (affine) -> the friction sign
//     flips, or the group sticks to the race when sign() friction can hold it (Filippov);
//   - a train contact force reaching zero (separation, 3.7) or a stuck group's friction reaching
//     its capacity (release): functions of the accelerations through a linear solve, bounded over
//     parts of the step by interval enclosures (enclosure_first_root): never missed either.
// Samples are taken at t = k T, T = 2 pi / spin (once per revolution).
#include <array>
#include <cstdint>

#include "engine/core/model.hpp"
#include "engine/events/polynomial_first_root.hpp"
#include "engine/roots/enclosure_first_root.hpp"
#include "engine/ode/dormand_prince5.hpp"
#include "models/ball_balancer/ball_balancer_dynamics.hpp"

namespace vibro::ball_balancer {

enum BallCounter { kImpacts, kTrainsFormed, kSeparations, kSticks, kSlipReversals, kSteps, kRejectedSteps, kCounterCount };
// Per-revolution quantities in StrobeSample::aux, for the revolution that ends at the sample.
// psi_1 = theta_1 - phi and beta = theta_2 - theta_1 are continuous (not wrapped).
enum BallAux { kMaxX, kMaxY, kMinPsi, kMaxPsi, kPsiAtSample, kMinBeta, kMaxBeta };

class BallBalancerSimulation : public Simulation {
 public:
  explicit BallBalancerSimulation(const BallBalancerConstants& c);
  // Starts from an explicit state (tests): rotor and ball coordinates as in State.
  BallBalancerSimulation(const BallBalancerConstants& c, const State& y0);

  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  // Starts a fresh simulation from another case's stroboscopic sample (continuation along an axis):
  // psi_i are re-anchored to the spin angle at t = k T of this case; trains and stuck balls are
  // re-detected. False when finite-radius balls would overlap, and for a simulation that has already
  // run: the steady-state detector's extrapolated jumps are refused, because the slow drift of the
  // balls near a critical transition is no geometric approach to a fixed point (accepting them turned
  // the slowly locking case m_e/m_P = 0.54 at 1.5 omega_n into a drifting one).
  bool restart_from(const StrobeSample& sample) override;
  // The section (x, y - y_eq, psi_i, their rates) and the first ball's arc position s = R psi_1, from
  // each step's dense output; every event with the state before and after it.
  TraceLayout trace_layout() const override;
  void attach_trace(TraceSink* sink) override;

  // Integrates to t_end, handling every event on the way.
  void advance(double t_end);
  double time() const { return t_; }
  const State& state() const { return y_; }
  const Topology& topology() const { return topology_; }
  const BallBalancerDynamics& dynamics() const { return dynamics_; }
  const std::array<std::int64_t, kCounterCount>& counters() const { return counters_; }
  // Optional observer of events (tests): kind is a BallCounter, k the pair or group leader.
  struct EventLog {
    virtual ~EventLog() = default;
    virtual void on_event(int kind, int k, double t, const State& y) = 0;
  };
  void set_event_log(EventLog* log) { log_ = log; }

  // The lowest train contact force or stuck-group friction margin at (t, y) in the current topology
  // (which: the pair k, or kMaxBalls + the group leader; -1 when there is none).
  double nonsmooth_value(double t, const State& y, int& which) const;
  // Its first zero on a step's dense output, proved absent before the returned step fraction
  // (2 when it stays positive on the whole step).
  double first_nonsmooth(const DenseStep<kStateSize>& step) const;

 private:
  enum class Event { None, Gap, Reversal, NonSmooth };
  void initialise();
  void track(const DenseStep<kStateSize>& step, double theta_end);
  void reset_tracking();
  void trace_step(const DenseStep<kStateSize>& step, double t_stop);  // grid times up to t_stop
  StrobeSample make_sample() const;
  // The section's components of (t, y), then the drift position (the trace's layout).
  void section_state(double t, const State& y, double* out) const;
  double first_affine(const DenseStep<kStateSize>& step, const State& a, double b, Crossing crossing) const;
  GuardEnclosure nonsmooth_enclosure(const DenseStep<kStateSize>& step, double a, double b) const;  // over [a, b]
  void on_collision(int pair);
  void on_reversal(int leader);
  void on_nonsmooth(int which);
  void enforce_compression();     // drops train contacts with tension, most tensile first
  void refresh_friction_modes();  // slip sign or stick for each group after a topology change
  void decide_at_rest(int leader, int preferred_slip);
  bool has_nonsmooth_guards() const;
  void log(int kind, int k);

  BallBalancerConstants c_;
  BallBalancerDynamics dynamics_;
  StrobeLayout layout_;
  DormandPrince5<kStateSize> stepper_;
  double t_ = 0, h_ = 0;
  State y_;
  mutable Topology topology_;
  std::int64_t period_ = 0;
  bool sampled_start_ = false;
  int stalled_ = 0;
  std::array<std::int64_t, kCounterCount> counters_{};
  StrobeAux aux_{};
  EventLog* log_ = nullptr;
  TraceSink* sink_ = nullptr;
};

}  // namespace vibro::ball_balancer
