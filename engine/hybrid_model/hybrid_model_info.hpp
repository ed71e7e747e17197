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

// A model's unit of time, where it declares one (a model of the hybrid-model API does; `vibro trace`
// asks through this interface and writes seconds for any other model).
class DeclaredTimeUnit {
 public:
  virtual ~DeclaredTimeUnit() = default;
  virtual std::string time_unit() const = 0;
};

struct HybridModelInfo {
  std::string name;
  std::string summary;
  std::vector<StateComponent> state;
  std::vector<ParameterSpec> parameters;
  std::vector<WindowObservable> observables;
  std::string time_unit = "s";  // the unit of time and of the forcing period ("-": dimensionless time)
};

}  // namespace vibro
