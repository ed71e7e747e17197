#pragma once
// The scaled distance between two stretches of one case's stroboscopic samples, over any window of
// samples (a Window: int size() const; double state(int i, int c) const; double drift(int i) const),
// on the host and on a device: the one source of the period tests' comparisons.
#include <cmath>
#include <limits>

#include "analysis/window_rules.hpp"
#include "engine/core/host_device.hpp"

namespace vibro {

// std::max(a, b), here and on a device: a when b is not larger (a NaN b is dropped).
VIBRO_HD inline double larger(double a, double b) { return a < b ? b : a; }

// Distance between samples i and j: the largest scaled difference of any state component and of the
// drift increments over the following period (samples i + 1 and j + 1); +inf where it is NaN.
template <class Window>
VIBRO_HD double window_distance(const Window& w, int i, int j, const WindowRules& rules) {
  double d = 0;
  for (int c = 0; c < rules.dims; ++c) d = larger(d, std::fabs(w.state(i, c) - w.state(j, c)) / rules.state_scales[c]);
  const double da = w.drift(i + 1) - w.drift(i);
  const double db = w.drift(j + 1) - w.drift(j);
  d = larger(d, std::fabs(da - db) / (rules.drift_scale * rules.period));
  return std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
}

// Whether window_distance(w, i, j, rules) < tol, decided at the first component that settles it: the
// same decision as comparing the whole distance (a maximum of 0 and the terms, NaN terms dropped, is
// >= tol exactly when 0 >= tol or some term is), with the same terms' bits.
// j_drift_step: w.drift(j + 1) - w.drift(j), which a caller comparing many samples against the same
// j computes once.
template <class Window>
VIBRO_HD bool window_within(const Window& w, int i, int j, double j_drift_step, const WindowRules& rules, double tol) {
  if (!(0 < tol)) return false;
  for (int c = 0; c < rules.dims; ++c)
    if (std::fabs(w.state(i, c) - w.state(j, c)) / rules.state_scales[c] >= tol) return false;
  const double da = w.drift(i + 1) - w.drift(i);
  return !(std::fabs(da - j_drift_step) / (rules.drift_scale * rules.period) >= tol);
}

// Largest distance over the pairs (i, i + k), i in [first, last] (needs sample last + k + 1).
template <class Window>
VIBRO_HD double max_pair_distance(const Window& w, int k, int first, int last, const WindowRules& rules) {
  double worst = 0;
  for (int i = first; i <= last; ++i) worst = larger(worst, window_distance(w, i, i + k, rules));
  return worst;
}

// Whether every pair (i, i + k), i in [first, last], is within tol: max_pair_distance(...) < tol,
// stopping at the first pair that is not.
template <class Window>
VIBRO_HD bool pairs_within(const Window& w, int k, int first, int last, const WindowRules& rules, double tol) {
  for (int i = first; i <= last; ++i)
    if (!window_within(w, i, i + k, w.drift(i + k + 1) - w.drift(i + k), rules, tol)) return false;
  return true;
}

}  // namespace vibro
