#pragma once
// The conveyor's steady-state classes (the paper names the states but gives no classification rule; this is ours): S (permanent contact), Mk (coupled / microthrow),
// H1 / Hn (one impact per orbit, n-period flights), Pk (period-k hopping), Q (quasi-periodic: the
// stroboscopic points fill an invariant circle or torus), X (chaotic or not converged); "~" marks a
// slowly converging case.
#include <string>
#include <vector>

#include "engine/core/model_legend.hpp"

#include "analysis/steady_state.hpp"

namespace vibro::conveyor {

std::string classify_conveyor(const SteadyState& steady);
std::vector<ClassCode> conveyor_class_legend();

}  // namespace vibro::conveyor
