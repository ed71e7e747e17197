#pragma once
// Branch switching at a located grazing: the branch of orbits with more impacts born where an orbit
// touches the surface (a grazing event's orbit x*). Newton shooting from x* at parameter values a
// little on either side of the event finds the touch-free orbit on one side and, on the other, where
// the touch-free orbit would cross the surface, the map's located impacts give an orbit with a
// low-velocity impact near x*: the branch born at the grazing, continued from there
// (analysis/orbit_continuation). Where both families lie on one side (a nonsmooth fold at the grazing),
// Newton from x* finds only the touch-free orbit there; seeds displaced from x* find the impacting one,
// kept when continuing it back reaches the grazing.
#include <string>

#include "analysis/branch_switching.hpp"
#include "analysis/orbit_continuation.hpp"

namespace vibro {

// The branch with more impacts per period than `grazing`'s orbit, born at that grazing (an event of a
// branch in `parameter`), continued towards `to`. Its end says why not where none is found, or where it
// is born on the side away from `to`. `follow` continues it from its first orbit found.
Branch continue_impacting_branch(const Model& model, ParameterSet values, const std::string& parameter,
                                 const BranchEvent& grazing, double to, const ContinuationSettings& settings = {},
                                 BranchFollower follow = continue_periodic_orbit);

}  // namespace vibro
