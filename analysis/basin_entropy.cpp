#include "analysis/basin_entropy.hpp"

#include <cmath>
#include <map>

namespace vibro {

namespace {

// Sums of the box entropies (what the means are made of).
struct EntropySums {
  double all = 0, boundary = 0;
  long long boxes = 0, boundary_boxes = 0;
  BasinEntropy means() const {
    BasinEntropy out;
    out.boxes = boxes;
    out.boundary_boxes = boundary_boxes;
    out.entropy = boxes > 0 ? all / static_cast<double>(boxes) : std::nan("");
    out.boundary_entropy = boundary_boxes > 0 ? boundary / static_cast<double>(boundary_boxes) : 0.0;
    return out;
  }
};

}  // namespace

BasinEntropy basin_entropy(const std::vector<int>& outcome, long long rows, long long columns, int box) {
  const long long box_rows = rows == 1 ? 1 : box;
  EntropySums sums;
  for (long long r0 = 0; r0 + box_rows <= rows; r0 += box_rows)
    for (long long c0 = 0; c0 + box <= columns; c0 += box) {
      std::map<int, long long> counts;
      for (long long r = r0; r < r0 + box_rows; ++r)
        for (long long c = c0; c < c0 + box; ++c) ++counts[outcome[static_cast<std::size_t>(r * columns + c)]];
      const double cells = static_cast<double>(box_rows * box);
      double s = 0;
      for (const auto& [code, n] : counts) {
        const double p = static_cast<double>(n) / cells;
        s -= p * std::log(p);
      }
      sums.all += s;
      ++sums.boxes;
      if (counts.size() > 1) {
        sums.boundary += s;
        ++sums.boundary_boxes;
      }
    }
  return sums.means();
}

BasinEntropy pooled_basin_entropy(const std::vector<BasinEntropy>& parts) {
  EntropySums sums;
  for (const auto& part : parts) {
    if (part.boxes > 0) sums.all += part.entropy * static_cast<double>(part.boxes);
    sums.boundary += part.boundary_entropy * static_cast<double>(part.boundary_boxes);
    sums.boxes += part.boxes;
    sums.boundary_boxes += part.boundary_boxes;
  }
  return sums.means();
}

BasinEntropy grid_basin_entropy(const std::vector<int>& outcome, const std::vector<long long>& dims, int box) {
  if (dims.empty()) return basin_entropy(outcome, 1, 1, box);
  const long long rows = dims.size() > 1 ? dims[0] : 1, columns = dims.size() > 1 ? dims[1] : dims[0];
  long long slices = 1;
  for (std::size_t d = 2; d < dims.size(); ++d) slices *= dims[d];
  std::vector<BasinEntropy> parts;
  std::vector<int> map(static_cast<std::size_t>(rows * columns));
  for (long long s = 0; s < slices; ++s) {
    for (long long cell = 0; cell < rows * columns; ++cell) map[static_cast<std::size_t>(cell)] = outcome[static_cast<std::size_t>(cell * slices + s)];
    parts.push_back(basin_entropy(map, rows, columns, box));
  }
  return pooled_basin_entropy(parts);
}

}  // namespace vibro
