#pragma once
// What the steady-state window tests read of a layout and the settings, as plain numbers: built once
// on the host, read by the tests on the host and on a device alike (analysis/window_classification).
#include "engine/core/strobe_sample.hpp"

namespace vibro {

struct SteadyStateSettings;

struct WindowRules {
  int dims = 0;                                // state components compared
  double state_scales[kMaxStrobeDims] = {};    // StrobeLayout::state_scales
  bool angular[kMaxStrobeDims] = {};           // StrobeLayout::is_angle
  double drift_scale = 1, period = 1;          // StrobeLayout::drift_scale, period
  double tol = 1e-4; int max_period = 16;      // SteadyStateSettings' period test
  int quasi_min_window = 100; double quasi_tol = 1e-6;  // and its quasi-periodic test
};

// The layout's scales and the settings' tolerances (std::invalid_argument for a layout of more than
// kMaxStrobeDims components or fewer scales than components).
WindowRules window_rules(const StrobeLayout& layout, const SteadyStateSettings& settings);

}  // namespace vibro
