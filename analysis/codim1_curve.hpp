#pragma once
// Two-parameter continuation of a codimension-one point of a periodic orbit: the curve in the plane of
// two parameters (p1, p2) along which a branch's located grazing, period doubling or fold persists.
//
// Pseudo-arclength in the plane: with both parameters measured in their scales (u_i = p_i / scale_i),
// each new point is predicted along the secant of the last two, P = u + h t, and corrected along the
// normal line P + s n (n the tangent turned by +90 degrees), so curves that turn back in p1 or in p2
// are followed. On that line:
//   period doubling, fold: Newton on the extended system in (x, s)
//       P^k(x; P + s n) - x = 0,   det(M + I) = 0 (doubling) or det(I - M) = 0 (fold),
//     M the monodromy matrix from the model's stroboscopic map (its exact x-derivative gives the first
//     block of the Jacobian, finite differences the test function's row and the s column); the
//     system is regular at a fold, where shooting at fixed parameters is not;
//   grazing: the model interface has no smooth gap function, so s is bracketed between where the
//     orbit with fewer impacts exists and where it has ceased, and bisected, as a grazing is located
//     in one parameter (analysis/branch_events).
// Both locate the point to settings.locate_tol in the parameters. A corrected point is accepted only
// when it continues the last one: within the predictor's reach (|s| <= h; the first step, with no
// tangent yet, may move farther), the orbit within settings.max_predictor_error of its secant
// prediction in the layout's state scales, with the same impacts per period, and (period doubling,
// fold) a multiplier at -1 or +1. At a grazing the orbit with more impacts is looked for next to the
// grazing orbit: where one is found with another count than at the start, the point is refused (not
// finding it refuses nothing: Newton's basin for it shrinks towards the grazing). Otherwise the step
// is halved; below min_step the curve ends, saying where and why: a fold or period-doubling curve whose
// orbit's impact fades (it runs into a grazing curve, where the map's square-root singularity stops the
// corrector) ends "fold meets grazing at (p1, p2) = ...", the grazing located by bisection on the line of
// the last correction within 1e-3 (scaled) of the last point. It ends too where it reaches the end
// of the range of p2 (the last point on it), turns back to its start value of p2, or leaves the bounds
// of p1 or a parameter's declared range.
#include <limits>
#include <string>
#include <vector>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

struct CurveSettings {
  // Steps in the plane, in the parameters' scales (a step of 0.02 moves p2 by 2 % of its scale).
  double step = 0.02;
  double min_step = 1e-6;
  double max_step = 0.05;
  double locate_tol = 1e-10;  // in each parameter's own units
  double max_predictor_error = 0.05;
  int max_points = 2000;
  // Bounds on p1 (the curve ends where it leaves them); the parameters' declared ranges always hold.
  double p1_min = -std::numeric_limits<double>::infinity();
  double p1_max = std::numeric_limits<double>::infinity();
  // Scales of p1 and p2 (0: the larger of |start value| and the range covered, or 1).
  double scale_1 = 0, scale_2 = 0;
  ShootingSettings shooting;
};

struct CurvePoint {
  double parameter_1 = 0, parameter_2 = 0;
  // The orbit there (at a grazing the orbit with fewer impacts, which touches the surface).
  PeriodicOrbit orbit;
};

struct Curve {
  std::string kind;  // "grazing", "period_doubling" or "fold"
  std::string parameter_1, parameter_2;
  std::vector<CurvePoint> points;  // in curve order, the first at the event
  std::string end;                 // why the curve stopped ("reached the end of the range", ...)
  // Grazing curves: the impacts per period of the orbit with more impacts found meeting the grazing
  // orbit (-1: none found), and at how many points it was found (Newton's basin for it shrinks towards
  // the grazing, so it is not found at every point; where one with another count is, the step is refused).
  long long meeting_impacts = -1;
  int meetings = 0;
  // "meets_grazing": a fold or period-doubling curve ended where it runs into a grazing curve (a
  // codimension-two point): `meets` is the grazing on the line through its last point along which the
  // last step was corrected (the orbit there with fewer impacts, touching the surface), `meets_distance`
  // the larger of its distances from the last point in p1 and p2. Empty: another end.
  std::string end_kind;
  CurvePoint meets;
  double meets_distance = std::numeric_limits<double>::quiet_NaN();
};

// The curve of `event` (located on a branch in `parameter_1`, the other parameters as in `values`,
// whose value of `parameter_2` is the start) traced in `parameter_2` towards `p2_to`.
// The event need only lie near the curve: its first point locates it again on the line of constant
// parameter_2 (e.g. the last point of a branch that natural continuation loses at a fold).
// At a grazing, `meeting_guesses` (e.g. the branch's points with more impacts next to the event) help
// Newton find the orbit with more impacts that must meet the grazing orbit.
// Throws InputError for an unknown parameter, equal parameters, or an event kind without a curve.
Curve continue_codim1_curve(const Model& model, ParameterSet values, const std::string& parameter_1,
                            const std::string& parameter_2, const BranchEvent& event, double p2_to,
                            const CurveSettings& settings = {}, const std::vector<StrobeSample>& meeting_guesses = {});

// The states of the branch's points with more impacts than `grazing`'s orbit nearest it (guesses for
// continue_codim1_curve).
std::vector<StrobeSample> meeting_guesses(const Branch& branch, const BranchEvent& grazing);

}  // namespace vibro
