#include "analysis/attractor_labels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vibro {

namespace {

using Point = std::array<double, kMaxStrobeDims>;

double distance(const Point& a, const Point& b, const std::vector<double>& scales) {
  double d = 0;
  for (std::size_t c = 0; c < scales.size(); ++c) d = std::max(d, std::fabs(a[c] - b[c]) / scales[c]);
  return d;
}

// The orbit's distinct points: the last `period` samples of a periodic window.
std::vector<Point> orbit_points(const OrbitSummary& s) {
  const std::size_t n = s.points.size();
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(std::max(s.period, 1)), n);
  return {s.points.end() - static_cast<long>(k), s.points.end()};
}

bool same_periodic(const OrbitSummary& a, const OrbitSummary& b, const std::vector<double>& scales, double tol) {
  if (a.period != b.period || a.class_code != b.class_code) return false;
  const auto pa = orbit_points(a), pb = orbit_points(b);
  for (const auto& p : pa) {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& q : pb) best = std::min(best, distance(p, q, scales));
    if (!(best < tol)) return false;
  }
  return true;
}

struct Box {
  Point lo, hi;
};

Box box_of(const OrbitSummary& s, std::size_t dims) {
  Box b;
  b.lo.fill(std::numeric_limits<double>::infinity());
  b.hi.fill(-std::numeric_limits<double>::infinity());
  for (const auto& p : s.points)
    for (std::size_t c = 0; c < dims; ++c) {
      b.lo[c] = std::min(b.lo[c], p[c]);
      b.hi[c] = std::max(b.hi[c], p[c]);
    }
  return b;
}

bool same_irregular(const OrbitSummary& a, const OrbitSummary& b, const std::vector<double>& scales) {
  if (a.class_code != b.class_code) return false;
  const Box x = box_of(a, scales.size()), y = box_of(b, scales.size());
  for (std::size_t c = 0; c < scales.size(); ++c)
    if (x.hi[c] < y.lo[c] || y.hi[c] < x.lo[c]) return false;  // disjoint in one component
  return true;
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
