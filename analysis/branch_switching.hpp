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

// The branch of period 2 k born at `doubling` (an event of a period-k branch in `parameter`, with its
// orbit), continued towards `to`. Its end says why not where no doubled orbit is found.
Branch continue_doubled_branch(const Model& model, ParameterSet values, const std::string& parameter,
                               const BranchEvent& doubling, double to, const ContinuationSettings& settings = {});

}  // namespace vibro
