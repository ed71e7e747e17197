#pragma once
// Reading of a two-body steady state (Bazhenov et al. 2013), shared by Models A and B:
// class "(n,k)" (nT-periodic with k impacts per nT), "L" (impact-free), "Q" (quasi-periodic) or "X"
// (irregular), "~" for slow convergence; semi-amplitudes by both definitions, peak contact force and
// penetration, contact time and impacts per period. Reads the per-period extremes the simulations store in
// StrobeSample::aux (GapAux order).
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"
#include "engine/core/model.hpp"

namespace vibro::two_body {

std::vector<ObservableSpec> impact_observables();
CaseSummary summarize_impact_regime(const SteadyState& steady, int impact_counter, int free_mode);
std::vector<ClassCode> impact_regime_class_legend();

}  // namespace vibro::two_body
