#pragma once
// Attractor identification across a sweep: within each parameter point (the cases that differ only
// in their initial conditions), cases that reached the same attractor get the same label, so that a
// label over an initial-condition grid is a basin map. Periodic orbits are compared as sets of
// stroboscopic points; irregular ones as the union of the boxes their cases' windows fill.
//
// Only a case whose steady-state test found a steady state is an attractor's member: a period (or a
// slow convergence to one), quasi-periodic, window means that settled (means mode), or an irregular window that fills
// the same region in both its halves (irregular_window_steady). Every other case is unsettled: it has no label and is counted apart.
// The labels do not depend on the order of the cases: they are numbered in an order of the orbits'
// contents, and irregular sets are the connected components of their boxes' overlaps.
#include <array>
#include <string>
#include <vector>

#include "analysis/strobe_geometry.hpp"

namespace vibro {

struct OrbitSummary {
  bool valid = false;      // the case ran to its end with a window (failed or infeasible cases: label -1)
  bool periodic = false;   // a period was found (slowly converging included)
  bool settled = false;    // converged within the tolerance (not just slowly converging)
  // No period, but the steady-state test found it steady: quasi-periodic, or its window means settled
  // (means mode stopped it early).
  bool aperiodic_steady = false;
  int period = 0;
  std::string class_code;  // the model's class, the "~" mark removed
  std::vector<StatePoint> points;  // stroboscopic states of the window
};

struct AttractorLabels {
  std::vector<int> label;      // per case; -1: no attractor (invalid or unsettled); from 0 within each group
  std::vector<int> count;      // per group: how many attractors it has
  std::vector<long long> unsettled;  // per group: valid cases without a steady state
};

// Whether a window without a period has reached a steady state: in every compared component the
// ranges its two halves fill overlap by at least half the shorter one, and neither is more than 3
// times the other (a transient drifts or contracts; a chaotic or quasi-periodic motion fills the same
// region throughout), and it is not near a periodic orbit: for no k up to 16 do all its points k
// apart lie within 1e-2 scales of each other (such a window failed the period test because it is
// still approaching or leaving that orbit). Constant components pass. Needs at least 8 points.
// Whether two periodic readings' classes allow them to be one orbit: the same class, or either is the
// shared "not converged" code (engine/core/model_legend): a window with a period whose events per orbit
// are not yet a whole number (still a transient on its way to the orbit) tells the orbit's period,
// not its class.
bool orbit_classes_agree(const std::string& a, const std::string& b);

bool irregular_window_steady(const std::vector<StatePoint>& points, const std::vector<double>& scales);

// group[i]: the parameter point of case i (0 .. groups-1). scales[g]: the layout's state scales at
// parameter point g (their count is the number of components compared). Two periodic orbits match
// when every point of one lies within tol (in scaled max-norm) of a point of the other, each orbit
// carried on to its limit where its window still approaches it linearly (analysis/orbit_limit; 100 tol when
// either is still slowly converging: its window is a transient on its way to the orbit); orbits that
// match a common one are one attractor. An irregular case belongs to every set one of whose boxes its
// box overlaps; sets that share a case are one attractor.
AttractorLabels label_attractors(const std::vector<OrbitSummary>& cases, const std::vector<long long>& group,
                                 const std::vector<std::vector<double>>& scales, double tol = 1e-3);

}  // namespace vibro
