#pragma once
// Runs one case to its steady state: start the model, feed its stroboscopic samples to the
// steady-state detector, let the model read the result. Exceptions become a recorded status.
#include "engine/core/model.hpp"
#include "jobs/sweep/case_result.hpp"

namespace vibro {

// warm_start: a final state of another case to start from (continuation); nullptr: the model's own
// initial condition.
// floquet: also compute the multipliers of a converged periodic orbit (where the model can).
CaseResult run_case(const Model& model, const ParameterSet& values, const SteadyStateSettings& settings,
                    bool record_strobe, const StrobeSample* warm_start = nullptr, bool floquet = false);

}  // namespace vibro
