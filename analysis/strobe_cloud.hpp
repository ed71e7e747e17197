#pragma once
// An irregular attractor as the set of its stroboscopic points, weighted by how often they are
// visited: the cells of a lattice in the layout's scales that its members' points fall in, each with
// its count. Compared by a partial Hausdorff distance (Huttenlocher, Klanderman and Rucklidge,
// "Comparing images using the Hausdorff distance", IEEE Transactions on Pattern Analysis and Machine
// Intelligence 15 (1993)): how far the share q of one set's points lies from the other set, so that a
// few cases reaching further than the rest (a rare excursion, a long transient) do not move it, as
// they move the box the points fill.
#include <vector>

#include "analysis/strobe_geometry.hpp"

namespace vibro {

struct CloudCell {
  StatePoint centre{};   // the cell's centre
  long long points = 0;  // the points that fell in it
};

struct StrobeCloud {
  double cell = 0;               // the lattice's spacing, scales
  std::vector<CloudCell> cells;  // in lattice order: the same whatever order the points came in
  long long points() const;
};

// The lattice of spacing kCloudCell scales (0.25), doubled until at most kCloudCells (2048) cells are
// occupied (what bounds the cost of comparing two clouds).
StrobeCloud cloud_of(const std::vector<StatePoint>& points, const std::vector<double>& scales);

// The smallest r such that cells holding at least the share q of `from`'s points lie within r of a
// cell of `to` (scaled max-norm, cell centres); infinite when either is empty.
double cloud_reach(const StrobeCloud& from, const StrobeCloud& to, const std::vector<double>& scales, double q);

// max(cloud_reach(a, b), cloud_reach(b, a)): 0 for equal clouds, small when each set's bulk lies near
// the other, whatever a tenth (q = 0.9) of either does.
double partial_hausdorff(const StrobeCloud& a, const StrobeCloud& b, const std::vector<double>& scales, double q);

}  // namespace vibro
