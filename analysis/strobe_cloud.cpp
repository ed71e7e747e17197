#include "analysis/strobe_cloud.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace vibro {

namespace {

constexpr double kCloudCell = 0.25;
constexpr std::size_t kCloudCells = 2048;
constexpr double kInf = std::numeric_limits<double>::infinity();

using CellKey = std::vector<long long>;

std::map<CellKey, long long> occupied(const std::vector<StatePoint>& points, const std::vector<double>& scales, double cell) {
  std::map<CellKey, long long> cells;
  CellKey key(scales.size());
  for (const auto& p : points) {
    if (!std::all_of(p.begin(), p.begin() + static_cast<long>(scales.size()), [](double x) { return std::isfinite(x); })) continue;
    for (std::size_t c = 0; c < scales.size(); ++c) key[c] = static_cast<long long>(std::floor(p[c] / (cell * scales[c])));
    ++cells[key];
  }
  return cells;
}

}  // namespace

long long StrobeCloud::points() const {
  long long n = 0;
  for (const auto& c : cells) n += c.points;
  return n;
}

StrobeCloud cloud_of(const std::vector<StatePoint>& points, const std::vector<double>& scales) {
  StrobeCloud out;
  out.cell = kCloudCell;
  std::map<CellKey, long long> cells = occupied(points, scales, out.cell);
  while (cells.size() > kCloudCells) {
    out.cell *= 2;
    cells = occupied(points, scales, out.cell);
  }
  for (const auto& [key, count] : cells) {
    CloudCell c;
    for (std::size_t d = 0; d < scales.size(); ++d) c.centre[d] = (static_cast<double>(key[d]) + 0.5) * out.cell * scales[d];
    c.points = count;
    out.cells.push_back(c);
  }
  return out;
}

double cloud_reach(const StrobeCloud& from, const StrobeCloud& to, const std::vector<double>& scales, double q) {
  if (from.cells.empty() || to.cells.empty()) return kInf;
  std::vector<std::pair<double, long long>> nearest;  // per cell of `from`: distance to `to`, its points
  nearest.reserve(from.cells.size());
  for (const auto& a : from.cells) {
    double best = kInf;
    for (const auto& b : to.cells) best = std::min(best, scaled_distance(a.centre, b.centre, scales));
    nearest.emplace_back(best, a.points);
  }
  std::sort(nearest.begin(), nearest.end());
  const double needed = q * static_cast<double>(from.points());
  long long held = 0;
  for (const auto& [distance, points] : nearest) {
    held += points;
    if (static_cast<double>(held) >= needed) return distance;
  }
  return nearest.back().first;
}

double partial_hausdorff(const StrobeCloud& a, const StrobeCloud& b, const std::vector<double>& scales, double q) {
  return std::max(cloud_reach(a, b, scales, q), cloud_reach(b, a, scales, q));
}

}  // namespace vibro
