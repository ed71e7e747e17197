#include "analysis/orbit_limit.hpp"

#include <algorithm>

#include "analysis/linear_transient.hpp"

namespace vibro {

namespace {

// As the adaptive detector's jump: a fit within 2 % of the differences it relates, a limit at most
// one scale away (farther, the linear model is not to be trusted). And at most 10 newest differences
// away: along a multiplier near +1 the limit is the last difference over 1 - multiplier, and a small
// error in the fitted multiplier moves it far (near -1 it is about half a difference, well placed).
constexpr double kFitTolerance = 0.02;
constexpr double kFarthestJump = 1.0;
constexpr double kMostDifferences = 10.0;

// The linear transient of the window's phase that ends at sample `last`: its samples `period` apart
// (the newest kMaxExtrapolationColumns + 1 at most), their differences in scaled units. Not fitted
// (fits false) with fewer than 5 samples: degree 1 needs 3 differences at least, with one to check.
LinearTransient phase_transient(const std::vector<StatePoint>& window, long last, long period,
                                const std::vector<double>& scales, DifferenceMatrix& delta) {
  const auto dims = static_cast<long>(scales.size());
  const long samples = std::min<long>(kMaxExtrapolationColumns + 1, last / period + 1);
  if (samples < 5) {
    delta.resize(dims, 0);  // no differences: nothing unfilled for a caller to read
    return {};
  }
  delta.resize(dims, samples - 1);
  for (long col = 0; col < samples - 1; ++col) {
    const auto& a = window[static_cast<std::size_t>(last - (samples - 1 - col) * period)];
    const auto& b = window[static_cast<std::size_t>(last - (samples - 2 - col) * period)];
    for (long c = 0; c < dims; ++c) {
      const auto i = static_cast<std::size_t>(c);
      delta(c, col) = (b[i] - a[i]) / scales[i];
    }
  }
  return fit_linear_transient(delta, kFitTolerance);
}

}  // namespace

std::vector<StatePoint> orbit_limit(const std::vector<StatePoint>& window, int period, const std::vector<double>& scales) {
  std::vector<StatePoint> orbit = orbit_points(window, period);
  const auto n = static_cast<long>(window.size());
  const long k = std::max(period, 1);
  const auto dims = static_cast<long>(scales.size());
  if (dims > kMaxExtrapolationRows) return orbit;
  DifferenceMatrix delta;
  for (long j = 0; j < static_cast<long>(orbit.size()); ++j) {
    const long last = n - static_cast<long>(orbit.size()) + j;  // the window's index of orbit point j
    const LinearTransient fit = phase_transient(window, last, k, scales, delta);
    const double jump = fit.remaining.norm();
    if (!fit.fits || !(fit.spectral_radius < 1) || !(jump <= kFarthestJump) ||
        !(jump <= kMostDifferences * delta.col(delta.cols() - 1).norm()))
      continue;
    for (long c = 0; c < dims; ++c) {
      const auto i = static_cast<std::size_t>(c);
      orbit[static_cast<std::size_t>(j)][i] += fit.remaining(c) * scales[i];
    }
  }
  return orbit;
}

bool contracts_to_period(const std::vector<StatePoint>& window, int period, const std::vector<double>& scales) {
  const auto n = static_cast<long>(window.size());
  const long k = std::max(period, 1);
  if (scales.size() > static_cast<std::size_t>(kMaxExtrapolationRows) || n < k) return false;
  DifferenceMatrix delta;
  for (long last = n - k; last < n; ++last) {
    const LinearTransient fit = phase_transient(window, last, k, scales, delta);
    if (delta.cols() > 0 && delta.isZero(0.0)) continue;  // a phase already on its limit
    if (!fit.fits || !(fit.spectral_radius < 1 - fit.residual)) return false;
  }
  return true;
}

}  // namespace vibro
