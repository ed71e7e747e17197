#pragma once
// Event-driven integration of a hybrid system: adaptive DOPRI5 steps, and on every accepted step
// the first root of each affine guard a.x + b along the step's dense output, found by
// polynomial_first_root (never missed, grazing included). The earliest event and all events
// within `simultaneity` of it are handed to the system in time order; the system applies its
// resets and mode switches. A guard the state sits on at the start of a step (the event just
// handled) has that root deflated, so it is not detected again.
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

#include "engine/core/case_budget.hpp"
#include "engine/events/affine_guard_root.hpp"
#include "engine/ode/dormand_prince5.hpp"

namespace vibro {

inline constexpr int kMaxGuards = 8;

template <int N>
struct AffineGuard {
  Eigen::Matrix<double, N, 1> a;
  double b = 0;
  Crossing crossing = Crossing::Falling;
  int id = 0;  // the system's name for it, echoed in EventHit
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

template <int N>
class HybridIntegrator {
 public:
  using State = Eigen::Matrix<double, N, 1>;

  explicit HybridIntegrator(StepControl control = {}, double simultaneity = 1e-12)
      : control_(control), simultaneity_(simultaneity) {}

  // Advances (t, x) to t_end, or to the first event after which the system asks to stop.
  // Returns true when t_end was reached.
  template <class System>
  bool advance(System& system, double& t, State& x, double t_end) {
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
        if (h_ < control_.h_min * std::max(1.0, std::fabs(t)))
          throw StepFailure("step size underflow at t = " + std::to_string(t));
        continue;
      }
      ++stats_.steps;
      if (!last || h_next < h_) h_ = h_next;

      // Events in this step.
      std::array<AffineGuard<N>, kMaxGuards> guards;
      const int count = system.guards(guards.data());
      std::array<EventHit, kMaxGuards> hits;
      int found = 0;
      for (int g = 0; g < count; ++g) {
        const auto hit = locate(dense, guards[static_cast<std::size_t>(g)]);
        if (hit.found) hits[static_cast<std::size_t>(found++)] = {guards[static_cast<std::size_t>(g)].id, t + hit.theta * h, hit.grazing};
      }
      if (found == 0) {
        system.observe(dense, 1.0);
        t = last ? t_end : t + h;
        x = y_new;
        k1 = k_new;
        continue;
      }
      for (int i = 1; i < found; ++i)  // insertion sort by time: a handful of guards
        for (int j = i; j > 0 && hits[static_cast<std::size_t>(j)].t < hits[static_cast<std::size_t>(j - 1)].t; --j)
          std::swap(hits[static_cast<std::size_t>(j)], hits[static_cast<std::size_t>(j - 1)]);
      const double t_event = hits[0].t;
      int together = 1;
      while (together < found && hits[static_cast<std::size_t>(together)].t - t_event <= simultaneity_ * std::max(1.0, std::fabs(t_event)))
        ++together;
      system.observe(dense, (t_event - t) / h);
      x = dense.at((t_event - t) / h);
      // Events that keep firing without time advancing (an unresolved Zeno sequence) fail the case
      // instead of stalling it.
      stalled_ = t_event - t <= kGuardResolution * h ? stalled_ + 1 : 0;
      if (stalled_ > kMaxStalledEvents)
        throw StepFailure("events repeat without time advancing at t = " + std::to_string(t_event) +
                          " (unresolved accumulation)");
      t = t_event;
      stats_.events += together;
      charge_events(together);
      if (!system.on_events(t, x, hits.data(), together)) return false;
      f(t, x, k1);
      ++stats_.evaluations;
    }
    return true;
  }

  const HybridStats& stats() const { return stats_; }
  void reset_step() { h_ = 0; }

 private:
  PolynomialRoot locate(const DenseStep<N>& dense, const AffineGuard<N>& guard) const {
    return first_affine_guard_root(dense, guard.a, guard.b, guard.crossing);
  }

  double initial_step(double t, double t_end) const {
    return std::min({control_.h_max, 1e-3 * std::max(1e-12, t_end - t), 1e-2});
  }

  static constexpr int kMaxStalledEvents = 1000;
  StepControl control_;
  double simultaneity_;
  DormandPrince5<N> stepper_;
  double h_ = 0;
  int stalled_ = 0;
  HybridStats stats_;
};

}  // namespace vibro
