#pragma once
// Attractor identification across a sweep: within each parameter point (the cases that differ only
// in their initial conditions), cases that reached the same attractor get the same label, so that a
// label over an initial-condition grid is a basin map. Periodic orbits are compared as sets of
// stroboscopic points; irregular ones by the box their stroboscopic points fill.
#include <array>
#include <string>
#include <vector>

#include "analysis/strobe_geometry.hpp"

namespace vibro {

struct OrbitSummary {
  bool valid = false;      // the case ran to a steady state (failed or infeasible cases: label -1)
  bool periodic = false;   // a period was found (slowly converging included)
  bool settled = false;    // converged within the tolerance (not just slowly converging)
  int period = 0;
  std::string class_code;  // the model's class, the "~" mark removed
  std::vector<StatePoint> points;  // stroboscopic states of the window
};

struct AttractorLabels {
  std::vector<int> label;  // per case; -1 for invalid cases; labels count from 0 within each group
  std::vector<int> count;  // per group: how many attractors it has
};

// group[i]: the parameter point of case i (0 .. groups-1). scales[g]: the layout's state scales at
// parameter point g (their count is the number of components compared). Two periodic orbits match
// when every point of one lies within tol (in scaled max-norm) of a point of the other (100 tol when
// either is still slowly converging: its window is a transient on its way to the orbit); irregular
// ones when their boxes overlap.
AttractorLabels label_attractors(const std::vector<OrbitSummary>& cases, const std::vector<long long>& group,
                                 const std::vector<std::vector<double>>& scales, double tol = 1e-3);

}  // namespace vibro
