#pragma once
// Time averages of one steady window (Krack et al. 2017) from the running sums in its first
// and last stroboscopic samples, and the case's class: "C" (slider at the centre, |x_C - l/2| <
// 0.02 l: the paper's "centre" read as within 2 % of l) or "O" (off-centre) for the adaptive system; "P<k>" (periodic) or "Q"
// (not periodic: quasi-periodic or not converged, the periodicity column tells which) for the
// fixed-slider variants.
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"
#include "engine/core/model.hpp"
#include "models/beam_slider/beam_slider_parameters.hpp"

namespace vibro::beam_slider {

std::vector<ObservableSpec> beam_slider_observables();
CaseSummary summarize_beam_slider(const SteadyState& steady, const StrobeLayout& layout,
                                  const BeamSliderConstants& constants);
std::vector<ClassCode> beam_slider_class_legend();

}  // namespace vibro::beam_slider
