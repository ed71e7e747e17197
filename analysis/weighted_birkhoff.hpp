#pragma once
// Weighted Birkhoff averages (S. Das, Y. Saiki, E. Sander, J. A. Yorke, "Quantitative quasiperiodicity",
// Nonlinearity 30 (2017) 4111): the time average of a smooth observable f along an orbit, weighted
// by the smooth bump w(t) = exp(-1 / (t (1 - t))) on t = n / N,
//   WB_N(f) = sum_n w(n/N) f(x_n) / sum_n w(n/N),  n = 0 .. N-1,
// converges faster than any power of 1/N on a quasi-periodic orbit (a smooth invariant circle or torus
// with a Diophantine rotation vector) but only like 1/sqrt(N) on a chaotic one. Comparing the averages
// over two consecutive stretches of N points therefore tells a torus from chaos (the "dig" test of Das,
// Dock, Saiki, Salgado-Flores, Sander, Wu, Yorke, "Measuring quasiperiodicity", EPL 114 (2016) 40005).
// The templates take any window of samples (analysis/window_distance's Window) and run on a device too.
#include <cmath>
#include <limits>
#include <vector>

#include "analysis/window_distance.hpp"
#include "engine/core/host_device.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

// WB_N of the values f(x_0), ..., f(x_{N-1}).
double weighted_birkhoff_average(const std::vector<double>& values);
VIBRO_HD inline double weighted_birkhoff_average(const double* values, int count) {
  const auto n = static_cast<double>(count);
  double sum = 0, weights = 0;
  for (int i = 1; i < count; ++i) {  // w(0) = 0
    const double t = static_cast<double>(i) / n;
    const double w = std::exp(-1.0 / (t * (1.0 - t)));
    sum += w * values[i];
    weights += w;
  }
  return weights > 0 ? sum / weights : std::numeric_limits<double>::quiet_NaN();
}

// Largest difference between the weighted Birkhoff averages over the first and the second half of a
// window of stroboscopic samples, over the observables "each state component in the layout's scales"
// (cos and sin of it for an angle, StrobeLayout::angular) and "the drift increment over the following
// period in units of drift_scale * period", divided by the orbit's extent (the largest spread of any
// of these observables over the window). Samples 0 .. n-2
// carry the observables (the last one only closes the drift increment): two halves of (n-1)/2 points.
// 0 for a window whose observables do not vary; infinity for a window too short to halve.
double birkhoff_discrepancy(const std::vector<StrobeSample>& window, const StrobeLayout& layout);

namespace birkhoff_observables {

enum Kind { kScaled, kCos, kSin, kDriftStep };

// Observable `kind` of component c at sample i.
template <class Window>
VIBRO_HD double value(const Window& w, const WindowRules& rules, Kind kind, int c, int i, double drift_unit) {
  switch (kind) {
    case kScaled: return w.state(i, c) / rules.state_scales[c];
    case kCos: return std::cos(w.state(i, c));
    case kSin: return std::sin(w.state(i, c));
    default: return (w.drift(i + 1) - w.drift(i)) / drift_unit;
  }
}

// One observable's values at samples 0 .. points-1 into f, then into the running difference of the
// halves' averages and the extent; false if any value is not finite.
template <class Window>
VIBRO_HD bool add(const Window& w, const WindowRules& rules, Kind kind, int c, double drift_unit, double* f,
                  double& difference, double& extent) {
  const int points = w.size() - 1;
  const int half = points / 2;
  for (int i = 0; i < points; ++i) {
    f[i] = value(w, rules, kind, c, i, drift_unit);
    if (!std::isfinite(f[i])) return false;
  }
  // std::minmax_element's: the first smallest and the last largest.
  double lo = f[0], hi = f[0];
  for (int i = 1; i < points; ++i) {
    if (f[i] < lo) lo = f[i];
    if (!(f[i] < hi)) hi = f[i];
  }
  extent = larger(extent, hi - lo);
  const double first = weighted_birkhoff_average(f, half);
  const double second = weighted_birkhoff_average(f + half, half);
  difference = larger(difference, std::fabs(first - second));
  return true;
}

}  // namespace birkhoff_observables

// birkhoff_discrepancy over any window; f: room for w.size() - 1 doubles.
template <class Window>
VIBRO_HD double birkhoff_discrepancy_of(const Window& w, const WindowRules& rules, double* f) {
  namespace ob = birkhoff_observables;
  const double inf = std::numeric_limits<double>::infinity();
  const int points = w.size() - 1;
  const int half = points / 2;
  if (half < 2) return inf;
  double difference = 0, extent = 0;
  const double drift_unit = rules.drift_scale * rules.period;
  for (int c = 0; c < rules.dims; ++c) {
    const bool finite = rules.angular[c] ? ob::add(w, rules, ob::kCos, c, drift_unit, f, difference, extent) &&
                                               ob::add(w, rules, ob::kSin, c, drift_unit, f, difference, extent)
                                         : ob::add(w, rules, ob::kScaled, c, drift_unit, f, difference, extent);
    if (!finite) return inf;
  }
  if (!ob::add(w, rules, ob::kDriftStep, 0, drift_unit, f, difference, extent)) return inf;
  return extent > 0 ? difference / extent : 0.0;
}

}  // namespace vibro
