// The clamped-clamped beam with a sliding mass of seed 004 (spec beam_slider.md), registered as
// "beam_slider": Moreau midpoint time-stepping with four frictional corner contacts.
#include <memory>

#include "engine/core/model_registry.hpp"
#include "models/beam_slider/beam_slider_parameters.hpp"
#include "models/beam_slider/beam_slider_simulation.hpp"
#include "models/beam_slider/beam_slider_summary.hpp"

namespace vibro::beam_slider {

class BeamSliderModel : public Model {
 public:
  std::string name() const override { return "beam_slider"; }
  std::string summary() const override {
    return "harmonically base-excited clamped-clamped beam (5 modes) with a rigid slider in a clearance: four "
           "corner contacts with Signorini, Coulomb and Newton impact, Moreau midpoint time-stepping with a "
           "GS-prox contact solver; variants adaptive / reference / surrogate (seed 004)";
  }
  const std::vector<ParameterSpec>& parameters() const override { return beam_slider_parameter_specs(); }
  std::vector<ObservableSpec> observables() const override { return beam_slider_observables(); }
  void validate(const ParameterSet& values) const override { validate_beam_slider(values); }
  std::unique_ptr<Simulation> start(const ParameterSet& p) const override {
    return std::make_unique<BeamSliderSimulation>(BeamSliderConstants::from(p));
  }
  ModelCapabilities capabilities() const override { return {true, false, true}; }  // no variational equations
  CaseSummary summarize(const SteadyState& steady, const StrobeLayout& layout, const ParameterSet& p) const override {
    return summarize_beam_slider(steady, layout, BeamSliderConstants::from(p));
  }
};

static RegisterModel<BeamSliderModel> registration;

}  // namespace vibro::beam_slider
