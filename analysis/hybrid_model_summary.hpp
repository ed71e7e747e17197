#pragma once
// The steady-state reading of every model built on the hybrid-model adapter: a class code from the
// window's period and impact count, and the declared window observables (engine/hybrid_model).
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"
#include "engine/core/model.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"
#include "engine/hybrid_model/hybrid_model_info.hpp"

namespace vibro {

// A declared observable resolved against the model's state: the component's index in the state, and
// the aux pair that tracks its extremes (-1: none).
struct ResolvedObservable {
  WindowStat stat;
  int component = -1;
  int tracked_slot = -1;
};

// The adapter's frame and resolved observables of a model; throws std::invalid_argument naming the
// model and the offending declaration (unknown component, more tracked components than aux slots).
struct HybridObservables {
  std::vector<ObservableSpec> specs;
  std::vector<ResolvedObservable> resolved;
  std::vector<int> tracked;
  int drift_component = -1;
};
HybridObservables resolve_observables(const HybridModelInfo& info);

// "(k,n)": period k with n impacts per orbit; "Pk": period k without impacts; "Q" quasi-periodic;
// "X" not converged; "~" marks a slowly converging orbit.
// The codes summarize_hybrid_window returns, as a legend (engine/core/model_legend.hpp).
std::vector<ClassCode> hybrid_class_legend();

CaseSummary summarize_hybrid_window(const SteadyState& steady, const HybridObservables& observables, double period);

}  // namespace vibro
