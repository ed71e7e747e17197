#include "analysis/weighted_birkhoff.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vibro {

double weighted_birkhoff_average(const std::vector<double>& values) {
  const auto n = static_cast<double>(values.size());
  double sum = 0, weights = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {  // w(0) = 0
    const double t = static_cast<double>(i) / n;
    const double w = std::exp(-1.0 / (t * (1.0 - t)));
    sum += w * values[i];
    weights += w;
  }
  return weights > 0 ? sum / weights : std::numeric_limits<double>::quiet_NaN();
}

double birkhoff_discrepancy(const std::vector<StrobeSample>& window, const StrobeLayout& layout) {
  const double inf = std::numeric_limits<double>::infinity();
  const int points = static_cast<int>(window.size()) - 1;
  const int half = points / 2;
  if (half < 2) return inf;
  double difference = 0, extent = 0;
  std::vector<double> f(static_cast<std::size_t>(points));
  // Observable g(i) at samples i = 0 .. points-1 into the running difference and extent; false if
  // any value is not finite.
  const auto add = [&](const auto& g) {
    for (int i = 0; i < points; ++i) {
      f[static_cast<std::size_t>(i)] = g(static_cast<std::size_t>(i));
      if (!std::isfinite(f[static_cast<std::size_t>(i)])) return false;
    }
    const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
    extent = std::max(extent, *hi - *lo);
    const double first = weighted_birkhoff_average({f.begin(), f.begin() + half});
    const double second = weighted_birkhoff_average({f.begin() + half, f.begin() + 2 * half});
    difference = std::max(difference, std::fabs(first - second));
    return true;
  };
  for (int c = 0; c < layout.dims(); ++c) {
    const auto k = static_cast<std::size_t>(c);
    const bool finite = layout.is_angle(c)
                            ? add([&](std::size_t i) { return std::cos(window[i].state[k]); }) &&
                                  add([&](std::size_t i) { return std::sin(window[i].state[k]); })
                            : add([&](std::size_t i) { return window[i].state[k] / layout.state_scales[k]; });
    if (!finite) return inf;
  }
  const double drift_unit = layout.drift_scale * layout.period;
  if (!add([&](std::size_t i) { return (window[i + 1].drift_position - window[i].drift_position) / drift_unit; }))
    return inf;
  return extent > 0 ? difference / extent : 0.0;
}

}  // namespace vibro
