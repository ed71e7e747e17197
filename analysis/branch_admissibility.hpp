#pragma once
// The admissibility check of a continued branch (issue: no penetration, no tensile contact force):
// every point's orbit is run once more and its contact forces checked by the model
// (Simulation::admissibility). A branch that starts admissible stops at its first non-physical point;
// one that starts non-physical (the contact law itself pulls, e.g. a damped compliant contact) keeps
// its points, each flagged, and says so.
#include <string>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

void check_branch_admissibility(const Model& model, ParameterSet values, const std::string& parameter, int periods,
                                Branch& branch);

}  // namespace vibro
