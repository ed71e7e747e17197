#pragma once
// A two-body system as the integrator sees it while a trace is attached: the same system, with its
// accepted steps' dense output reported on the trace's grid and each event reported with the state
// before and after it. The event's kind is read from what it did: the counters it advanced
// ("impact", "impact+sticking", "release", ...) or else the mode it switched ("contact_to_free").
#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>

#include "engine/core/strobe_sample.hpp"
#include "engine/core/trace_sink.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/two_body_state.hpp"

namespace vibro::two_body {

// The section's components (x1, v1, u2 = x2 - rest2, v2) of a two-body state.
inline void two_body_trace_state(const TwoBodyState& x, double rest2, double* out) {
  out[0] = x[0];
  out[1] = x[1];
  out[2] = x[2] - rest2;
  out[3] = x[3];
}

template <class System>
class TracedTwoBody {
 public:
  using State = TwoBodyState;
  TracedTwoBody(System& system, TraceSink& sink, const StrobeLayout& layout, double rest2)
      : system_(system), sink_(sink), layout_(layout), rest2_(rest2) {}

  void rhs(double t, const State& x, State& dx) const { system_.rhs(t, x, dx); }
  int guards(AffineGuard<6>* out) const { return system_.guards(out); }
  void observe(const DenseStep<6>& step, double theta_end) {
    system_.observe(step, theta_end);
    sink_.fill_to(step.t0 + theta_end * step.h, static_cast<int>(system_.mode),
                  [&](double t, double* out) { two_body_trace_state(step.at((t - step.t0) / step.h), rest2_, out); });
  }
  bool on_events(double t, State& x, const EventHit* hits, int count) {
    const State before = x;
    const auto counters = system_.sample->counters;
    const int mode = static_cast<int>(system_.mode);
    const bool go_on = system_.on_events(t, x, hits, count);
    double a[4], b[4];
    two_body_trace_state(before, rest2_, a);
    two_body_trace_state(x, rest2_, b);
    sink_.on_event(t, kind(counters, mode), a, b);
    return go_on;
  }

 private:
  std::string kind(const std::array<std::int64_t, kMaxCounters>& before, int mode_before) const {
    const std::string counted = counted_event_kind(layout_.counter_names, before.data(), system_.sample->counters.data());
    if (!counted.empty()) return counted;
    const int mode_after = static_cast<int>(system_.mode);
    return mode_after == mode_before ? "event" : mode_switch_kind(layout_.mode_names, mode_before, mode_after);
  }
  System& system_;
  TraceSink& sink_;
  const StrobeLayout& layout_;
  double rest2_;
};

}  // namespace vibro::two_body
