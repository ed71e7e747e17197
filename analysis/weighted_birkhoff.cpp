#include "analysis/weighted_birkhoff.hpp"

#include "analysis/steady_state.hpp"
#include "analysis/strobe_sample_window.hpp"

namespace vibro {

// The vector forms of the header's templates.
double weighted_birkhoff_average(const std::vector<double>& values) {
  return weighted_birkhoff_average(values.data(), static_cast<int>(values.size()));
}

double birkhoff_discrepancy(const std::vector<StrobeSample>& window, const StrobeLayout& layout) {
  std::vector<double> f(window.size());
  return birkhoff_discrepancy_of(window_of(window), window_rules(layout, SteadyStateSettings{}), f.data());
}

}  // namespace vibro
