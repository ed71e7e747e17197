#pragma once
// What global continuation keeps of one parameter point: each attractor found there (labels of
// analysis/attractor_labels) reduced to the few stroboscopic points or the box that identify it, and
// how many initial conditions reached it. Small: a sweep's matching pass holds these for every
// point, never the cases.
#include <limits>
#include <string>
#include <vector>

#include "analysis/attractor_labels.hpp"
#include "analysis/strobe_cloud.hpp"
#include "analysis/strobe_geometry.hpp"

namespace vibro {

struct PointAttractor {
  bool periodic = false;
  int period = 0;
  std::string class_code;
  std::vector<StatePoint> orbit;  // periodic: its distinct points (analysis/orbit_limit), from a settled case when there is one
  StrobeBox region{};              // the box every point of every case that reached it fills
  StrobeCloud cloud;               // irregular: every point of every case that reached it, as a weighted set
  long long cases = 0;             // initial conditions that reached it
  // Its multiplier estimated from the members whose windows still close in on it geometrically (the
  // median of their estimates, analysis/collapsing_gap): near a flip or a fold, where it matters,
  // their transients are slow; NaN when no member's is visible.
  double multiplier = std::numeric_limits<double>::quiet_NaN();
  // A periodic attractor's dominant Floquet multiplier (largest modulus; NaN when that one is complex),
  // from the variational equations along its first settled member's orbit (models with Jacobians):
  // where every member settled, the transient above shows none. Filled by the sweep (jobs/output).
  double floquet_multiplier = std::numeric_limits<double>::quiet_NaN();
};

struct PointAttractors {
  double parameter = 0;         // the value of the continuation axis at this point
  std::vector<double> scales;   // the layout's state scales (their count: the compared components)
  long long cases_run = 0;      // all initial conditions of the point, whatever their outcome
  long long cases_unsettled = 0;  // of them, those that ran to their budget without a steady state
  std::vector<PointAttractor> attractors;  // index: the label within the point
};

// orbits[k] with its label labels[k] (-1: no attractor; a valid orbit without one is unsettled), for
// one parameter point.
PointAttractors summarize_point(double parameter, const std::vector<OrbitSummary>& orbits, const std::vector<int>& labels,
                                const std::vector<double>& scales);

// Basin fraction of an attractor over a grid of initial conditions, as an estimate of the share of the
// sampled region that reaches it: fraction = cases in the basin / cases run, its binomial standard
// error sqrt(f (1 - f) / cases run), and the basin stability of Menck, Heitzig, Marwan and Kurths,
// "How basin stability complements the linear-stability paradigm", Nature Physics 9 (2013): the
// share among the cases that reached any attractor (equal to the fraction when every case settled).
struct BasinFraction {
  double fraction = 0, standard_error = 0, stability = 0;
};
BasinFraction basin_fraction(long long in_basin, long long cases_run, long long cases_settled);

}  // namespace vibro
