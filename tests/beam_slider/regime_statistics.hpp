#pragma once
// The statistics of the beam slider's regime criteria (R8, R9, R13 of docs/models/beam_slider.md), the
// same definitions as bench/beam_slider_regimes.py uses on the whole Fig. 7a map.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "beam_slider/sweep_cases.hpp"

namespace vibro::test_support {

constexpr double kBeamLength = 0.06;  // m, the nominal l
constexpr double kCentreBand = 0.02;  // |x - l/2| < 0.02 l is "centre"
constexpr double kClusterGap = 0.02;  // sorted end positions closer than this form one cluster

// A case's end position: the mean of its window's stroboscopic x_C, / l.
inline double end_position(const Case& c) {
  return std::accumulate(c.x_C.begin(), c.x_C.end(), 0.0) / static_cast<double>(c.x_C.size()) / kBeamLength;
}

inline bool at_centre(double x) { return std::abs(x - 0.5) < kCentreBand; }

inline double centre_fraction(const std::vector<double>& ends) {
  return static_cast<double>(std::count_if(ends.begin(), ends.end(), at_centre)) / static_cast<double>(ends.size());
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Where F falls through zero between neighbouring samples (x ascending), linearly interpolated.
inline std::vector<double> stable_zeros(const std::vector<double>& x, const std::vector<double>& F) {
  std::vector<double> zeros;
  for (std::size_t k = 0; k + 1 < x.size(); ++k)
    if (F[k] > 0 && F[k + 1] <= 0) zeros.push_back(x[k] + F[k] * (x[k + 1] - x[k]) / (F[k] - F[k + 1]));
  return zeros;
}

// Groups of end positions whose sorted neighbours lie within kClusterGap of each other.
inline std::vector<std::vector<double>> clusters(std::vector<double> ends) {
  std::sort(ends.begin(), ends.end());
  std::vector<std::vector<double>> groups;
  for (std::size_t k = 0; k < ends.size(); ++k) {
    if (k == 0 || ends[k] - ends[k - 1] > kClusterGap) groups.emplace_back();
    groups.back().push_back(ends[k]);
  }
  return groups;
}

}  // namespace vibro::test_support
