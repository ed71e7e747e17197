#pragma once
// Natural-parameter continuation of a periodic orbit of the stroboscopic map: Newton shooting at each
// parameter value from a secant prediction, with step control, and the points where the branch
// changes character located by bisection: a grazing (the number of impacts per period changes) and
// stability changes, classified by the multiplier that crosses the unit circle (period doubling at
// -1, fold at +1, Neimark-Sacker for a complex pair). The map locates every event, so no point
// penetrates a rigid contact (a model refuses penetrating states; the branch then ends, saying so);
// compliant contact forces are checked afterwards (analysis/branch_admissibility).
#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/periodic_shooting.hpp"
#include "engine/core/model.hpp"
#include "engine/core/parameter_spec.hpp"

namespace vibro {

struct ContinuationSettings {
  double step = 0.02;       // first parameter step (its sign comes from the direction from -> to)
  double min_step = 1e-6;   // the branch is lost below this step
  double max_step = 0.1;
  double locate_tol = 1e-6;  // parameter width (arclength: arclength) to which events are located
  int max_points = 5000;     // arclength continuation: the most points of one branch
  ShootingSettings shooting;
};

struct BranchPoint {
  BranchPoint() = default;
  BranchPoint(double at, PeriodicOrbit shot) : parameter(at), orbit(std::move(shot)) {}
  double parameter = 0;
  PeriodicOrbit orbit;
  Admissibility admissibility;  // set by check_branch_admissibility (analysis/branch_admissibility)
};

struct BranchEvent {
  std::string kind;    // "grazing", "period_doubling", "fold", "neimark_sacker", "inadmissible"
  double parameter = 0;
  std::string detail;  // e.g. "impacts per period 1 -> 0", the crossing multiplier
  // The multiplier that crossed the unit circle, on the far side of the event (NaN for a grazing).
  std::complex<double> multiplier{std::nan(""), std::nan("")};
};

struct Branch {
  std::vector<BranchPoint> points;
  std::vector<BranchEvent> events;
  std::string end;  // "reached the end of the range", or why the branch stopped
  std::string method = "natural";  // "natural" (parameter steps) or "arclength" (pseudo-arclength)
};

// Continues the period-`periods` orbit through `guess` (at parameter value `from`) to `to`.
Branch continue_periodic_orbit(const Model& model, ParameterSet values, const std::string& parameter, double from,
                               double to, const StrobeSample& guess, int periods,
                               const ContinuationSettings& settings = {});

}  // namespace vibro
