#include "analysis/strobe_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vibro {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

double scaled_distance(const StatePoint& a, const StatePoint& b, const std::vector<double>& scales) {
  double d = 0;
  for (std::size_t c = 0; c < scales.size(); ++c) d = std::max(d, std::fabs(a[c] - b[c]) / scales[c]);
  return d;
}

double scaled_distance(const StrobeSample& x, const StrobeSample& y, const std::vector<double>& scales) {
  double largest = 0;
  for (std::size_t i = 0; i < scales.size() && i < x.state.size(); ++i)
    largest = std::max(largest, std::fabs(x.state[i] - y.state[i]) / scales[i]);
  return largest;
}

std::vector<StatePoint> orbit_points(const std::vector<StatePoint>& window, int period) {
  const std::size_t n = window.size();
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(std::max(period, 1)), n);
  return {window.end() - static_cast<long>(k), window.end()};
}

StrobeBox box_of(const std::vector<StatePoint>& points, std::size_t dims) {
  StrobeBox b;
  b.lo.fill(kInf);
  b.hi.fill(-kInf);
  for (const auto& p : points)
    for (std::size_t c = 0; c < dims; ++c) {
      b.lo[c] = std::min(b.lo[c], p[c]);
      b.hi[c] = std::max(b.hi[c], p[c]);
    }
  return b;
}

StrobeBox box_union(const StrobeBox& a, const StrobeBox& b, std::size_t dims) {
  StrobeBox u = a;
  for (std::size_t c = 0; c < dims; ++c) {
    u.lo[c] = std::min(a.lo[c], b.lo[c]);
    u.hi[c] = std::max(a.hi[c], b.hi[c]);
  }
  return u;
}

bool boxes_overlap(const StrobeBox& a, const StrobeBox& b, const std::vector<double>& scales) {
  for (std::size_t c = 0; c < scales.size(); ++c)
    if (a.hi[c] < b.lo[c] || b.hi[c] < a.lo[c]) return false;  // disjoint in one component
  return true;
}

double box_distance(const StrobeBox& a, const StrobeBox& b, const std::vector<double>& scales) {
  double d = 0;
  for (std::size_t c = 0; c < scales.size(); ++c)
    d = std::max({d, std::fabs(a.lo[c] - b.lo[c]) / scales[c], std::fabs(a.hi[c] - b.hi[c]) / scales[c]});
  return d;
}

double box_excess(const StrobeBox& part, const StrobeBox& whole, const std::vector<double>& scales) {
  double d = 0;
  for (std::size_t c = 0; c < scales.size(); ++c)
    d = std::max({d, (whole.lo[c] - part.lo[c]) / scales[c], (part.hi[c] - whole.hi[c]) / scales[c]});
  return d;
}

double directed_distance(const std::vector<StatePoint>& from, const std::vector<StatePoint>& to,
                         const std::vector<double>& scales) {
  double worst = 0;
  for (const auto& p : from) {
    double best = kInf;
    for (const auto& q : to) best = std::min(best, scaled_distance(p, q, scales));
    worst = std::max(worst, best);
  }
  return worst;
}

double hausdorff_distance(const std::vector<StatePoint>& a, const std::vector<StatePoint>& b,
                          const std::vector<double>& scales) {
  if (a.empty() || b.empty()) return kInf;
  return std::max(directed_distance(a, b, scales), directed_distance(b, a, scales));
}

}  // namespace vibro
