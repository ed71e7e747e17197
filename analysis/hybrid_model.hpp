#pragma once
// The Model of a declaratively described hybrid system (engine/hybrid_model): a user model derives
// from HybridModel<N>, states its HybridModelInfo once and implements describe(parameters) -> the
// case's HybridDescription; the run loop, counters, samples, restarts, Jacobians, window observables
// and class codes come from the adapter. N: the number of state components (the forcing phase is
// added by the adapter). Register it like any model: static vibro::RegisterModel<MyModel> reg;
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/hybrid_model_summary.hpp"
#include "engine/hybrid/integrator_parameters.hpp"
#include "engine/hybrid_model/hybrid_simulation.hpp"

namespace vibro {

template <int N>
class HybridModel : public Model {
 public:
  explicit HybridModel(HybridModelInfo info) : info_(std::move(info)), observables_(resolve_observables(info_)) {
    static_assert(N >= 1 && N <= kMaxStrobeDims, "a hybrid model has 1 to kMaxStrobeDims state components");
    if (static_cast<int>(info_.state.size()) != N)
      throw std::invalid_argument("model " + info_.name + ": " + std::to_string(info_.state.size()) +
                                  " state components declared for HybridModel<" + std::to_string(N) + ">");
    specs_ = info_.parameters;
    specs_.push_back(ParameterSpec::real("v_eps", ParameterGroup::Numerics, "(velocity)", 1e-9, 0, 1,
                                         "rebound speed below which chatter on a sticking stop ends"));
    append_integrator_parameters(specs_);
  }

  // The case's system: periods, modes, vector fields, guards, initial state, scales.
  virtual HybridDescription<N> describe(const ParameterSet& values) const = 0;

  std::string name() const override { return info_.name; }
  std::string summary() const override { return info_.summary; }
  const std::vector<ParameterSpec>& parameters() const override { return specs_; }
  std::vector<ObservableSpec> observables() const override { return observables_.specs; }
  ModelCapabilities capabilities() const override { return {true, true, true}; }  // restarts, Jacobians, traces

  std::unique_ptr<Simulation> start(const ParameterSet& values) const override {
    auto description = std::make_shared<const HybridDescription<N>>(describe(values));
    HybridFrame frame;
    for (const auto& c : info_.state) {
      frame.names.push_back(c.name);
      frame.units.push_back(c.unit);
    }
    frame.drift_component = observables_.drift_component;
    frame.tracked = observables_.tracked;
    frame.numerics.control = integrator_control(values, description->period / 32);
    frame.numerics.v_eps = values.get("v_eps");
    return std::make_unique<HybridSimulation<N>>(description, frame);
  }

  CaseSummary summarize(const SteadyState& steady, const StrobeLayout& layout, const ParameterSet&) const override {
    return summarize_hybrid_window(steady, observables_, layout.period);
  }

 private:
  HybridModelInfo info_;
  HybridObservables observables_;
  std::vector<ParameterSpec> specs_;
};

}  // namespace vibro
