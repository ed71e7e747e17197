#include "analysis/window_rules.hpp"

#include <stdexcept>
#include <string>

#include "analysis/steady_state.hpp"

namespace vibro {

WindowRules window_rules(const StrobeLayout& layout, const SteadyStateSettings& settings) {
  WindowRules rules;
  rules.tol = settings.tol;
  rules.max_period = settings.max_period;
  rules.quasi_min_window = settings.quasi_min_window;
  rules.quasi_tol = settings.quasi_tol;
  rules.dims = layout.dims();
  if (rules.dims > kMaxStrobeDims || layout.state_scales.size() < static_cast<std::size_t>(rules.dims))
    throw std::invalid_argument("window_rules: a layout of " + std::to_string(rules.dims) + " state components and " +
                                std::to_string(layout.state_scales.size()) + " scales (at most " +
                                std::to_string(kMaxStrobeDims) + " components, a scale each)");
  for (int c = 0; c < rules.dims; ++c) {
    rules.state_scales[c] = layout.state_scales[static_cast<std::size_t>(c)];
    rules.angular[c] = layout.is_angle(c);
  }
  rules.drift_scale = layout.drift_scale;
  rules.period = layout.period;
  return rules;
}

}  // namespace vibro
