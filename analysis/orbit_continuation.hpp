#pragma once
// Natural-parameter continuation of a periodic orbit of the stroboscopic map: Newton shooting at each
// parameter value from a secant prediction. A corrected point is accepted only when it continues the
// last one (analysis/branch_events): within settings.max_predictor_error of its prediction, and of the
// same orbit type (impacts per period, multipliers outside the unit circle) or of the type that one
// located event between them gives (a grazing; a period doubling, fold, Neimark-Sacker or
// symmetry-breaking point, each located by its test function to settings.locate_tol). Otherwise the
// step is halved; below min_step the branch ends, saying where and why, rather than jump to another
// orbit. The step grows where the corrector converges fast and the prediction is close. A branch whose
// first orbit is symmetric (a model's declared half-period symmetry, analysis/symmetric_shooting)
// is followed as symmetric: every point solves the mirrored half-period map. The map locates every event, so no point
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
  double locate_tol = 1e-10;  // parameter width to which events are located (arclength folds: arclength)
  // The largest distance of a corrected point from its prediction, in the layout's state scales
  // (max-norm); beyond it the step is refused as a jump (or a bend too sharp for the step) and halved.
  double max_predictor_error = 0.05;
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
  // "grazing", "mode_change", "period_doubling", "fold", "neimark_sacker", "symmetry_breaking" (on a
  // symmetric orbit, analysis/symmetric_shooting), "inadmissible"
  std::string kind;
  double parameter = 0;
  std::string detail;  // e.g. "impacts per period 1 -> 0", the crossing multiplier
  // The multiplier that crosses the unit circle, at the located event (NaN for a grazing).
  std::complex<double> multiplier{std::nan(""), std::nan("")};
  // The orbit at the event, with all its multipliers (at a grazing: the orbit with fewer impacts, which
  // touches the surface there); not converged where none was found at the located parameter value.
  PeriodicOrbit orbit;
};

struct Branch {
  std::vector<BranchPoint> points;
  std::vector<BranchEvent> events;
  std::string end;  // "reached the end of the range", or why the branch stopped
  std::string method = "natural";  // "natural" (parameter steps) or "arclength" (pseudo-arclength)
  // Natural continuation only: it ended where the branch turns back at a grazing (both families of
  // orbits on one side of it); the last point is the first of the new family, the last event the grazing.
  bool turns_back = false;
  // It ended where its orbit touches the surface and ceases, the orbit beyond on another branch (the
  // motion jumps there); the last event is that grazing.
  bool ends_at_grazing = false;
};

// Continues the period-`periods` orbit through `guess` (at parameter value `from`) to `to`.
Branch continue_periodic_orbit(const Model& model, ParameterSet values, const std::string& parameter, double from,
                               double to, const StrobeSample& guess, int periods,
                               const ContinuationSettings& settings = {});

}  // namespace vibro
