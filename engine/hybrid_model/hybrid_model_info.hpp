#pragma once
// What a hybrid model declares once, independent of any case: its name, its state components, its
// parameters (the adapter appends the [numerics] keys rtol, atol, v_eps) and the observables it
// reports over the steady-state window.
#include <string>
#include <vector>

#include "engine/core/parameter_spec.hpp"

namespace vibro {

struct StateComponent {
  std::string name;
  std::string unit;
};

// What an observable computes over the steady-state window: impacts per forcing period; the
// approach speed and phase (w t mod 2 pi) of the window's last impact; a component's maximum,
// minimum or half peak-to-peak (exact: at the stationary points of each step's dense output); a
// component's mean rate (its drift velocity; that component is then a drift coordinate).
enum class WindowStat { ImpactsPerPeriod, ImpactSpeed, ImpactPhase, Maximum, Minimum, HalfPeakToPeak, Drift };

struct WindowObservable {
  WindowStat stat;
  std::string component;  // empty for the impact statistics
};

struct HybridModelInfo {
  std::string name;
  std::string summary;
  std::vector<StateComponent> state;
  std::vector<ParameterSpec> parameters;
  std::vector<WindowObservable> observables;
};

}  // namespace vibro
