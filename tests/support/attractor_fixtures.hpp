#pragma once
// Per-point attractor summaries built by hand for the global-continuation tests: two state
// components, unit scales.
#include <string>
#include <utility>
#include <vector>

#include "analysis/attractor_continuation.hpp"
#include "analysis/strobe_cloud.hpp"

namespace vibro::test_support {

inline const std::vector<double> kUnitScales{1.0, 1.0};

// A periodic orbit through `points` (in time order, each shifted by `shift` in both components),
// found by `cases` initial conditions.
inline PointAttractor orbit_through(const std::vector<std::pair<double, double>>& points, const std::string& cls,
                                    int cases, double shift = 0.0) {
  PointAttractor a;
  a.periodic = true;
  a.period = static_cast<int>(points.size());
  a.class_code = cls;
  for (const auto& [x, y] : points) {
    StatePoint p{};
    p[0] = x + shift;
    p[1] = y + shift;
    a.orbit.push_back(p);
  }
  a.region = box_of(a.orbit, 2);
  a.cases = cases;
  return a;
}

// An irregular attractor (class X) over `points`: the box they fill and their cloud.
inline PointAttractor irregular_over(const std::vector<StatePoint>& points, int cases) {
  PointAttractor a;
  a.class_code = "X";
  a.region = box_of(points, 2);
  a.cloud = cloud_of(points, kUnitScales);
  a.cases = cases;
  return a;
}

// The attractors of one parameter point, `cases_run` initial conditions run there.
inline PointAttractors point_with(double parameter, std::vector<PointAttractor> attractors, long long cases_run) {
  PointAttractors p;
  p.parameter = parameter;
  p.scales = kUnitScales;
  p.cases_run = cases_run;
  p.attractors = std::move(attractors);
  return p;
}

}  // namespace vibro::test_support
