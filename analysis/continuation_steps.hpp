#pragma once
// The parameter steps of one branch, chosen from the range it covers unless given. An absolute default
// step is right for one range only: 0.02 draws a branch over 0.0011 of a frequency with 3 points and one
// over 100 m/s^2 of an amplitude with thousands. Relative to the range, every branch that reaches its
// end has at least kRangeSegments + 1 points, in any unit, and a branch smooth enough for the largest
// step costs about that many. The step control (analysis/orbit_continuation, arclength_continuation)
// still halves a step that does not continue the branch and shrinks it where the branch bends, and events
// are located to settings.locate_tol whatever the step.
#include <optional>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

// The largest step is the range over this many steps (BifurcationKit's defaults, ds = 0.01 and
// dsmax = 0.1 on its parameter window [-1, 1], are 1/200 and 1/20 of it; COCO stops at 100 points).
constexpr int kRangeSegments = 20;
// The first step is the range over this many: small enough that the first point starts the secant well,
// large enough that the step reaches the largest in two growths (x 1.5, x 1.5 >= 2.5).
constexpr int kFirstStepSegments = 50;
// The branch is lost below this fraction of the range (halving from the first step: 15 tries), and
// never at a step above kMinStepCeiling: a smallest step relative to a wide range is coarse in the
// parameter's own units (the conveyor's two grazings 7e-5 m/s^2 apart at a_hat = 58.476 end a branch
// from 50 to 150, where 1e-6 of the range, 1e-4, stops short of them). It costs only where a step fails.
constexpr double kMinStepFraction = 1e-6;
constexpr double kMinStepCeiling = 1e-6;

// The steps a user gave (--step, --max-step); unset: chosen from the range.
struct StepRequest {
  std::optional<double> step, max_step;
};

// `settings` with step, max_step and min_step for a branch from `from` to `to`: a given step or largest
// step kept as given; an unset largest step |to - from| / kRangeSegments (never below a given first
// step); an unset first step |to - from| / kFirstStepSegments (never above a given largest step);
// min_step kMinStepFraction of the range (never above kMinStepCeiling or the first step). A range below 1e-9 of the
// parameter's own size counts as that much (steps stay above its rounding).
ContinuationSettings steps_for_range(ContinuationSettings settings, double from, double to, const StepRequest& given);

}  // namespace vibro
