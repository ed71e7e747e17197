#pragma once
// The events between two accepted points of a branch, and whether the new point continues the old one.
// Both are decided at fixed parameter values (Newton shooting at p, well-posed away from a fold), so
// natural and arclength continuation share them.
//
// Events are found by test functions of the multipliers mu_i, each solved for its root by TOMS 748
// (Alefeld, Potra and Shi; boost::math::tools::toms748_solve) to settings.locate_tol in the parameter,
// whatever the step:
//   period doubling  det(M + I) = prod (1 + mu_i)          (a real multiplier through -1)
//   fold             det(I - M) = prod (1 - mu_i)          (a real multiplier through +1)
//   Neimark-Sacker   prod_{i<j} (mu_i mu_j - 1)            (a complex pair through the unit circle)
// On a symmetric orbit (PeriodicOrbit::symmetric) a multiplier through +1 is named by the half-period
// map's multiplier there: through -1 the symmetry breaks ("symmetry_breaking", a pitchfork of the
// full-period map), through +1 it is a fold.
// A grazing (the impacts per period change) has no smooth test function in the model interface: it is
// bracketed by bisection to the same tolerance, shooting the orbit with fewer impacts, which ends where
// it touches the surface (the impacting orbit's map has a square-root singularity there).
//
// The new point continues the old one when its orbit type differs only by the located event, and the
// orbits shot halfway between the old point and the event, and between the event and the new point,
// have the old and the new type; at a grazing the orbit with more impacts next to it must lie next to
// the grazing orbit (the two families meet there). A step over two events, or onto another family of
// orbits, fails this and is refused (the caller halves its step).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/orbit_continuation.hpp"
#include "analysis/strobe_geometry.hpp"  // scaled_distance

namespace vibro {

// Shoots the branch's orbit at parameter value p from the first of `guesses` that converges.
using FixedParameterShooter = std::function<PeriodicOrbit(double p, const std::vector<StrobeSample>& guesses)>;

struct SegmentCheck {
  std::vector<BranchEvent> events;  // located, in branch order
  std::string mismatch;             // non-empty: the new point does not continue the old one, and why
  // The step passed a grazing at which both families of orbits lie on one side (a nonsmooth fold): the
  // event lies beyond the new point, and the branch goes on from it back the way it came.
  bool turns_back = false;
};

// `a` the last accepted point, `b` the new one (a.parameter != b.parameter), `heading` the sign of the
// parameter's change along the branch at a; `scales` the layout's state scales.
SegmentCheck check_segment(const FixedParameterShooter& shoot, const BranchPoint& a, const BranchPoint& b,
                           double heading, const std::vector<double>& scales, const ContinuationSettings& settings);

// Where the branch's orbit ceases by touching the surface beyond its last accepted point `last`
// (continuation found no orbit of its type at `beyond`, the step already at its minimum): the grazing
// between them, bisected to settings.locate_tol on the orbit with last's impacts as check_segment does.
// Empty where that orbit still exists at `beyond`, where its stability changes before its end (an event
// the step would pass over), or where it ends in a fold (a multiplier within 1e-3 of +1 at its end)
// rather than at the surface.
std::optional<BranchEvent> locate_end_grazing(const FixedParameterShooter& shoot, const BranchPoint& last, double beyond,
                                              const ContinuationSettings& settings);

}  // namespace vibro
