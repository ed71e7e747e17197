#pragma once
// Near a flip (period-doubling) point a stable period-h orbit has a multiplier close to -1: a
// transient on its way to it alternates between two sides of the orbit while their gap shrinks by
// |multiplier| every h periods, so slowly that over a window the samples h apart stay far from each
// other while those 2h apart are already close: a period-2h test passes. What tells it from a genuine
// period-2h orbit is the gap between samples h apart as the window goes on: it shrinks geometrically
// towards 0 for the transient, and tends to a positive limit for the doubled orbit.
#include <cmath>
#include <vector>

#include "engine/core/host_device.hpp"

namespace vibro {

struct CollapsingGap {
  bool collapsing = false;  // the gap shrinks towards 0: a period-h orbit, not the doubled one
  double multiplier = 0;    // estimate of the period-h map's multiplier (negative) when collapsing
};

// gap[i]: distance between samples i and i+h of a window, oldest first (at least 9 of them, and 3 h).
// The gap's means over the window's three thirds (each a whole number of h samples: a period-2h orbit's
// gaps repeat with period h, and thirds that cut that pattern at different phases would differ) must decrease strictly and significantly (the last below
// 0.995 of the first), each of its h interleaved sequences (gap[i], gap[i + h], ...) must end below
// where it began (a window that jumps onto another orbit changes the pattern's values without any of
// them shrinking), and its limit extrapolated from the thirds by Aitken's delta-squared must lie below
// a quarter of the last third's (a gap whose decrease accelerates has no positive limit either).
// The multiplier: -(ratio of consecutive thirds' means)^(h / third's length).
CollapsingGap collapsing_gap(const std::vector<double>& gap, int h);

// The first part of that test alone: the thirds' means decrease strictly and significantly and each
// interleaved sequence ends below where it began, with no judgement of the limit (for a caller that
// measures the contraction otherwise, analysis/orbit_limit's contracts_to_period).
bool shrinking_gap(const std::vector<double>& gap, int h);

// The other way: the gap between samples h apart grows steadily over the window (its thirds' means,
// each a whole number of h samples, increase, the last by more than 1 % over the first, above round-off). Such a window passes a
// period test only because it departs slowly from an unstable orbit (just past a flip, from the
// period-h orbit towards the doubled one): it has not settled anywhere yet.
bool growing_gap(const std::vector<double>& gap, int h = 1);

// The same three tests over gap[0 .. size), without a vector (a device classifying a window passes
// its scratch), below; the vector forms above call them.

namespace gap_thirds {

// Length of the thirds: a whole number of h samples (the gaps of a window near a period-2h orbit
// repeat with period h: thirds that cut that pattern at different phases have different means even
// where the gap does not change at all), at least 3; 0 when the sequence is too short.
VIBRO_HD inline int third_length(int size, int h) {
  const int period = h < 1 ? 1 : h;
  const int third = size / 3 / period * period;
  return third < 3 ? 0 : third;
}

// Mean of gap[first .. first + count), summed in order.
VIBRO_HD inline double mean(const double* gap, int first, int count) {
  double sum = 0.0;
  for (int i = first; i < first + count; ++i) sum = sum + gap[i];
  return sum / static_cast<double>(count);
}

// Means of the gap over the last three equal thirds of the sequence, each a whole number of h
// samples; false when too short. The oldest samples left over, if any, are dropped.
VIBRO_HD inline bool thirds(const double* gap, int size, int h, double& g0, double& g1, double& g2) {
  const int third = third_length(size, h);
  if (third == 0) return false;
  const int first = size - 3 * third;
  g0 = mean(gap, first, third);
  g1 = mean(gap, first + third, third);
  g2 = mean(gap, first + 2 * third, third);
  return true;
}

}  // namespace gap_thirds

VIBRO_HD inline bool growing_gap(const double* gap, int size, int h) {
  double g0 = 0, g1 = 0, g2 = 0;
  return gap_thirds::thirds(gap, size, h, g0, g1, g2) && g0 < g1 && g1 < g2 && g2 > 1.01 * g0 && g2 > 1e-9;
}

VIBRO_HD inline bool shrinking_gap(const double* gap, int size, int h) {
  double g0 = 0, g1 = 0, g2 = 0;
  if (h < 1 || !gap_thirds::thirds(gap, size, h, g0, g1, g2)) return false;
  const int third = gap_thirds::third_length(size, h);
  if (!(g0 > g1 && g1 > g2 && g2 > 0 && g2 < 0.995 * g0)) return false;
  // Each of the h interleaved sequences shrinks over the window: means that fall because the window
  // jumped from one orbit onto another (a gap pattern that changes its phases' values, none of them
  // shrinking) are no collapse.
  const int begin = size - 3 * third;
  for (int r = begin; r < begin + h; ++r) {
    const int last = r + (size - 1 - r) / h * h;
    if (!(gap[last] < gap[r])) return false;
  }
  return true;
}

VIBRO_HD inline CollapsingGap collapsing_gap(const double* gap, int size, int h) {
  CollapsingGap out;
  if (!shrinking_gap(gap, size, h)) return out;
  double g0 = 0, g1 = 0, g2 = 0;
  gap_thirds::thirds(gap, size, h, g0, g1, g2);
  const int third = gap_thirds::third_length(size, h);
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
