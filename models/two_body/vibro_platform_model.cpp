// Model B of seed 001 (spec two_body_impact.md 2), registered as "vibro_platform".
#include <memory>

#include "engine/core/model_registry.hpp"
#include "models/two_body/impact_regime.hpp"
#include "models/two_body/vibro_platform_parameters.hpp"
#include "models/two_body/vibro_platform_simulation.hpp"

namespace vibro::two_body {

class VibroPlatformModel : public Model {
 public:
  std::string name() const override { return "vibro_platform"; }
  std::string summary() const override {
    return "vibro-platform: table on a spring, rubber block, loose form with concrete that lifts off and lands "
           "(soft impact: linear or Hertz; or restitution) (seed 001, Model B)";
  }
  const std::vector<ParameterSpec>& parameters() const override { return vibro_platform_parameter_specs(); }
  std::vector<ObservableSpec> observables() const override { return impact_observables(); }
  std::unique_ptr<Simulation> start(const ParameterSet& p) const override {
    return std::make_unique<VibroPlatformSimulation>(VibroPlatformConstants::from(p));
  }
  ModelCapabilities capabilities() const override { return {true, true, true}; }
  CaseSummary summarize(const SteadyState& steady, const StrobeLayout&, const ParameterSet&) const override {
    return summarize_impact_regime(steady, kLandings, kFlight);
  }
};

static RegisterModel<VibroPlatformModel> registration;

}  // namespace vibro::two_body
