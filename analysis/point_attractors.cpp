#include "analysis/point_attractors.hpp"

#include <cmath>

namespace vibro {

PointAttractors summarize_point(double parameter, const std::vector<OrbitSummary>& orbits, const std::vector<int>& labels,
                                const std::vector<double>& scales) {
  PointAttractors out;
  out.parameter = parameter;
  out.scales = scales;
  out.cases_run = static_cast<long long>(orbits.size());
  const std::size_t dims = scales.size();
  std::vector<bool> orbit_settled;  // whether the attractor's orbit came from a settled case
  for (std::size_t k = 0; k < orbits.size(); ++k) {
    if (labels[k] < 0) continue;
    const auto label = static_cast<std::size_t>(labels[k]);
    const OrbitSummary& s = orbits[k];
    if (label >= out.attractors.size()) {
      out.attractors.resize(label + 1);
      orbit_settled.resize(label + 1, false);
    }
    PointAttractor& a = out.attractors[label];
    const StrobeBox box = box_of(s.points, dims);
    if (a.cases == 0) {
      a.periodic = s.periodic;
      a.period = s.period;
      a.class_code = s.class_code;
      a.region = box;
    } else {
      a.region = box_union(a.region, box, dims);
    }
    ++a.cases;
    // A slowly converging window is a transient near the orbit: a settled case describes it better.
    if (s.periodic && (a.orbit.empty() || (s.settled && !orbit_settled[label]))) {
      a.orbit = orbit_points(s.points, s.period);
      orbit_settled[label] = s.settled;
    }
  }
  return out;
}

BasinFraction basin_fraction(long long in_basin, long long cases_run, long long cases_settled) {
  BasinFraction out;
  if (cases_run <= 0) return out;
  out.fraction = static_cast<double>(in_basin) / static_cast<double>(cases_run);
  out.standard_error = std::sqrt(out.fraction * (1 - out.fraction) / static_cast<double>(cases_run));
  out.stability = cases_settled > 0 ? static_cast<double>(in_basin) / static_cast<double>(cases_settled) : 0.0;
  return out;
}

}  // namespace vibro
