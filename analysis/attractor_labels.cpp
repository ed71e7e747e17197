#include "analysis/attractor_labels.hpp"

namespace vibro {

namespace {

bool same_periodic(const OrbitSummary& a, const OrbitSummary& b, const std::vector<double>& scales, double tol) {
  if (a.period != b.period || a.class_code != b.class_code) return false;
  return directed_distance(orbit_points(a.points, a.period), orbit_points(b.points, b.period), scales) < tol;
}

bool same_irregular(const OrbitSummary& a, const OrbitSummary& b, const std::vector<double>& scales) {
  if (a.class_code != b.class_code) return false;
  return boxes_overlap(box_of(a.points, scales.size()), box_of(b.points, scales.size()), scales);
}

}  // namespace

AttractorLabels label_attractors(const std::vector<OrbitSummary>& cases, const std::vector<long long>& group,
                                 const std::vector<std::vector<double>>& group_scales, double tol) {
  const auto groups = static_cast<long long>(group_scales.size());
  AttractorLabels out;
  out.label.assign(cases.size(), -1);
  out.count.assign(static_cast<std::size_t>(groups), 0);
  // Representatives of the attractors found so far, per group (case indices).
  std::vector<std::vector<std::size_t>> representatives(static_cast<std::size_t>(groups));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& s = cases[i];
    if (!s.valid) continue;
    auto& reps = representatives[static_cast<std::size_t>(group[i])];
    const auto& scales = group_scales[static_cast<std::size_t>(group[i])];
    for (std::size_t r = 0; r < reps.size() && out.label[i] < 0; ++r) {
      const auto& t = cases[reps[r]];
      if (s.periodic != t.periodic) continue;
      const double match = s.settled && t.settled ? tol : 100 * tol;
      const bool same = s.periodic ? same_periodic(s, t, scales, match) : same_irregular(s, t, scales);
      if (same) out.label[i] = out.label[reps[r]];
    }
    if (out.label[i] < 0) {
      out.label[i] = static_cast<int>(reps.size());
      reps.push_back(i);
    }
  }
  for (long long g = 0; g < groups; ++g)
    out.count[static_cast<std::size_t>(g)] = static_cast<int>(representatives[static_cast<std::size_t>(g)].size());
  return out;
}

}  // namespace vibro
