#pragma once
// Synthetic stroboscopic sequences for the steady-state detector's tests: a generator of (a, b, drift
// increment, events in the period) per period k, on a two-component layout of unit scales.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/steady_state.hpp"

namespace vibro::test_support {

inline StrobeLayout unit_layout() {
  StrobeLayout layout;
  layout.state_names = {"a", "b"};
  layout.state_scales = {1.0, 1.0};
  layout.drift_scale = 1.0;
  layout.period = 1.0;
  layout.counter_names = {"events"};
  return layout;
}

struct Synthetic {
  std::function<std::array<double, 4>(int)> step;  // period k = 1, 2, ...
  std::vector<StrobeSample> samples(int n) const {
    std::vector<StrobeSample> out;
    double x = 0;
    std::int64_t events = 0;
    for (int k = 1; k <= n; ++k) {
      const auto s = step(k);
      StrobeSample sample;
      sample.period = k;
      sample.state[0] = s[0];
      sample.state[1] = s[1];
      x += s[2];
      events += static_cast<std::int64_t>(s[3]);
      sample.drift_position = x;
      sample.counters[0] = events;
      out.push_back(sample);
    }
    return out;
  }
};

// Runs the detector on the sequence until it stops (at the latest after settings.max_periods samples).
inline SteadyState detect(const Synthetic& sequence, SteadyStateSettings settings, int* periods_run = nullptr) {
  const StrobeLayout layout = unit_layout();
  SteadyStateDetector detector(layout, settings);
  for (const auto& sample : sequence.samples(settings.max_periods))
    if (!detector.on_sample(sample)) break;
  if (periods_run) *periods_run = detector.samples_seen();
  return detector.finish();
}

inline SteadyStateSettings fixed_mode() {
  SteadyStateSettings s;
  s.mode = SteadyMode::Fixed;
  return s;
}

}  // namespace vibro::test_support
