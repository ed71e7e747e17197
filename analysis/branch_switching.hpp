#pragma once
// Branch switching at a located period doubling: the orbit of twice the period is born at the event's
// orbit x* along the eigenvector v of the multiplier -1 (the doubled orbit alternates between x* + a v
// and x* - a v, a growing like the square root of the distance from the event). It is shot at parameter
// values a little on either side of the event from x* + eps v, for growing offsets, until Newton finds
// an orbit of twice the period that is not the old orbit; the branch is then continued from there
// (analysis/orbit_continuation), with all its checks and events.
#include <string>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

// How a new branch is continued from its first orbit: continue_periodic_orbit (natural) or
// continue_by_arclength (round folds).
using BranchFollower = Branch (*)(const Model&, ParameterSet, const std::string&, double, double, const StrobeSample&,
                                  int, const ContinuationSettings&);

// The branch of period 2 k born at `doubling` (an event of a period-k branch in `parameter`, with its
// orbit), continued towards `to` by `follow`. Its end says why not where no doubled orbit is found.
Branch continue_doubled_branch(const Model& model, ParameterSet values, const std::string& parameter,
                               const BranchEvent& doubling, double to, const ContinuationSettings& settings = {},
                               BranchFollower follow = continue_periodic_orbit);

// A branch born at `birth` is found a step away from it, and events may lie within that step (in a
// period-doubling cascade the next doubling: the doublings come closer by Feigenbaum's ratio): the
// branch is continued back from its first point towards `birth` (to 1e-3 of the offset), and the points
// of its first point's impact count and the events found on the way are put before it. True when that
// continuation reaches the birth: a point within a tenth of the offset, or an event located there (a
// grazing where both families lie on one side ends the continuation back).
bool fill_in_towards_birth(const Model& model, const ParameterSet& values, const std::string& parameter, double birth,
                           int periods, ContinuationSettings settings, Branch& born);

}  // namespace vibro
