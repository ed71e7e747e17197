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
  const int points = static_cast<int>(window.size()) - 1;
  const int half = points / 2;
  if (half < 2) return std::numeric_limits<double>::infinity();
  double difference = 0, extent = 0;
  std::vector<double> f(static_cast<std::size_t>(points));
  for (int c = 0; c <= layout.dims(); ++c) {  // c == dims: the drift increment
    for (int i = 0; i < points; ++i) {
      const auto& a = window[static_cast<std::size_t>(i)];
      const auto& b = window[static_cast<std::size_t>(i) + 1];
      f[static_cast<std::size_t>(i)] =
          c < layout.dims() ? a.state[static_cast<std::size_t>(c)] / layout.state_scales[static_cast<std::size_t>(c)]
                            : (b.drift_position - a.drift_position) / (layout.drift_scale * layout.period);
      if (!std::isfinite(f[static_cast<std::size_t>(i)])) return std::numeric_limits<double>::infinity();
    }
    const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
    extent = std::max(extent, *hi - *lo);
    const double first = weighted_birkhoff_average({f.begin(), f.begin() + half});
    const double second = weighted_birkhoff_average({f.begin() + half, f.begin() + 2 * half});
    difference = std::max(difference, std::fabs(first - second));
  }
  return extent > 0 ? difference / extent : 0.0;
}

}  // namespace vibro
