#pragma once
// Pseudo-arclength continuation (Keller) of a periodic orbit of the stroboscopic map. The unknowns are
// the orbit's state x on the section and the parameter p together; each new point solves
//   P^k(x, p) - x = 0,   tau . ((x, p) - (x0, p0)) - ds = 0
// (tau the unit tangent at the last point (x0, p0)), so the branch is followed round a fold, where
// continuation in p alone loses it, and on along the unstable branch beyond. Folds are found by the
// sign change of the tangent's p-component; grazings and stability changes as in natural continuation
// (analysis/branch_character), all located by bisection in arclength.
#include <string>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

// Follows the period-`periods` orbit through `guess` (at parameter value `from`), first in the direction
// of `to`, until the parameter leaves the range between `from` and `to` (the last point then lies on the
// boundary it crossed; events the last step passes beyond that boundary are not the range's and are
// not reported) or settings.max_points are found. A first orbit solved as symmetric (a model's
// half-period symmetry, analysis/symmetric_shooting) is followed as symmetric. Arclength is measured in parameter units: the
// state components are weighted by |to - from| / (their layout scale), so settings.step, min_step and
// max_step mean what they mean in natural continuation along a branch that is flat in the state.
Branch continue_by_arclength(const Model& model, ParameterSet values, const std::string& parameter, double from,
                             double to, const StrobeSample& guess, int periods,
                             const ContinuationSettings& settings = {});

}  // namespace vibro
