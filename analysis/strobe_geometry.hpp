#pragma once
// Geometry of stroboscopic point sets, in the layout's scaled max-norm: what attractor labels within
// a parameter point and the matching of attractors between parameter points both measure.
#include <array>
#include <cstddef>
#include <vector>

#include "engine/core/strobe_sample.hpp"

namespace vibro {

using StatePoint = std::array<double, kMaxStrobeDims>;

// max over the first scales.size() components of |a - b| / scale.
double scaled_distance(const StatePoint& a, const StatePoint& b, const std::vector<double>& scales);
// The same for two states of the stroboscopic map (shooting and continuation).
double scaled_distance(const StrobeSample& x, const StrobeSample& y, const std::vector<double>& scales);

// The distinct points of a periodic window: its last `period` samples.
std::vector<StatePoint> orbit_points(const std::vector<StatePoint>& window, int period);

// The axis-aligned box a set of points fills (the region an irregular attractor occupies).
struct StrobeBox {
  StatePoint lo, hi;
};
StrobeBox box_of(const std::vector<StatePoint>& points, std::size_t dims);
// The smallest box holding both.
StrobeBox box_union(const StrobeBox& a, const StrobeBox& b, std::size_t dims);
bool boxes_overlap(const StrobeBox& a, const StrobeBox& b, const std::vector<double>& scales);
// Hausdorff distance of two boxes in the scaled max-norm: how far one region must move (or grow) to
// cover the other; 0 only for equal boxes.
double box_distance(const StrobeBox& a, const StrobeBox& b, const std::vector<double>& scales);
// How far box `part` sticks out of box `whole`: the largest excess of a side, scaled; 0 when inside.
double box_excess(const StrobeBox& part, const StrobeBox& whole, const std::vector<double>& scales);
// The largest distance from a point of `from` to its nearest point of `to` (0 when `from` is empty).
double directed_distance(const std::vector<StatePoint>& from, const std::vector<StatePoint>& to,
                         const std::vector<double>& scales);
// Hausdorff distance of two finite point sets in the scaled max-norm (infinite when one is empty).
double hausdorff_distance(const std::vector<StatePoint>& a, const std::vector<StatePoint>& b,
                          const std::vector<double>& scales);

}  // namespace vibro
