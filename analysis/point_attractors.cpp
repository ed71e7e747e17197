#include "analysis/point_attractors.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/collapsing_gap.hpp"
#include "analysis/orbit_limit.hpp"
#include "engine/core/model_legend.hpp"

namespace vibro {

namespace {

// The multiplier of a periodic window's approach to its orbit: the rate its gap between samples
// `period` apart shrinks by, negative when successive steps alternate; NaN when it does not close in
// geometrically (settled to round-off, say).
double window_multiplier(const OrbitSummary& s, const std::vector<double>& scales) {
  if (!s.periodic) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> gap;
  const auto h = static_cast<std::size_t>(s.period);
  for (std::size_t i = 0; i + h < s.points.size(); ++i) gap.push_back(scaled_distance(s.points[i], s.points[i + h], scales));
  const CollapsingGap c = collapsing_gap(gap, s.period);
  if (!c.collapsing) return std::numeric_limits<double>::quiet_NaN();
  // The sign: successive steps of the period map against each other (negative: alternating about it).
  double turn = 0;
  for (std::size_t i = 0; i + 2 * h < s.points.size(); ++i)
    for (std::size_t d = 0; d < scales.size(); ++d)
      turn += (s.points[i + h][d] - s.points[i][d]) * (s.points[i + 2 * h][d] - s.points[i + h][d]) / (scales[d] * scales[d]);
  return turn < 0 ? c.multiplier : -c.multiplier;
}

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

PointAttractors summarize_point(double parameter, const std::vector<OrbitSummary>& orbits, const std::vector<int>& labels,
                                const std::vector<double>& scales) {
  PointAttractors out;
  out.parameter = parameter;
  out.scales = scales;
  out.cases_run = static_cast<long long>(orbits.size());
  const std::size_t dims = scales.size();
  const int labels_count = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end()) + 1;
  out.attractors.resize(static_cast<std::size_t>(std::max(labels_count, 0)));
  // The orbit's period: its members' shortest (a member read at a multiple of the period joined it,
  // analysis/attractor_labels); its class, orbit and multiplier come from the members of that period.
  std::vector<int> period(out.attractors.size(), 0);
  for (std::size_t k = 0; k < orbits.size(); ++k)
    if (labels[k] >= 0 && orbits[k].periodic) {
      int& p = period[static_cast<std::size_t>(labels[k])];
      p = p == 0 ? orbits[k].period : std::min(p, orbits[k].period);
    }
  std::vector<bool> orbit_settled(out.attractors.size(), false);  // whether the attractor's orbit came from a settled case
  std::vector<std::vector<double>> multipliers(out.attractors.size());  // per attractor: its members' estimates
  std::vector<bool> described(out.attractors.size(), false);  // class and period set
  std::vector<std::vector<StatePoint>> irregular_points(out.attractors.size());
  for (std::size_t k = 0; k < orbits.size(); ++k) {
    if (labels[k] < 0) {
      out.cases_unsettled += orbits[k].valid ? 1 : 0;
      continue;
    }
    const auto label = static_cast<std::size_t>(labels[k]);
    const OrbitSummary& s = orbits[k];
    PointAttractor& a = out.attractors[label];
    const StrobeBox box = box_of(s.points, dims);
    a.region = a.cases == 0 ? box : box_union(a.region, box, dims);
    ++a.cases;
    if (!s.periodic) irregular_points[label].insert(irregular_points[label].end(), s.points.begin(), s.points.end());
    if (s.period != period[label]) continue;  // a multiple of the orbit's period: counted, not described
    const double multiplier = window_multiplier(s, scales);
    if (!std::isnan(multiplier)) multipliers[label].push_back(multiplier);
    // A member whose class the model could not read (orbit_classes_agree) describes it only until a
    // member whose class it could read comes.
    const std::string& unread = not_converged_class().code;
    if (!described[label] || (a.class_code == unread && s.class_code != unread)) {
      a.periodic = s.periodic;
      a.period = s.period;
      a.class_code = s.class_code;
      described[label] = true;
    }
    // A slowly converging window is a transient near the orbit: a settled case describes it better.
    if (s.periodic && (a.orbit.empty() || (s.settled && !orbit_settled[label]))) {
      a.orbit = orbit_limit(s.points, s.period, scales);
      orbit_settled[label] = s.settled;
    }
  }
  for (std::size_t label = 0; label < out.attractors.size(); ++label) {
    out.attractors[label].multiplier = median(multipliers[label]);
    if (!irregular_points[label].empty()) out.attractors[label].cloud = cloud_of(irregular_points[label], scales);
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
