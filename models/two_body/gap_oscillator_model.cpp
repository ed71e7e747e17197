// Model A of seed 001 (spec two_body_impact.md 1), registered as "gap_oscillator".
#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/steady_state.hpp"
#include "engine/core/model_registry.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/gap_oscillator_simulation.hpp"
#include "models/two_body/impact_regime.hpp"

namespace vibro::two_body {

class GapOscillatorModel : public Model {
 public:
  std::string name() const override { return "gap_oscillator"; }
  std::string summary() const override {
    return "2-DOF oscillator with a gap between main and attached body, rigid (restitution) or compliant "
           "(linear, Hertz) impact (seed 001, Model A)";
  }
  const std::vector<ParameterSpec>& parameters() const override { return gap_oscillator_parameter_specs(); }
  std::vector<ObservableSpec> observables() const override { return impact_observables(); }
  std::unique_ptr<Simulation> start(const ParameterSet& p) const override {
    return std::make_unique<GapOscillatorSimulation>(GapOscillatorConstants::from(p));
  }
  ModelCapabilities capabilities() const override { return {true, true, true}; }
  CaseSummary summarize(const SteadyState& steady, const StrobeLayout&, const ParameterSet&) const override {
    return summarize_impact_regime(steady, kImpacts, kFree);
  }
};

static RegisterModel<GapOscillatorModel> registration;

}  // namespace vibro::two_body
