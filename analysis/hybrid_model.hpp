#pragma once
// The Model of a declaratively described hybrid system (engine/hybrid_model): a user model derives
// from HybridModel<N>, states its HybridModelInfo once and implements describe(parameters) -> the
// case's HybridDescription; the run loop, counters, samples, restarts, Jacobians, window observables,
// class codes and the batched and GPU back ends (over the fields' traced tapes) come from the adapter.
// N: the number of state components (the forcing phase is
// added by the adapter). Register it like any model: static vibro::RegisterModel<MyModel> reg;
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/hybrid_model_summary.hpp"
#include "engine/batch/cpu_batch.hpp"
#include "engine/core/half_period_symmetry.hpp"
#include "engine/core/input_error.hpp"
#include "engine/hybrid/integrator_parameters.hpp"
#include "engine/hybrid_model/described_batch_kernel.hpp"
#include "engine/hybrid_model/hybrid_simulation.hpp"

namespace vibro {

template <int N>
class HybridModel : public Model, public DescribedCases<N>, public DeclaredTimeUnit {
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
  HybridDescription<N> describe(const ParameterSet& values) const override = 0;

  // A symmetry of the case's equations under S: (x, t) -> (R x, t + T/2) with modes exchanged in pairs
  // (engine/core/half_period_symmetry.hpp), or none (the default). Declared, continuation and shooting
  // solve for the case's symmetric orbits as fixed points of the mirrored half-period map, and name a
  // symmetry-breaking bifurcation where they meet one. A declaration the layout refuses is an InputError
  // at start(); one the equations do not have is refused by shooting (its fixed points are no orbits).
  virtual std::optional<HalfPeriodSymmetry> half_period_symmetry(const ParameterSet& /*values*/) const {
    return std::nullopt;
  }

  std::string name() const override { return info_.name; }
  std::string summary() const override { return info_.summary; }
  std::string time_unit() const override { return info_.time_unit; }
  const std::vector<ParameterSpec>& parameters() const override { return specs_; }
  std::vector<ObservableSpec> observables() const override { return observables_.specs; }
  ModelCapabilities capabilities() const override { return {true, true, true}; }  // restarts, Jacobians, traces
  // The adapter's codes (summarize_hybrid_window), then any the model declares to say more about them.
  std::vector<ClassCode> class_legend() const override {
    std::vector<ClassCode> legend = hybrid_class_legend();
    legend.insert(legend.end(), classes_.begin(), classes_.end());
    return legend;
  }

 protected:
  // What some of the adapter's codes mean for this model in particular (e.g. "(1,1)": the oscillator
  // hits its stop once per forcing cycle), listed after the adapter's generic legend.
  void explain_classes(std::vector<ClassCode> classes) { classes_ = std::move(classes); }

  std::unique_ptr<Simulation> start(const ParameterSet& values) const override {
    auto description = std::make_shared<const HybridDescription<N>>(describe(values));
    auto simulation = std::make_unique<HybridSimulation<N>>(description, frame(values, *description));
    if (const auto symmetry = half_period_symmetry(values))
      simulation->set_half_period_mirror(resolve_mirror(*symmetry, simulation->layout(), info_.name));
    return simulation;
  }

  // The adapter's frame of a case: component names and units, drift and tracked components, numerics.
  HybridFrame frame(const ParameterSet& values, const HybridDescription<N>& description) const override {
    HybridFrame frame;
    for (const auto& c : info_.state) {
      frame.names.push_back(c.name);
      frame.units.push_back(c.unit);
    }
    frame.drift_component = observables_.drift_component;
    frame.tracked = observables_.tracked;
    frame.numerics.control = integrator_control(values, description.period / 32);
    frame.numerics.v_eps = values.get("v_eps");
    return frame;
  }

  // run.backend = batched: the fields' tapes stepped on CPU threads (engine/hybrid_model/
  // described_batch_kernel.hpp). run.backend = cuda: none here; the host makes it from
  // described_cases() (engine/batch/batch_registry.cpp).
  std::unique_ptr<CaseBatch> batch(BatchDevice device, const CaseLimits& limits) const override {
    if (device != BatchDevice::Cpu) return nullptr;
    require_traceable("run.backend = batched");
    return std::make_unique<CpuBatch<DescribedBatchKernel<N>>>(limits, DescribedBatchKernel<N>(this));
  }
  const DescribedCasesBase* described_cases() const override { return this; }
  // Checked on a case at the model's default values, before any work.
  void require_traceable(const std::string& key) const override {
    try {
      const TapeField<N> traced(describe(ParameterSet(&specs_)));
    } catch (const UntraceableField& e) {
      throw InputError(key + ": model " + info_.name + ": " + e.what() + "; accepted for it: cpu");
    } catch (const std::exception&) {
      // A description the defaults cannot make: the cases themselves will say why.
    }
  }

  CaseSummary summarize(const SteadyState& steady, const StrobeLayout& layout, const ParameterSet&) const override {
    return summarize_hybrid_window(steady, observables_, layout.period);
  }

 private:
  HybridModelInfo info_;
  HybridObservables observables_;
  std::vector<ParameterSpec> specs_;
  std::vector<ClassCode> classes_;
};

}  // namespace vibro
