#pragma once
// Event-driven integration of a hybrid system: adaptive DOPRI5 steps, and on every accepted step
// the first root of each affine guard a.x + b along the step's dense output, found by
// polynomial_first_root (never missed, grazing included). The earliest event and all events
// within `simultaneity` of it are handed to the system in time order; the system applies its
// resets and mode switches. A guard the state sits on at the start of a step (the event just
// handled) has that root deflated, so it is not detected again; at the start of a step that follows
// an event-free step (mid-mode: a period boundary, say) a guard on its crossing that moves across is
// crossed there (first_affine_guard_root's judge_start), so that a crossing within rounding after a
// step boundary is not skipped. After an event the system has judged its guards (and the event just
// handled is not reported again); at a start or a restart only those it asks for (judged_at_start).
//
// step_to is host-and-device code (engine/core/host_device.hpp) over a statically dispatched System:
// with VIBRO_HD members below, the same stepping, event location and resets run in a GPU kernel.
//
// System requirements (N fixed):
//   void rhs(double t, const State& x, State& dx) const;
//   int guards(AffineGuard<N>* out) const;                  // current mode's guards, <= kMaxGuards
//   bool on_events(double t, State& x, const EventHit* hits, int count);  // false: stop
//   void observe(const DenseStep<N>& step, double theta_end);  // each accepted step, up to theta_end
//                                                               // (< 1 when an event cut it short)
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/core/host_device.hpp"
#if !VIBRO_DEVICE_PASS
#include "engine/core/case_budget.hpp"
#endif
#include "engine/events/affine_guard_root.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

inline constexpr int kMaxGuards = 16;  // a 6-degree-of-freedom system with a stop on each side of each body fits

template <int N>
struct AffineGuard {
  Eigen::Matrix<double, N, 1> a;
  double b = 0;
  Crossing crossing = Crossing::Falling;
  int id = 0;  // the system's name for it, echoed in EventHit
  // Whether the event locator also judges it where a start or a restart puts the state on it (a stop:
  // nothing else does); false where the system judges its guards on entering a mode (settle()).
  bool judged_at_start = false;
};

struct EventHit {
  int id;
  double t;
  bool grazing;
};

struct HybridStats {
  long steps = 0, rejected = 0, evaluations = 0, events = 0;
};

class StepFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How HybridIntegrator::step_to ended: t_end reached, stopped by the system after an event, or
// failed (the step size underflowed at t; events repeated without time advancing at t).
enum class HybridStatus { Reached, Stopped, Underflow, Stalled };
struct HybridOutcome {
  HybridStatus status;
  double t;
};

// What StepFailure says for a failed outcome (host only).
inline std::string hybrid_failure_message(const HybridOutcome& outcome) {
  if (outcome.status == HybridStatus::Underflow) return "step size underflow at t = " + std::to_string(outcome.t);
  return "events repeat without time advancing at t = " + std::to_string(outcome.t) + " (unresolved accumulation)";
}

template <int N>
class HybridIntegrator {
 public:
  using State = Eigen::Matrix<double, N, 1>;

  explicit HybridIntegrator(StepControl control = {}, double simultaneity = 1e-12)
      : control_(control), simultaneity_(simultaneity) {}

  // Advances (t, x) to t_end, or to the first event after which the system asks to stop.
  // Returns true when t_end was reached; throws StepFailure when integration fails.
  template <class System>
  bool advance(System& system, double& t, State& x, double t_end) {
    const HybridOutcome outcome = step_to(system, t, x, t_end);
    if (outcome.status == HybridStatus::Underflow || outcome.status == HybridStatus::Stalled)
      throw StepFailure(hybrid_failure_message(outcome));
    return outcome.status == HybridStatus::Reached;
  }

