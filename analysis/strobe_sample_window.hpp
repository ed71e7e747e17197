#pragma once
// Whole StrobeSamples read as a window of the window tests (analysis/window_classification): the host's
// view of a SteadyState's window, so that it is classified by the same source as a device's rows.
#include <cstdint>
#include <vector>

#include "engine/core/strobe_sample.hpp"

namespace vibro {

struct StrobeSampleWindow {
  const StrobeSample* samples = nullptr;
  int count = 0;
  int size() const { return count; }
  double state(int i, int c) const { return samples[i].state[static_cast<std::size_t>(c)]; }
  double drift(int i) const { return samples[i].drift_position; }
  std::int64_t counter(int i, int c) const { return samples[i].counters[static_cast<std::size_t>(c)]; }
  // What a model's summary reads besides (models/conveyor/conveyor_window.hpp).
  int mode(int i) const { return samples[i].mode; }
  double aux(int i, int a) const { return samples[i].aux[static_cast<std::size_t>(a)]; }
};

inline StrobeSampleWindow window_of(const std::vector<StrobeSample>& samples) {
  return {samples.data(), static_cast<int>(samples.size())};
}

}  // namespace vibro
