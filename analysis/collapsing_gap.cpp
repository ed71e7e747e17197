#include "analysis/collapsing_gap.hpp"

#include <cmath>
#include <numeric>

namespace vibro {

namespace {

// Length of the thirds: a whole number of h samples (the gaps of a window near a period-2h orbit
// repeat with period h: thirds that cut that pattern at different phases have different means even
// where the gap does not change at all), at least 3; 0 when the sequence is too short.
std::size_t third_length(std::size_t size, int h) {
  const auto period = static_cast<std::size_t>(h < 1 ? 1 : h);
  const std::size_t third = size / 3 / period * period;
  return third < 3 ? 0 : third;
}

// Means of the gap over the last three equal thirds of the sequence, each a whole number of h
// samples; false when too short.
bool thirds(const std::vector<double>& gap, int h, double& g0, double& g1, double& g2) {
  const std::size_t third = third_length(gap.size(), h);
  if (third == 0) return false;
  const std::size_t first = gap.size() - 3 * third;  // the oldest samples left over, if any, are dropped
  const auto mean = [&](std::size_t k) {
    const auto begin = gap.begin() + static_cast<long>(first + k * third);
    return std::accumulate(begin, begin + static_cast<long>(third), 0.0) / static_cast<double>(third);
  };
  g0 = mean(0);
  g1 = mean(1);
  g2 = mean(2);
  return true;
}

}  // namespace

bool growing_gap(const std::vector<double>& gap, int h) {
  double g0 = 0, g1 = 0, g2 = 0;
  return thirds(gap, h, g0, g1, g2) && g0 < g1 && g1 < g2 && g2 > 1.01 * g0 && g2 > 1e-9;
}

bool shrinking_gap(const std::vector<double>& gap, int h) {
  double g0 = 0, g1 = 0, g2 = 0;
  if (h < 1 || !thirds(gap, h, g0, g1, g2)) return false;
  const std::size_t third = third_length(gap.size(), h);
  if (!(g0 > g1 && g1 > g2 && g2 > 0 && g2 < 0.995 * g0)) return false;
  // Each of the h interleaved sequences shrinks over the window: means that fall because the window
  // jumped from one orbit onto another (a gap pattern that changes its phases' values, none of them
  // shrinking) are no collapse.
  const std::size_t begin = gap.size() - 3 * third;
  for (std::size_t r = begin; r < begin + static_cast<std::size_t>(h); ++r) {
    const std::size_t last = r + (gap.size() - 1 - r) / static_cast<std::size_t>(h) * static_cast<std::size_t>(h);
    if (!(gap[last] < gap[r])) return false;
  }
  return true;
}

CollapsingGap collapsing_gap(const std::vector<double>& gap, int h) {
  CollapsingGap out;
  if (!shrinking_gap(gap, h)) return out;
  double g0 = 0, g1 = 0, g2 = 0;
  thirds(gap, h, g0, g1, g2);
  const std::size_t third = third_length(gap.size(), h);
  // Aitken: a geometric sequence g_inf + A r^k has g_inf = g2 - (g2 - g1)^2 / (g2 - 2 g1 + g0).
  const double curvature = g2 - 2 * g1 + g0;
  const double limit = curvature > 0 ? g2 - (g2 - g1) * (g2 - g1) / curvature : 0.0;
  if (!(limit < 0.25 * g2)) return out;
  out.collapsing = true;
  // The means of equal blocks of a geometric sequence are geometric with the blocks' ratio.
  out.multiplier = -std::pow(g2 / g0, static_cast<double>(h) / (2.0 * static_cast<double>(third)));
  return out;
}

}  // namespace vibro