  // The same, as host-and-device code: failures are returned, not thrown (the case's budget is
  // still charged, and throws, on the host).
  template <class System>
  VIBRO_HD HybridOutcome step_to(System& system, double& t, State& x, double t_end) {
    auto f = [&system](double time, const State& y, State& dy) { system.rhs(time, y, dy); };
    State k1, y_new, k_new;
    f(t, x, k1);
    ++stats_.evaluations;
    if (h_ <= 0) h_ = initial_step(t, t_end);
    while (t < t_end) {
      const double room = t_end - t;
      const bool last = h_ >= room;
      const double h = last ? room : h_;
      DenseStep<N> dense;
      double h_next = h;
      int evaluations = 0;
      const bool accepted = stepper_.attempt(f, t, x, k1, h, control_, y_new, k_new, dense, h_next, evaluations);
      stats_.evaluations += evaluations;
      if (!accepted) {
        ++stats_.rejected;
        h_ = h_next;
        if (h_ < control_.h_min * (std::fabs(t) > 1.0 ? std::fabs(t) : 1.0)) return {HybridStatus::Underflow, t};
        continue;
      }
      ++stats_.steps;
      if (!last || h_next < h_) h_ = h_next;

      // Events in this step.
      AffineGuard<N> guards[kMaxGuards];
      const int count = system.guards(guards);
      EventHit hits[kMaxGuards];
      int found = 0;
      for (int g = 0; g < count; ++g) {
        const bool judge_start = mid_mode_ || (fresh_ && guards[g].judged_at_start);
        const PolynomialRoot hit = first_affine_guard_root(dense, guards[g].a, guards[g].b, guards[g].crossing, judge_start);
        if (hit.found) hits[found++] = {guards[g].id, hit.theta == 1 ? (last ? t_end : t + h) : t + hit.theta * h, hit.grazing};
      }
      if (found == 0) {
        system.observe(dense, 1.0);
        mid_mode_ = true;
        fresh_ = false;
        t = last ? t_end : t + h;
        x = y_new;
        k1 = k_new;
        continue;
      }
      for (int i = 1; i < found; ++i)  // insertion sort by time: a handful of guards
        for (int j = i; j > 0 && hits[j].t < hits[j - 1].t; --j) {
          const EventHit earlier = hits[j];
          hits[j] = hits[j - 1];
          hits[j - 1] = earlier;
        }
      const double t_event = hits[0].t;
      int together = 1;
      const double scale = std::fabs(t_event) > 1.0 ? std::fabs(t_event) : 1.0;
      while (together < found && hits[together].t - t_event <= simultaneity_ * scale) ++together;
      system.observe(dense, (t_event - t) / h);
      x = dense.at((t_event - t) / h);
      // Events that keep firing without time advancing (an unresolved Zeno sequence) fail the case
      // instead of stalling it.
      stalled_ = t_event - t <= kGuardResolution * h ? stalled_ + 1 : 0;
      if (stalled_ > kMaxStalledEvents) return {HybridStatus::Stalled, t_event};
      t = t_event;
      stats_.events += together;
#if !VIBRO_DEVICE_PASS
      charge_events(together);
#endif
      mid_mode_ = fresh_ = false;
      if (!system.on_events(t, x, hits, together)) return {HybridStatus::Stopped, t};
      f(t, x, k1);
      ++stats_.evaluations;
    }
    return {HybridStatus::Reached, t};
  }

  VIBRO_HD const HybridStats& stats() const { return stats_; }
  // A fresh first step (a restart from a sample): no step size or event streak carried over.
  VIBRO_HD void reset_step() {
    h_ = 0;
    stalled_ = 0;
    mid_mode_ = false;
    fresh_ = true;
  }
  // Rolls the count of rejected steps back to what it was at a sample (a batch that stepped past it).
  void rewind_rejected(long rejected) { stats_.rejected = rejected; }

 private:
  VIBRO_HD double initial_step(double t, double t_end) const {
    const double span = 1e-3 * (1e-12 < t_end - t ? t_end - t : 1e-12);
    const double h = control_.h_max < span ? control_.h_max : span;  // std::min({h_max, span, 1e-2})
    return h < 1e-2 ? h : 1e-2;
  }

  static constexpr int kMaxStalledEvents = 1000;
  StepControl control_;
  double simultaneity_;
  DormandPrince5<N> stepper_;
  double h_ = 0;
  int stalled_ = 0;
  bool mid_mode_ = false;  // the next step starts where an event-free step ended (not an event, start or restart)
  bool fresh_ = true;      // the next step is the first of a start or a restart
  HybridStats stats_;
};

}  // namespace vibro
